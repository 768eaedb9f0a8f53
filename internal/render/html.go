package render

import (
	"bytes"
	_ "embed"
	"fmt"
	"html"
	"html/template"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/workbook-course/workbook/internal/lesson"
)

// CodeLinesHTML highlights code in lang and returns one HTML fragment per line (without the
// newline): spans with the classes of Span, text escaped. hole, when not empty, is replaced in the
// result by the HTML produced by fill (the blank of a fill-in quiz).
func CodeLinesHTML(lang, code string, hole string, fill func() string) []template.HTML {
	var out []template.HTML
	for _, line := range Lines(lang, code) {
		var b strings.Builder
		for _, s := range line {
			if s.Class == "" {
				b.WriteString(escapeHole(s.Text, hole, fill))
				continue
			}
			b.WriteString(`<span class="` + s.Class + `">` + escapeHole(s.Text, hole, fill) + `</span>`)
		}
		out = append(out, template.HTML(b.String()))
	}
	return out
}

// escapeHole escapes s, putting fill() where hole occurs.
func escapeHole(s, hole string, fill func() string) string {
	if hole == "" || fill == nil || !strings.Contains(s, hole) {
		return html.EscapeString(s)
	}
	parts := strings.Split(s, hole)
	for i := range parts {
		parts[i] = html.EscapeString(parts[i])
	}
	return strings.Join(parts, fill())
}

// CodeHTML returns code in lang as one HTML fragment, lines joined by newlines, for a <pre>.
func CodeHTML(lang, code string) template.HTML {
	lines := CodeLinesHTML(lang, code, "", nil)
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = string(l)
	}
	return template.HTML(strings.Join(parts, "\n"))
}

//go:embed code.css
var codeCSS []byte

// CSS is the stylesheet for highlighted code, under the class chroma: GitHub's colours, its dark
// ones under a dark system theme. Backgrounds are left to the page, and nothing is bold, so that the
// editor's transparent text lies exactly over its highlighted copy.
func CSS() []byte { return codeCSS }

// WriteCodeHTML writes a read-only highlighted block.
func WriteCodeHTML(w util.BufWriter, lang, text string) {
	fmt.Fprintf(w, `<pre class="code chroma">%s</pre>`+"\n", CodeHTML(lang, strings.TrimSuffix(text, "\n")))
}

// CodeText is the text of a code block node.
func CodeText(n ast.Node, src []byte) string {
	var b strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

// HeadingHTML is a goldmark node renderer that writes a heading with its id and, from the second
// level on, a link to itself.
func HeadingHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	id := ""
	if v, ok := n.AttributeString("id"); ok {
		if b, ok := v.([]byte); ok {
			id = string(b)
		}
	}
	if entering {
		fmt.Fprintf(w, "<h%d", n.Level)
		if id != "" {
			fmt.Fprintf(w, ` id="%s"`, html.EscapeString(id))
		}
		w.WriteString(">")
		return ast.WalkContinue, nil
	}
	if id != "" && n.Level > 1 {
		fmt.Fprintf(w, ` <a class="anchor" href="#%s" aria-hidden="true">#</a>`, html.EscapeString(id))
	}
	fmt.Fprintf(w, "</h%d>\n", n.Level)
	return ast.WalkContinue, nil
}

// HTML renders a statement or a hint for the browser: GitHub-flavoured Markdown as lessons are
// read, headings with Cyrillic ids (and links to themselves when anchors is set), code highlighted,
// raw HTML left out.
func HTML(src string, anchors bool) (template.HTML, error) {
	md := lesson.Markdown()
	md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(htmlRenderer{anchors}, 100)))
	ctx := parser.NewContext(parser.WithIDs(lesson.NewIDs()))
	data := []byte(src)
	doc := md.Parser().Parse(text.NewReader(data), parser.WithContext(ctx))
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, data, doc); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}

type htmlRenderer struct{ anchors bool }

func (r htmlRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			WriteCodeHTML(w, string(n.(*ast.FencedCodeBlock).Language(src)), CodeText(n, src))
		}
		return ast.WalkSkipChildren, nil
	})
	if r.anchors {
		reg.Register(ast.KindHeading, HeadingHTML)
	}
	reg.Register(ast.KindHTMLBlock, func(util.BufWriter, []byte, ast.Node, bool) (ast.WalkStatus, error) {
		return ast.WalkSkipChildren, nil
	})
}
