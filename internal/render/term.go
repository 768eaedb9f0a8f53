package render

import (
	"fmt"
	"strings"

	"github.com/rivo/uniseg"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/workbook-course/workbook/internal/lesson"
)

// MaxCodeWidth is the widest a line of lesson code may be, in columns (a tab counts as TabWidth):
// indented by CodeIndent, it stands whole in an 80-column terminal. `workbook verify` checks it
// (lesson.CodeWidth).
const MaxCodeWidth = lesson.MaxCodeWidth

// CodeIndent is how far code and output blocks are indented; TabWidth is the columns of a tab in
// them.
const (
	CodeIndent = 4
	TabWidth   = lesson.TabWidth
)

// Terminal renders Markdown for a terminal. The zero value renders plain text at 80 columns.
type Terminal struct {
	// Width is the column count prose is wrapped at (80 when 0). Prose is wrapped once, at spaces
	// only: a word, a command name with hyphens or a non-breaking space is never split.
	Width int
	// Columns is the screen's width, which code and output blocks must fit in (Width when 0).
	Columns int
	// Color turns on ANSI styles: bold headings and strong text, italic emphasis, coloured inline
	// code and Go code coloured from its go/scanner tokens. Without it the text has no escape
	// sequence and none of Markdown's own marks.
	Color bool
	// TooWide, when set, gives the note printed under a code or output block with a line wider than
	// the screen (cols is that line's width): such a block is never wrapped, so that it can be
	// copied, and the note says where to see it whole.
	TooWide func(cols int) string
}

// Render renders Markdown src. Code is never wrapped: a block is indented by CodeIndent columns when
// its widest line leaves room for that, less when not, and when it is wider than the screen, it is
// printed as it is with TooWide's note under it. Raw HTML (comments to authors) is left out.
func (t Terminal) Render(src string) string {
	if t.Width <= 0 {
		t.Width = 80
	}
	if t.Columns <= 0 {
		t.Columns = t.Width
	}
	data := []byte(src)
	// GitHub-flavoured Markdown as lessons are read, without front matter (a reader's Markdown has
	// none, and a quiz shown alone opens with a --- rule).
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(data))
	r := &termRenderer{t: t, src: data}
	lines := r.blocks(doc, t.Width, false)
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

type termRenderer struct {
	t   Terminal
	src []byte
}

// style is a set of inline styles.
type style uint8

const (
	stBold style = 1 << iota
	stItalic
	stCode
	stLink
	stStrike
	stDim
)

// sgr is the ANSI escape of a style; "" for none.
func (s style) sgr() string {
	var codes []string
	for _, c := range []struct {
		bit  style
		code string
	}{{stBold, "1"}, {stDim, "2"}, {stItalic, "3"}, {stLink, "4"}, {stStrike, "9"}, {stCode, "36"}} {
		if s&c.bit != 0 {
			codes = append(codes, c.code)
		}
	}
	if len(codes) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(codes, ";") + "m"
}

func (r *termRenderer) paint(sgr, s string) string {
	if !r.t.Color || sgr == "" || s == "" {
		return s
	}
	return sgr + s + "\x1b[0m"
}

// blocks renders the block children of n at width, separated by blank lines (by none in a tight
// list item).
func (r *termRenderer) blocks(n ast.Node, width int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if lines == nil {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// block renders one block node at width; nil for one that shows nothing.
func (r *termRenderer) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		lines := r.wrap(r.inlines(n, 0), width)
		if len(lines) == 1 && lines[0] == "" {
			return nil // only raw HTML
		}
		return lines
	case *ast.Heading:
		st := stBold
		if n.Level == 1 {
			st |= stLink // underlined
		}
		return r.wrap(r.inlines(n, st), width)
	case *ast.ThematicBreak:
		return []string{r.paint(stDim.sgr(), strings.Repeat("─", min(width, 40)))}
	case *ast.FencedCodeBlock:
		return r.code(string(n.Language(r.src)), CodeText(n, r.src), width)
	case *ast.CodeBlock:
		return r.code("", CodeText(n, r.src), width)
	case *ast.List:
		return r.list(n, width)
	case *ast.Blockquote:
		var out []string
		for _, l := range r.blocks(n, max(width-2, 10), false) {
			out = append(out, strings.TrimRight(r.paint(stDim.sgr(), "│")+" "+l, " "))
		}
		return out
	case *east.Table:
		return r.table(n, width)
	case *ast.HTMLBlock:
		return nil
	}
	if n.Type() == ast.TypeBlock && n.HasChildren() {
		return r.blocks(n, width, false)
	}
	return nil
}

