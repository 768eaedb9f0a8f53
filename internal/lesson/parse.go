package lesson

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/frontmatter"
	"gopkg.in/yaml.v3"
)

// Parse reads a lesson file. name is what problems are reported under (lessons/<topic>/bg.md); its
// base name, bg.md or ru.md, gives the lesson's language. Parse checks everything that can be checked
// without running code: the front matter, the fences, the info strings, the programs named by
// from= and by output blocks, and the shape of every quiz. It returns the lesson it could read
// together with the problems (an Errors), so a caller sees them all at once; it never panics.
func Parse(name string, src []byte) (*Lesson, error) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	p := &parse{
		l:     &Lesson{File: name, Source: src, Lang: langOf(name)},
		lines: lineStarts(src),
	}
	p.run()
	p.errs.Sort()
	return p.l, p.errs.Err()
}

func langOf(name string) string {
	switch base := path.Base(strings.ReplaceAll(name, `\`, "/")); base {
	case "bg.md", "ru.md":
		return strings.TrimSuffix(base, ".md")
	}
	return ""
}

type parse struct {
	l     *Lesson
	lines []int // byte offset at which each line starts
	errs  Errors

	quiz     *Quiz           // the quiz open now, or nil
	started  map[string]int  // program name -> line of its first block
	last     string          // the program of the most recent go block
	question map[*Quiz]bool  // quizzes whose question is complete
	items    map[*Quiz][]int // task list items seen without a checkbox, by line

	explain  map[*Quiz]ast.Node // the <!-- explain --> comment of a quiz
	consumed map[ast.Node]bool  // paragraphs read as the continuation of a <!-- why -->
	drop     []ast.Node         // explanations, taken out of the tree once it is read
}

func (p *parse) errorf(line int, code Code, kv ...any) {
	p.errs = append(p.errs, newError(p.l.File, line, code, kv...))
}

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 <= len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the 1-based line holding byte offset off.
func (p *parse) lineOf(off int) int {
	if off < 0 {
		return 1
	}
	return sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off })
}

func (p *parse) run() {
	src := p.l.Source
	if !p.checkFrontMatter() {
		return
	}
	ctx := parser.NewContext(parser.WithIDs(NewIDs()))
	doc := Markdown().Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	p.l.Doc = doc
	if fm := frontmatter.Get(ctx); fm != nil {
		p.decodeMeta(fm)
	}
	p.started = map[string]int{}
	p.question = map[*Quiz]bool{}
	p.items = map[*Quiz][]int{}
	p.explain = map[*Quiz]ast.Node{}
	p.consumed = map[ast.Node]bool{}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			p.fence(n)
			p.endQuestion()
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			p.html(n)
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			v := string(rawHTML(n, src))
			if marker, _, ok := commentMarker(v); ok && (marker == "why" || marker == "explain") {
				p.errorf(p.lineOfNode(n), CodeWhyStray, "Marker", marker)
			} else if strings.HasPrefix(v, "<!--") && strings.Contains(strings.TrimSpace(strings.TrimPrefix(v, "<!--")), "quiz") &&
				(strings.Contains(v, "quiz:") || strings.Contains(v, "/quiz")) {
				p.errorf(p.lineOfNode(n), CodeQuizInline)
			}
		case *ast.Heading:
			t := plainText(n, src)
			id, _ := n.AttributeString("id")
			idStr := ""
			if b, ok := id.([]byte); ok {
				idStr = string(b)
			}
			p.l.Headings = append(p.l.Headings, Heading{Level: n.Level, Line: p.lineOfNode(n), Text: t, ID: idStr})
			p.endQuestion()
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph:
			if p.consumed[n] {
				return ast.WalkSkipChildren, nil
			}
			if q := p.quiz; q != nil && !p.question[q] && n.Parent() != nil && n.Parent().Kind() == ast.KindDocument {
				if q.Question != "" {
					q.Question += "\n\n"
				}
				q.Question += plainText(n, src)
				return ast.WalkSkipChildren, nil
			}
		case *ast.List:
			p.endQuestion()
			if p.explaining() {
				return ast.WalkSkipChildren, nil
			}
			if p.quiz != nil && p.quiz.Kind == Choice {
				p.options(n)
				return ast.WalkSkipChildren, nil
			}
		case *ast.CodeBlock, *ast.Blockquote, *ast.ThematicBreak, *east.Table:
			p.endQuestion()
		}
		return ast.WalkContinue, nil
	})
	if q := p.quiz; q != nil {
		// What the quiz lacks is no news: it runs to the end of the file.
		p.errorf(q.Line, CodeQuizUnclosed)
	}
	// The explanations are shown after an answer, never with the question: no renderer of the tree
	// may come upon them.
	for _, n := range p.drop {
		if parent := n.Parent(); parent != nil {
			parent.RemoveChild(parent, n)
		}
	}
}

// explaining reports whether the quiz open now is in its explanation section.
func (p *parse) explaining() bool { return p.quiz != nil && p.quiz.ExplainLine > 0 }

func (p *parse) endQuestion() {
	if p.quiz != nil {
		p.question[p.quiz] = true
	}
}

// checkFrontMatter makes sure a lesson opens with front matter that is closed. It returns false when
// the front matter is never closed: goldmark would take the whole lesson for it.
func (p *parse) checkFrontMatter() bool {
	first, _, _ := bytes.Cut(p.l.Source, []byte("\n"))
	if string(bytes.TrimRight(first, " \t")) != "---" {
		p.errorf(1, CodeNoFrontMatter)
		return true
	}
	if !frontClosed(p.l.Source) {
		p.errorf(1, CodeUnclosedFront)
		return false
	}
	return true
}

var metaKeys = map[string]bool{"title": true, "summary": true, "order": true, "exercises": true, "requires": true}

func (p *parse) decodeMeta(fm *frontmatter.Data) {
	var raw map[string]any
	if err := fm.Decode(&raw); err != nil {
		p.errorf(1, CodeFrontMatter, "Err", yamlErr(err))
		return
	}
	var keys []string
	for k := range raw {
		if !metaKeys[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p.errorf(1, CodeFrontMatter, "Err", fmt.Sprintf("unknown key %q (title, summary, order, exercises, requires)", k))
	}
	var m Meta
	if err := fm.Decode(&m); err != nil {
		p.errorf(1, CodeFrontMatter, "Err", yamlErr(err))
		return
	}
	p.l.Meta = m
	for _, f := range []struct {
		name string
		ok   bool
	}{{"title", m.Title != ""}, {"summary", m.Summary != ""}, {"order", m.Order > 0}} {
		if !f.ok {
			p.errorf(1, CodeMissingField, "Field", f.name)
		}
	}
}

// yamlErr shortens a YAML error; its line numbers count from the line after the opening ---.
func yamlErr(err error) string {
	s := err.Error()
	if te, ok := err.(*yaml.TypeError); ok {
		s = strings.Join(te.Errors, "; ")
	}
	return strings.TrimPrefix(s, "yaml: ")
}

func (p *parse) lineOfNode(n ast.Node) int {
	if pos := n.Pos(); pos >= 0 {
		return p.lineOf(pos)
	}
	for c := n; c != nil; c = c.Parent() {
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			return p.lineOf(c.Lines().At(0).Start)
		}
	}
	return 1
}

// fence reads a fenced block: what it is to the engine, and whether it is closed.
func (p *parse) fence(n *ast.FencedCodeBlock) {
	src := p.l.Source
	start := n.Pos()
	line := p.lineOf(start)
	if !p.closed(n) {
		p.errorf(line, CodeUnclosedFence)
	}
	if p.explaining() {
		return // code in an explanation is shown, not run
	}
	info := ""
	if n.Info != nil {
		info = strings.TrimSpace(string(n.Info.Segment.Value(src)))
	}
	words := strings.Fields(info)
	if len(words) == 0 {
		return
	}
	b := &Block{Line: line, Info: info, Node: n, Quiz: p.quiz}
	var buf strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		buf.Write(seg.Value(src))
	}
	b.Text = buf.String()
	if b.Text != "" && !strings.HasSuffix(b.Text, "\n") {
		b.Text += "\n"
	}
	bad := func(w string) { p.errorf(line, CodeBadInfo, "Word", w, "Info", info) }
	switch words[0] {
	case "go":
		b.Kind = GoBlock
		for _, w := range words[1:] {
			k, v, hasValue := strings.Cut(w, "=")
			switch {
			case w == "hidden":
				b.Hidden = true
			case w == "fix":
				b.Kind = FixBlock
			case w == "virtual":
				b.Virtual = true
			case k == "program" && hasValue:
				b.Program = v
			case k == "from" && hasValue:
				b.From = v
			default:
				bad(w)
			}
		}
		if b.Kind == FixBlock && (b.Program != "" || b.From != "") {
			bad("program=")
		}
	case "output":
		b.Kind = OutputBlock
		for _, w := range words[1:] {
			k, v, hasValue := strings.Cut(w, "=")
			switch {
			case w == "hidden":
				b.Hidden = true
			case k == "program" && hasValue:
				b.Program, b.explicit = v, true
			default:
				bad(w)
			}
		}
	case "choice":
		b.Kind = ChoiceBlock
		for _, w := range words[1:] {
			if w == "correct" {
				b.Correct = true
			} else {
				bad(w)
			}
		}
	default:
		return
	}
	p.l.Blocks = append(p.l.Blocks, b)
	if p.quiz != nil {
		p.quiz.Blocks = append(p.quiz.Blocks, b)
	} else if b.Kind == FixBlock || b.Kind == ChoiceBlock {
		p.errorf(line, CodeOutsideQuiz, "Info", info)
	}
	switch b.Kind {
	case GoBlock:
		p.program(b)
	case OutputBlock:
		if b.Program == "" {
			if p.last == "" {
				p.errorf(line, CodeOutputNoProgram)
				return
			}
			b.Program = p.last
		} else if !validName(b.Program) {
			p.errorf(line, CodeBadProgramName, "Name", b.Program)
		} else if _, ok := p.started[b.Program]; !ok {
			p.errorf(line, CodeOutputUnknown, "Name", b.Program)
		}
	}
}

// program checks a go block's program= and from= against the programs shown so far.
func (p *parse) program(b *Block) {
	switch {
	case b.Program == "":
		p.errorf(b.Line, CodeNoProgramName)
		return
	case !validName(b.Program):
		p.errorf(b.Line, CodeBadProgramName, "Name", b.Program)
		return
	}
	first, seen := p.started[b.Program]
	if b.From != "" {
		switch {
		case !validName(b.From):
			p.errorf(b.Line, CodeBadProgramName, "Name", b.From)
		case seen:
			p.errorf(b.Line, CodeFromLate, "Name", b.Program, "Line", first)
		case p.started[b.From] == 0:
			p.errorf(b.Line, CodeFromUnknown, "Name", b.From)
		}
	}
	if !seen {
		p.started[b.Program] = b.Line
	}
	p.last = b.Program
}

// validName reports whether s is a Latin identifier.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
		if !ok {
			return false
		}
	}
	return true
}

// closed reports whether a fenced block ends with a closing fence (and not with the end of the file
// or of the list or quote holding it).
func (p *parse) closed(n *ast.FencedCodeBlock) bool {
	src := p.l.Source
	start := n.Pos()
	if start < 0 || start >= len(src) {
		return true
	}
	ch := src[start]
	if ch != '`' && ch != '~' {
		return true
	}
	width := 0
	for start+width < len(src) && src[start+width] == ch {
		width++
	}
	// The line after the last line of content (or after the opening line).
	end := start
	if k := n.Lines().Len(); k > 0 {
		end = n.Lines().At(k - 1).Stop
		if end > 0 && end <= len(src) && src[end-1] == '\n' {
			end--
		}
	}
	nl := bytes.IndexByte(src[min(end, len(src)):], '\n')
	if nl < 0 {
		return false
	}
	next := src[end+nl+1:]
	if i := bytes.IndexByte(next, '\n'); i >= 0 {
		next = next[:i]
	}
	next = bytes.TrimLeft(next, " \t>")
	run := 0
	for run < len(next) && next[run] == ch {
		run++
	}
	return run >= width && len(bytes.TrimSpace(next[run:])) == 0
}

// html reads a quiz's opening or closing comment.
func (p *parse) html(n *ast.HTMLBlock) {
	src := p.l.Source
	var buf bytes.Buffer
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		buf.Write(seg.Value(src))
	}
	if n.HasClosure() {
		buf.Write(n.ClosureLine.Value(src))
	}
	v := strings.TrimSpace(buf.String())
	if !strings.HasPrefix(v, "<!--") {
		return
	}
	line := p.lineOf(n.Pos())
	if marker, rest, ok := commentMarker(v); ok {
		switch marker {
		case "why":
			p.choiceWhy(n, line, rest)
			return
		case "explain":
			p.openExplain(n, line, rest)
			return
		}
	}
	inner, ok := strings.CutSuffix(strings.TrimPrefix(v, "<!--"), "-->")
	inner = strings.TrimSpace(inner)
	if !ok || strings.Contains(inner, "-->") {
		if strings.Contains(v, "quiz:") || strings.Contains(v, "/quiz") {
			p.errorf(line, CodeQuizInline)
		}
		return
	}
	switch {
	case inner == "/quiz":
		if p.quiz == nil {
			p.errorf(line, CodeQuizStray)
			return
		}
		p.quiz.EndLine = line
		p.quiz.Close = n
		p.closeExplain(p.quiz, n)
		p.closeQuiz(p.quiz)
		p.quiz = nil
	case strings.HasPrefix(inner, "quiz:") || strings.HasPrefix(inner, "quiz "):
		if p.quiz != nil {
			p.errorf(line, CodeQuizNested, "Line", p.quiz.Line)
			p.closeQuiz(p.quiz)
			p.quiz = nil
		}
		q := p.openQuiz(line, strings.TrimPrefix(inner, "quiz"))
		q.Open = n
		p.quiz = q
		p.l.Quizzes = append(p.l.Quizzes, q)
	}
}

