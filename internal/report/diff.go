package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// DiffText is a checker.Diff put into words for a person: the expected and the actual line, quoted
// with what cannot be seen made visible (or "end of output" past the end of a text), and a sentence
// for each invisible difference.
type DiffText struct {
	Want, Got string
	Notes     []string
}

// Explain puts d into words in pr's language. Every presenter (terminal, Markdown feedback, verify)
// shows a difference through it, so they all say the same thing.
func Explain(pr *i18n.Printer, d *checker.Diff) DiffText {
	t := DiffText{Want: shown(pr, d.Want, d.Notes, true), Got: shown(pr, d.Got, d.Notes, false)}
	for _, n := range d.Notes {
		msg := pr.T("note_" + n)
		if n == checker.NoteLatinLookalike || n == checker.NoteCyrillicInWord {
			cols := checker.LookalikeColumns(d.Want, d.Got)
			msg = pr.N("note_"+n, len(cols), "Cols", joinInts(cols))
		}
		t.Notes = append(t.Notes, msg)
	}
	return t
}

// SideBySide writes the whole expected and actual output of every failed visible case next to each
// other, line by line, a ≠ between the lines that differ and what cannot be seen made visible; a
// failed hidden case gets its title only. It is what `check --diff` adds to the report.
func SideBySide(w io.Writer, res *checker.Result, pr *i18n.Printer, opt Options) {
	c := painter{opt.Color}
	any, hidden := false, false
	for _, cs := range res.Cases {
		if cs.Status == checker.Pass || cs.Status == checker.NotRun {
			continue
		}
		if !any {
			fmt.Fprintln(w)
			fmt.Fprintln(w, c.bold(pr.T("sbs_heading")))
			any = true
		}
		if !cs.Visible {
			if !hidden {
				fmt.Fprintln(w)
			}
			hidden = true
			fmt.Fprintln(w, c.red("✗ ")+caseLabel(pr, cs)+" "+c.dim(pr.T("sbs_hidden")))
			continue
		}
		hidden = false
		fmt.Fprintln(w)
		fmt.Fprintln(w, c.red("✗ ")+caseLabel(pr, cs))
		want, got := sbsLines(cs.Want), sbsLines(cs.Got)
		width := utf8.RuneCountInString(pr.T("sbs_want"))
		for _, l := range want {
			width = max(width, utf8.RuneCountInString(l))
		}
		width = min(width, 60)
		pad := func(s string) string {
			if n := utf8.RuneCountInString(s); n < width {
				return s + strings.Repeat(" ", width-n)
			}
			return s
		}
		fmt.Fprintln(w, "  "+c.dim(pad(pr.T("sbs_want"))+"   "+pr.T("sbs_got")))
		for i := 0; i < len(want) || i < len(got); i++ {
			l, lok := at(want, i)
			r, rok := at(got, i)
			mark, paint := "│", func(s string) string { return s }
			if lok != rok || l != r {
				mark, paint = "≠", c.red
			}
			fmt.Fprintln(w, "  "+pad(l)+" "+paint(mark)+" "+paint(r))
		}
	}
}

// sbsLines splits an output into lines shown as the diff shows them: escaped, with trailing spaces,
// tabs and invisible characters visible; a missing final newline is said on a line of its own.
func sbsLines(s string) []string {
	s = checker.Normalize(s)
	if s == "" {
		return nil
	}
	ends := strings.HasSuffix(s, "\n")
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = EscapeLine(checker.Visible(l))
	}
	if !ends {
		lines = append(lines, "⏎̸")
	}
	return lines
}

func at(lines []string, i int) (string, bool) {
	if i < len(lines) {
		return lines[i], true
	}
	return "", false
}
