package web

import (
	"html"
	"html/template"
	"regexp"
	"strings"

	"github.com/workbook-course/workbook/internal/render"
)

// renderMarkdown renders a statement or a hint (render.HTML).
func renderMarkdown(src string, anchors bool) (template.HTML, error) {
	return render.HTML(src, anchors)
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