// openQuiz reads "KIND key=value ..." after "quiz".
func (p *parse) openQuiz(line int, header string) *Quiz {
	q := &Quiz{Line: line}
	header, colon := strings.CutPrefix(strings.TrimSpace(header), ":")
	words := splitWords(header)
	if !colon || len(words) == 0 {
		p.errorf(line, CodeQuizKind, "Kind", strings.TrimSpace(header))
		return q
	}
	q.Kind = QuizKind(words[0])
	attrs := map[string]string{}
	for _, w := range words[1:] {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			p.errorf(line, CodeBadInfo, "Word", w, "Info", header)
			continue
		}
		attrs[k] = unquote(v)
	}
	allowed := ""
	switch q.Kind {
	case Choice, Predict:
	case Bug:
		allowed = "line"
		n, err := strconv.Atoi(attrs["line"])
		if err != nil || n < 1 {
			p.errorf(line, CodeQuizAttr, "Kind", "bug", "Attr", "line=N")
		}
		q.BugLine = n
	case Fill:
		allowed = "answer"
		v, ok := attrs["answer"]
		switch {
		case !ok:
			p.errorf(line, CodeQuizAttr, "Kind", "fill", "Attr", "answer=TEXT")
		case strings.TrimSpace(v) == "":
			p.errorf(line, CodeFillAnswerBlank)
		}
		q.Answer = v
	default:
		p.errorf(line, CodeQuizKind, "Kind", string(q.Kind))
		q.Kind = ""
		return q
	}
	for k := range attrs {
		if k != allowed {
			p.errorf(line, CodeBadInfo, "Word", k+"=", "Info", header)
		}
	}
	return q
}

