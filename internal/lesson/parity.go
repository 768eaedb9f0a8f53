package lesson

import (
	"fmt"
	"go/scanner"
	"go/token"
	"regexp"
	"slices"
	"strings"
)

// Parity compares two language versions of a lesson (bg.md and ru.md of a topic) and reports, in a,
// where they stop teaching the same thing: the front-matter order and lists, the fenced blocks in the
// same order with the same programs and attributes, the same code once comments and string literals
// are set aside, the same numbers in every output and choice, and the same quizzes with the same right
// answers. Only the first difference of a kind is reported: after it, everything would differ.
func Parity(a, b *Lesson) Errors {
	var errs Errors
	add := func(line int, code Code, kv ...any) {
		errs = append(errs, newError(a.File, line, code, append(kv, "File", b.File)...))
	}
	if a.Meta.Order != b.Meta.Order {
		add(1, CodeParityMeta, "Field", "order", "Here", a.Meta.Order, "There", b.Meta.Order)
	}
	for _, f := range []struct {
		name        string
		here, there []string
	}{{"exercises", a.Meta.Exercises, b.Meta.Exercises}, {"requires", a.Meta.Requires, b.Meta.Requires}} {
		if !slices.Equal(f.here, f.there) {
			add(1, CodeParityMeta, "Field", f.name, "Here", listText(f.here), "There", listText(f.there))
		}
	}

	if len(a.Blocks) != len(b.Blocks) {
		add(1, CodeParityBlocks, "Here", len(a.Blocks), "There", len(b.Blocks))
	}
	for i := range min(len(a.Blocks), len(b.Blocks)) {
		x, y := a.Blocks[i], b.Blocks[i]
		if hx, hy := x.header(), y.header(); hx != hy {
			add(x.Line, CodeParityBlock, "Here", hx, "There", hy, "Line", y.Line)
			break
		}
		switch x.Kind {
		case GoBlock, FixBlock:
			if at, here, there, ok := sameShape(x.Text, y.Text); !ok {
				add(x.CodeLine()+at-1, CodeParityShape, "Here", here, "There", there, "Line", y.CodeLine()+at-1, "At", at)
			}
		case OutputBlock, ChoiceBlock:
			if lx, here, ly, there, ok := sameNumbers(x.Text, y.Text); !ok {
				add(x.CodeLine()+lx-1, CodeParityNumbers, "Here", here, "There", there, "Line", y.CodeLine()+ly-1)
			}
		}
	}

	if len(a.Quizzes) != len(b.Quizzes) {
		add(1, CodeParityQuizzes, "Here", len(a.Quizzes), "There", len(b.Quizzes))
	}
	for i := range min(len(a.Quizzes), len(b.Quizzes)) {
		x, y := a.Quizzes[i], b.Quizzes[i]
		switch {
		case x.Kind != y.Kind:
			add(x.Line, CodeParityKind, "Here", string(x.Kind), "There", string(y.Kind), "Line", y.Line)
		case x.attr() != y.attr():
			add(x.Line, CodeParityAttr, "Here", x.attr(), "There", y.attr(), "Line", y.Line)
		case x.answers() != y.answers():
			add(x.Line, CodeParityAnswers, "Here", x.answers(), "There", y.answers(), "Line", y.Line)
		case x.Right() != y.Right():
			add(x.Line, CodeParityRight, "Here", x.Right()+1, "There", y.Right()+1, "Line", y.Line)
		case x.explanations() != y.explanations():
			add(x.Line, CodeParityExplain, "Here", x.explanations(), "There", y.explanations(), "Line", y.Line)
		}
	}
	return errs
}

// explanations counts what a quiz explains: its <!-- explain --> and each <!-- why -->.
func (q *Quiz) explanations() int {
	n := 0
	if q.ExplainLine > 0 {
		n++
	}
	for _, o := range q.Options {
		if o.WhyLine > 0 {
			n++
		}
	}
	for _, b := range q.Choices() {
		if b.WhyLine > 0 {
			n++
		}
	}
	return n
}

func listText(l []string) string { return "[" + strings.Join(l, ", ") + "]" }

// header is what must match between the languages of a block: its kind and attributes.
func (b *Block) header() string {
	s := "```" + b.Kind.String()
	switch b.Kind {
	case GoBlock:
		s += " program=" + b.Program
		if b.From != "" {
			s += " from=" + b.From
		}
	case OutputBlock:
		if b.explicit {
			s += " program=" + b.Program
		}
	case ChoiceBlock:
		if b.Correct {
			s += " correct"
		}
	}
	if b.Hidden {
		s += " hidden"
	}
	return s
}