// list renders a list: bullets or numbers, each item's lines under its first.
func (r *termRenderer) list(n *ast.List, width int) []string {
	count := n.ChildCount()
	markW := 2
	if n.IsOrdered() {
		markW = uniseg.StringWidth(fmt.Sprint(n.Start+count-1)) + 2
	}
	var out []string
	i := 0
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		mark := "•"
		if n.IsOrdered() {
			mark = fmt.Sprintf("%d%c", n.Start+i, n.Marker)
		}
		mark += strings.Repeat(" ", markW-uniseg.StringWidth(mark))
		lines := r.blocks(item, max(width-markW, 10), n.IsTight)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if i > 0 && !n.IsTight {
			out = append(out, "")
		}
		for k, l := range lines {
			prefix := strings.Repeat(" ", markW)
			if k == 0 {
				prefix = mark
			}
			out = append(out, strings.TrimRight(prefix+l, " "))
		}
		i++
	}
	return out
}

// code renders a code or output block: never wrapped, Go coloured.
func (r *termRenderer) code(lang, code string, width int) []string {
	width += r.t.Columns - r.t.Width // the screen's room, not the prose's
	lines := Lines(lang, strings.ReplaceAll(code, "\t", strings.Repeat(" ", TabWidth)))
	widest := 0
	for _, l := range lines {
		widest = max(widest, spansWidth(l))
	}
	indent := max(min(CodeIndent, width-widest), 0)
	pad := strings.Repeat(" ", indent)
	out := make([]string, 0, len(lines)+2)
	for _, l := range lines {
		var b strings.Builder
		for _, s := range l {
			b.WriteString(r.paint(tokenSGR[s.Class], s.Text))
		}
		line := strings.TrimRight(b.String(), " ")
		if line == "" {
			out = append(out, "")
			continue
		}
		out = append(out, pad+line)
	}
	if widest > width && r.t.TooWide != nil {
		out = append(out, "")
		out = append(out, r.wrap([]piece{{text: r.t.TooWide(widest), st: stItalic}}, width)...)
	}
	return out
}

func spansWidth(l []Span) int {
	w := 0
	for _, s := range l {
		w += uniseg.StringWidth(s.Text)
	}
	return w
}

// tokenSGR colours Go tokens with the terminal's own palette of 16 colours, which its theme fits to
// a light or a dark background.
var tokenSGR = map[string]string{
	"k": "\x1b[35m", "kd": "\x1b[35m", "kn": "\x1b[35m",
	"kt": "\x1b[36m", "kc": "\x1b[36m",
	"nb": "\x1b[34m", "nf": "\x1b[1m",
	"s": "\x1b[32m", "sc": "\x1b[32m",
	"m": "\x1b[34m", "mb": "\x1b[34m", "mf": "\x1b[34m", "mh": "\x1b[34m", "mi": "\x1b[34m", "mo": "\x1b[34m",
	"c1": "\x1b[2;3m", "cm": "\x1b[2;3m", "cp": "\x1b[2;3m",
	"err": "\x1b[31m",
}

// table renders a table: cells on one line each, columns padded, a rule under the header; a table
// wider than the screen gets TooWide's note, as a code block does.
func (r *termRenderer) table(n *east.Table, width int) []string {
	var rows [][]string
	var widths []int
	header := -1
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			header = len(rows)
		}
		var cells []string
		k := 0
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			st := style(0)
			if header == len(rows) {
				st = stBold
			}
			c := r.line(r.inlines(cell, st))
			cells = append(cells, c)
			if k >= len(widths) {
				widths = append(widths, 0)
			}
			widths[k] = max(widths[k], visibleWidth(c))
			k++
		}
		rows = append(rows, cells)
	}
	var out []string
	for i, cells := range rows {
		var b strings.Builder
		for k, c := range cells {
			if k > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if k < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[k]-visibleWidth(c)))
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
		if i == header {
			var rule []string
			for _, w := range widths {
				rule = append(rule, strings.Repeat("─", w))
			}
			out = append(out, r.paint(stDim.sgr(), strings.Join(rule, "  ")))
		}
	}
	wide := 0
	for _, l := range out {
		wide = max(wide, visibleWidth(l))
	}
	if room := width + r.t.Columns - r.t.Width; wide > room && r.t.TooWide != nil {
		out = append(out, "")
		out = append(out, r.wrap([]piece{{text: r.t.TooWide(wide), st: stItalic}}, width)...)
	}
	return out
}

// visibleWidth is the width of s in columns, escape sequences not counted.
func visibleWidth(s string) int {
	w := 0
	for len(s) > 0 {
		if s[0] == '\x1b' {
			if end := strings.IndexByte(s, 'm'); end >= 0 {
				s = s[end+1:]
				continue
			}
		}
		_, rest, width, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		w += width
		s = rest
	}
	return w
}