// splitWords splits on spaces, keeping a double-quoted value (answer="a b") in one word.
func splitWords(s string) []string {
	var words []string
	var cur strings.Builder
	inQuote, escaped, has := false, false, false
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
		case r == '\\' && inQuote:
			escaped = true
		case r == '"':
			inQuote = !inQuote
		case (r == ' ' || r == '\t' || r == '\n') && !inQuote:
			if has {
				words = append(words, cur.String())
				cur.Reset()
				has = false
			}
			continue
		}
		cur.WriteRune(r)
		has = true
	}
	if has {
		words = append(words, cur.String())
	}
	return words
}

func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		if u, err := strconv.Unquote(v); err == nil {
			return u
		}
		return v[1 : len(v)-1]
	}
	return v
}

// options reads the task list of a multiple-choice quiz.
func (p *parse) options(list *ast.List) {
	q := p.quiz
	src := p.l.Source
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		line := p.lineOfNode(item)
		var box *east.TaskCheckBox
		ast.Walk(item, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if cb, ok := n.(*east.TaskCheckBox); ok && entering && box == nil {
				box = cb
				return ast.WalkStop, nil
			}
			return ast.WalkContinue, nil
		})
		if box == nil {
			p.items[q] = append(p.items[q], line)
			continue
		}
		o := Option{Line: line, Correct: box.IsChecked}
		o.Why, o.WhyLine = p.optionWhy(item)
		o.Text = strings.TrimSpace(plainText(item, src))
		q.Options = append(q.Options, o)
	}
}