// attr is what a quiz's opening comment says besides its kind.
func (q *Quiz) attr() string {
	switch q.Kind {
	case Bug:
		return fmt.Sprintf("line=%d", q.BugLine)
	case Fill:
		return "answer=" + q.Answer
	}
	return ""
}

// Explained reports what the quizzes of l leave unexplained: a quiz without its <!-- explain -->
// section, an option of a choice quiz without its <!-- why -->. (In a predict quiz a choice may go
// without one: its output and the explanation of the quiz say enough.)
func Explained(l *Lesson) Errors {
	var errs Errors
	for _, q := range l.Quizzes {
		if q.Kind == "" || q.EndLine == 0 {
			continue // a quiz that is not even closed has more to mend first
		}
		if q.ExplainLine == 0 {
			errs = append(errs, newError(l.File, q.Line, CodeQuizNoExplain))
		}
		for _, o := range q.Options {
			if o.WhyLine == 0 {
				errs = append(errs, newError(l.File, o.Line, CodeOptionNoWhy))
			}
		}
	}
	return errs
}

// answers is the number of answers of a choice or predict quiz.
func (q *Quiz) answers() int {
	if q.Kind == Choice {
		return len(q.Options)
	}
	return len(q.Choices())
}

var digits = regexp.MustCompile(`[0-9]+`)

// number is a group of digits and the line (from 1) it is on.
type number struct {
	text string
	line int
}

// numbers returns the groups of digits in s, in order.
func numbers(s string) []number {
	var out []number
	for i, line := range strings.Split(s, "\n") {
		for _, d := range digits.FindAllString(line, -1) {
			out = append(out, number{d, i + 1})
		}
	}
	return out
}

// sameNumbers compares the numbers of two outputs. When they differ it returns the line of each where
// the first difference is, with the numbers of those lines.
func sameNumbers(a, b string) (la int, here string, lb int, there string, ok bool) {
	na, nb := numbers(a), numbers(b)
	for i := 0; i < len(na) || i < len(nb); i++ {
		if i < len(na) && i < len(nb) && na[i].text == nb[i].text {
			continue
		}
		la, lb = lineAt(na, i, a), lineAt(nb, i, b)
		return la, lineNumbers(na, la), lb, lineNumbers(nb, lb), false
	}
	return 0, "", 0, "", true
}

// lineAt is the line of the i-th number, or the last line of s when there are fewer.
func lineAt(ns []number, i int, s string) int {
	if i < len(ns) {
		return ns[i].line
	}
	return max(1, strings.Count(strings.TrimSuffix(s, "\n"), "\n")+1)
}

// lineNumbers is the numbers on one line, "—" when there are none.
func lineNumbers(ns []number, line int) string {
	var list []string
	for _, n := range ns {
		if n.line == line {
			list = append(list, n.text)
		}
	}
	if len(list) == 0 {
		return "—"
	}
	return strings.Join(list, " ")
}

// sameShape compares two pieces of Go token by token, comments skipped and every string or rune
// literal taken as equal to any other. When they differ it returns the line (from 1) of the first
// difference in a and the two tokens there.
func sameShape(a, b string) (line int, here, there string, ok bool) {
	ta, tb := shape(a), shape(b)
	for i := 0; i < len(ta) || i < len(tb); i++ {
		var x, y tok
		if i < len(ta) {
			x = ta[i]
		} else {
			x = tok{text: "(end)", line: lastLine(ta)}
		}
		if i < len(tb) {
			y = tb[i]
		} else {
			y = tok{text: "(end)"}
		}
		if x.text != y.text {
			return x.line, x.text, y.text, false
		}
	}
	return 0, "", "", true
}

type tok struct {
	text string
	line int
}

func lastLine(ts []tok) int {
	if len(ts) == 0 {
		return 1
	}
	return ts[len(ts)-1].line
}

// shape scans Go source into its tokens, strings and runes as "…", comments dropped.
func shape(src string) []tok {
	var s scanner.Scanner
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	s.Init(f, []byte(src), func(token.Position, string) {}, 0)
	var out []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			return out
		}
		text := t.String()
		switch t {
		case token.STRING, token.CHAR:
			text = `"…"`
		case token.SEMICOLON:
			text = ";"
		default:
			if lit != "" {
				text = lit
			}
		}
		if t == token.SEMICOLON && lit == "\n" {
			text = "newline"
		}
		out = append(out, tok{text: text, line: fset.Position(pos).Line})
	}
}