// piece is a run of inline text in one style; a piece with br set is a hard line break.
type piece struct {
	text string
	st   style
	br   bool
}

// inlines flattens the inline content of n into pieces, st added to every one.
func (r *termRenderer) inlines(n ast.Node, st style) []piece {
	var out []piece
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, r.inline(c, st)...)
	}
	return out
}

func (r *termRenderer) inline(n ast.Node, st style) []piece {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Value(r.src)
		if !n.IsRaw() {
			v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
		}
		out := []piece{{text: string(v), st: st}}
		switch {
		case n.HardLineBreak():
			out = append(out, piece{br: true})
		case n.SoftLineBreak():
			out = append(out, piece{text: " ", st: st})
		}
		return out
	case *ast.String:
		return []piece{{text: string(n.Value), st: st}}
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Value(r.src))
			} else if s, ok := c.(*ast.String); ok {
				b.Write(s.Value)
			}
		}
		return []piece{{text: b.String(), st: st | stCode}}
	case *ast.Emphasis:
		if n.Level >= 2 {
			return r.inlines(n, st|stBold)
		}
		return r.inlines(n, st|stItalic)
	case *east.Strikethrough:
		return r.inlines(n, st|stStrike)
	case *ast.Link:
		out := r.inlines(n, st|stLink)
		if dest := string(n.Destination); dest != "" && dest != plain(out) && !strings.HasPrefix(dest, "#") {
			out = append(out, piece{text: " (" + dest + ")", st: st | stDim})
		}
		return out
	case *ast.AutoLink:
		return []piece{{text: string(n.URL(r.src)), st: st | stLink}}
	case *ast.Image:
		out := r.inlines(n, st)
		return append(out, piece{text: " (" + string(n.Destination) + ")", st: st | stDim})
	case *east.TaskCheckBox:
		if n.IsChecked {
			return []piece{{text: "[x] ", st: st}}
		}
		return []piece{{text: "[ ] ", st: st}}
	case *ast.RawHTML:
		return nil
	}
	return r.inlines(n, st)
}

// isCommand reports whether inline code is a command line of workbook or of the go command, which
// a reader copies whole.
func isCommand(code string) bool {
	return strings.HasPrefix(code, "workbook ") || strings.HasPrefix(code, "go run ") || strings.HasPrefix(code, "go -C ")
}

func plain(ps []piece) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.text)
	}
	return b.String()
}

// line renders pieces on one line, unwrapped.
func (r *termRenderer) line(ps []piece) string {
	return strings.Join(r.wrap(ps, 1<<30), " ")
}

// word is what wrapping never splits: text between spaces, in one or more styles.
type word struct {
	parts []piece
	width int
}

// wrap fills lines of at most width columns with the words of ps, greedily, breaking only at
// spaces (a non-breaking space joins its words, and so do the spaces of a command in inline code
// that fits on a line) and at hard line breaks. A word wider than width stands alone on its line.
func (r *termRenderer) wrap(ps []piece, width int) []string {
	var lines [][]word
	var cur []word
	var w word
	endWord := func() {
		if w.width > 0 || len(w.parts) > 0 {
			cur = append(cur, w)
		}
		w = word{}
	}
	endLine := func() {
		endWord()
		lines = append(lines, cur)
		cur = nil
	}
	for _, p := range ps {
		if p.br {
			endLine()
			continue
		}
		// A command in inline code that fits on a line is never broken: `go run ./cmd/workbook
		// check exercise-deadline` copied from two lines does not run.
		whole := p.st&stCode != 0 && isCommand(p.text) && uniseg.StringWidth(p.text) <= width
		start := 0
		for i, c := range p.text {
			if !whole && (c == ' ' || c == '\n' || c == '\t') {
				if i > start {
					w.parts = append(w.parts, piece{text: p.text[start:i], st: p.st})
					w.width += uniseg.StringWidth(p.text[start:i])
				}
				endWord()
				start = i + 1
			}
		}
		if start < len(p.text) {
			w.parts = append(w.parts, piece{text: p.text[start:], st: p.st})
			w.width += uniseg.StringWidth(p.text[start:])
		}
	}
	endLine()
	var out []string
	for _, words := range lines {
		var b strings.Builder
		col := 0
		for _, wd := range words {
			switch {
			case col == 0:
			case col+1+wd.width > width:
				out = append(out, b.String())
				b.Reset()
				col = 0
			default:
				b.WriteByte(' ')
				col++
			}
			for _, p := range wd.parts {
				b.WriteString(r.paint(p.st.sgr(), p.text))
			}
			col += wd.width
		}
		out = append(out, b.String())
	}
	// A hard break at the very end leaves an empty line: drop trailing empty lines.
	for len(out) > 1 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