// closeQuiz checks that a quiz has what its kind needs.
func (p *parse) closeQuiz(q *Quiz) {
	if q.Question == "" && q.Kind != "" {
		p.errorf(q.Line, CodeQuizNoQuestion)
	}
	wrong := func(b *Block) { p.errorf(b.Line, CodeBlockInWrongQuiz, "Info", b.Info, "Kind", string(q.Kind)) }
	switch q.Kind {
	case Choice:
		for _, b := range q.Blocks {
			if b.Kind == ChoiceBlock || b.Kind == FixBlock {
				wrong(b)
			}
		}
		if len(q.Options) == 0 || len(p.items[q]) > 0 {
			p.errorf(q.Line, CodeChoiceTaskList)
			return
		}
		right := 0
		for _, o := range q.Options {
			if o.Correct {
				right++
			}
		}
		if right != 1 {
			p.errorf(q.Line, CodeChoiceRight, "Count", right)
		}
		if len(q.Options) < 2 {
			p.errorf(q.Line, CodeChoiceFew, "Count", len(q.Options))
		}
	case Predict:
		lastGo, choices, right := -1, 0, 0
		for i, b := range q.Blocks {
			switch b.Kind {
			case GoBlock:
				lastGo = i
				if choices > 0 {
					wrong(b)
				}
			case ChoiceBlock:
				choices++
				if b.Correct {
					right++
				}
			default:
				wrong(b)
			}
		}
		if lastGo < 0 || choices < 2 {
			p.errorf(q.Line, CodePredictBlocks)
			return
		}
		if right != 1 {
			p.errorf(q.Line, CodePredictRight, "Count", right)
		}
	case Bug:
		goBlocks, fixes := q.GoBlocks(), q.blocks(FixBlock)
		for _, b := range q.Blocks {
			if b.Kind != GoBlock && b.Kind != FixBlock {
				wrong(b)
			}
		}
		if len(goBlocks) != 1 || len(fixes) != 1 || q.Blocks[0].Kind != GoBlock {
			p.errorf(q.Line, CodeBugBlocks)
			return
		}
		if n := strings.Count(goBlocks[0].Text, "\n"); q.BugLine > n {
			p.errorf(q.Line, CodeBugLine, "Line", q.BugLine, "Lines", n)
			q.BugLine = 0
		}
	case Fill:
		goBlocks, outs := q.GoBlocks(), q.blocks(OutputBlock)
		for _, b := range q.Blocks {
			if b.Kind != GoBlock && b.Kind != OutputBlock {
				wrong(b)
			}
		}
		if len(goBlocks) != 1 || len(outs) != 1 || q.Blocks[0].Kind != GoBlock {
			p.errorf(q.Line, CodeFillBlocks)
			return
		}
		if !strings.Contains(goBlocks[0].Text, "___") {
			p.errorf(goBlocks[0].Line, CodeFillNoBlank)
		}
	}
}

