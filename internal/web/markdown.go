package web

import (
	"bytes"
	"html"
	"html/template"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/workbook-course/workbook/internal/lesson"
)

// renderMarkdown renders a statement or a hint: GitHub-flavoured Markdown as lessons are read,
// headings with Cyrillic ids (and links to themselves when anchors is set), code highlighted, raw
// HTML left out.
func renderMarkdown(src string, anchors bool) (template.HTML, error) {
	md := lesson.Markdown()
	md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(plainRenderer{anchors}, 100)))
	ctx := parser.NewContext(parser.WithIDs(lesson.NewIDs()))
	data := []byte(src)
	doc := md.Parser().Parse(text.NewReader(data), parser.WithContext(ctx))
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, data, doc); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}

type plainRenderer struct{ anchors bool }

func (r plainRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			writeCode(w, string(n.(*ast.FencedCodeBlock).Language(src)), codeText(n, src))
		}
		return ast.WalkSkipChildren, nil
	})
	if r.anchors {
		reg.Register(ast.KindHeading, renderHeading)
	}
	reg.Register(ast.KindHTMLBlock, func(util.BufWriter, []byte, ast.Node, bool) (ast.WalkStatus, error) {
		return ast.WalkSkipChildren, nil
	})
}

var ansiCode = regexp.MustCompile("\x1b\\[([0-9;]*)m")

// ansiHTML turns the colours of a terminal report (report.Text with Color) into spans, so that the
// page shows what `workbook check` prints, coloured the same way.
func ansiHTML(s string) template.HTML {
	var b strings.Builder
	open := 0
	last := 0
	for _, m := range ansiCode.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(html.EscapeString(s[last:m[0]]))
		last = m[1]
		code := s[m[2]:m[3]]
		if code == "" || code == "0" {
			for ; open > 0; open-- {
				b.WriteString("</span>")
			}
			continue
		}
		cls := map[string]string{"1": "bold", "2": "dim", "31": "red", "32": "green", "33": "yellow"}[code]
		if cls == "" {
			continue
		}
		b.WriteString(`<span class="ansi-` + cls + `">`)
		open++
	}
	b.WriteString(html.EscapeString(s[last:]))
	for ; open > 0; open-- {
		b.WriteString("</span>")
	}
	return template.HTML(b.String())
}