// rawHTML returns the text of an inline HTML node.
func rawHTML(n *ast.RawHTML, src []byte) []byte {
	var b []byte
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		b = append(b, seg.Value(src)...)
	}
	return b
}

// plainText returns the text of a node's inlines: escapes resolved, code spans kept as their text,
// soft line breaks as spaces, emphasis and links reduced to their words.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			v := c.Value(src)
			if !c.IsRaw() {
				v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
			}
			b.Write(v)
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tx, ok := t.(*ast.Text); ok {
					b.Write(tx.Value(src))
				} else if s, ok := t.(*ast.String); ok {
					b.Write(s.Value)
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *east.TaskCheckBox:
			return ast.WalkSkipChildren, nil
		}
		if c.Type() == ast.TypeBlock && c != n && b.Len() > 0 && c.PreviousSibling() != nil {
			b.WriteByte(' ')
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// commentMarker reads an HTML comment that opens a line of explanation, "<!-- why --> text" or
// "<!-- explain -->": it returns the word inside the comment and the text after it.
func commentMarker(v string) (marker, rest string, ok bool) {
	inner, ok := strings.CutPrefix(strings.TrimSpace(v), "<!--")
	if !ok {
		return "", "", false
	}
	inner, rest, ok = strings.Cut(inner, "-->")
	if !ok {
		return "", "", false
	}
	switch marker = strings.TrimSpace(inner); marker {
	case "why", "explain":
		return marker, strings.TrimSpace(rest), true
	}
	return "", "", false
}

// whyText reads an explanation that starts with the comment node n: the text after the comment on
// its line, then the paragraph that goes on right below it (no blank line between). It marks both
// for taking out of the tree.
func (p *parse) whyText(n ast.Node, rest string) string {
	lines := []string{}
	if rest != "" {
		lines = append(lines, rest)
	}
	p.drop = append(p.drop, n)
	if next := n.NextSibling(); next != nil && !next.HasBlankPreviousLines() &&
		(next.Kind() == ast.KindParagraph || next.Kind() == ast.KindTextBlock) {
		for i := 0; i < next.Lines().Len(); i++ {
			seg := next.Lines().At(i)
			lines = append(lines, strings.TrimSpace(string(seg.Value(p.l.Source))))
		}
		p.consumed[next] = true
		p.drop = append(p.drop, next)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// optionWhy reads the <!-- why --> line of a choice option (a list item) and returns its text and
// line. The item keeps only the answer itself.
func (p *parse) optionWhy(item ast.Node) (string, int) {
	why, whyLine := "", 0
	ast.Walk(item, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if raw, ok := n.(*ast.RawHTML); ok && entering {
			if marker, _, ok := commentMarker(string(rawHTML(raw, p.l.Source))); ok {
				p.errorf(p.lineOfNode(raw), CodeWhyStray, "Marker", marker)
			}
		}
		return ast.WalkContinue, nil
	})
	var markers []ast.Node
	for c := item.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Kind() == ast.KindHTMLBlock {
			markers = append(markers, c)
		}
	}
	for _, c := range markers {
		marker, rest, ok := commentMarker(string(blockText(c, p.l.Source)))
		if !ok {
			continue
		}
		line := p.lineOfNode(c)
		if marker != "why" || whyLine > 0 {
			p.errorf(line, CodeWhyStray, "Marker", marker)
			continue
		}
		whyLine = line
		if why = p.whyText(c, rest); why == "" {
			p.errorf(line, CodeWhyEmpty)
		}
	}
	for _, n := range p.drop {
		if n.Parent() == item {
			item.RemoveChild(item, n)
		}
	}
	return why, whyLine
}

// choiceWhy reads a <!-- why --> paragraph outside a task list: it explains the ```choice block
// right above it.
func (p *parse) choiceWhy(n ast.Node, line int, rest string) {
	var b *Block
	if q := p.quiz; q != nil && q.Kind == Predict && !p.explaining() && len(q.Blocks) > 0 {
		last := q.Blocks[len(q.Blocks)-1]
		if last.Kind == ChoiceBlock && last.WhyLine == 0 && ast.Node(last.Node) == n.PreviousSibling() {
			b = last
		}
	}
	if b == nil {
		p.errorf(line, CodeWhyStray, "Marker", "why")
		return
	}
	b.WhyLine = line
	if b.Why = p.whyText(n, rest); b.Why == "" {
		p.errorf(line, CodeWhyEmpty)
	}
}

// openExplain reads the <!-- explain --> line that opens a quiz's explanation.
func (p *parse) openExplain(n ast.Node, line int, rest string) {
	q := p.quiz
	switch {
	case q == nil:
		p.errorf(line, CodeWhyStray, "Marker", "explain")
		return
	case q.ExplainLine > 0:
		p.errorf(line, CodeExplainTwice, "Line", q.ExplainLine)
		return
	}
	p.endQuestion()
	q.ExplainLine = line
	q.Explain = rest
	p.explain[q] = n
}

// closeExplain takes the explanation of q, from its <!-- explain --> to close, the <!-- /quiz -->.
func (p *parse) closeExplain(q *Quiz, close ast.Node) {
	open := p.explain[q]
	if open == nil {
		return
	}
	for n := open; n != nil && n != close; n = n.NextSibling() {
		p.drop = append(p.drop, n)
	}
	var lines []string
	if q.Explain != "" {
		lines = append(lines, q.Explain)
	}
	for l := q.ExplainLine + 1; l < q.EndLine && l <= len(p.lines); l++ {
		end := len(p.l.Source)
		if l < len(p.lines) {
			end = p.lines[l] - 1
		}
		lines = append(lines, string(p.l.Source[p.lines[l-1]:max(end, p.lines[l-1])]))
	}
	q.Explain = strings.TrimSpace(strings.Join(lines, "\n"))
	if q.Explain == "" {
		p.errorf(q.ExplainLine, CodeExplainEmpty)
	}
}

// blockText returns the lines of a block node as written.
func blockText(n ast.Node, src []byte) []byte {
	var b []byte
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b = append(b, seg.Value(src)...)
	}
	return b
}
