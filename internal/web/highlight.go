package web

import (
	"bytes"
	"html"
	"html/template"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Code is highlighted on the server with chroma, as spans carrying chroma's short class names
// (k, s, c1, nf, …). The editor's own highlighter in app.js emits the same classes for Go, so a
// snippet keeps its colours when the learner starts typing. The colours come from chroma's github
// styles: the light one, and the dark one under prefers-color-scheme: dark.

// lexerFor returns the lexer for a fenced block's language, or nil for plain text.
func lexerFor(lang string) chroma.Lexer {
	switch lang {
	case "", "text", "output", "txt", "plain", "choice":
		return nil
	}
	l := lexers.Get(lang)
	if l == nil {
		return nil
	}
	return chroma.Coalesce(l)
}

// highlightLines highlights code in lang and returns one HTML fragment per line (without the
// newline). Plain text is escaped only. hole, when not empty, is replaced in the result by the
// HTML produced by fill (the blank of a fill-in quiz).
func highlightLines(lang, code string, hole string, fill func() string) []template.HTML {
	code = strings.TrimSuffix(code, "\n")
	var lines []template.HTML
	lx := lexerFor(lang)
	if lx == nil {
		for _, l := range strings.Split(code, "\n") {
			lines = append(lines, template.HTML(escapeHole(l, hole, fill)))
		}
		return lines
	}
	it, err := lx.Tokenise(nil, code)
	if err != nil {
		for _, l := range strings.Split(code, "\n") {
			lines = append(lines, template.HTML(escapeHole(l, hole, fill)))
		}
		return lines
	}
	for _, toks := range chroma.SplitTokensIntoLines(it.Tokens()) {
		var b strings.Builder
		for _, t := range toks {
			v := strings.TrimSuffix(t.Value, "\n")
			if v == "" {
				continue
			}
			cls := chroma.StandardTypes[t.Type]
			if cls == "" || t.Type == chroma.TextWhitespace || t.Type == chroma.Text {
				b.WriteString(escapeHole(v, hole, fill))
				continue
			}
			b.WriteString(`<span class="` + cls + `">` + escapeHole(v, hole, fill) + `</span>`)
		}
		lines = append(lines, template.HTML(b.String()))
	}
	return lines
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

// highlight returns code in lang as one HTML fragment, lines joined by newlines, for a <pre>.
func highlight(lang, code string) template.HTML {
	lines := highlightLines(lang, code, "", nil)
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = string(l)
	}
	return template.HTML(strings.Join(parts, "\n"))
}

// chromaCSS is the stylesheet for highlighted code: github colours, github-dark under a dark
// system theme. Backgrounds are left to app.css, and bold is dropped, so that the editor's
// transparent text lies exactly over its highlighted copy.
func chromaCSS() []byte {
	var out bytes.Buffer
	write := func(style string) {
		var b bytes.Buffer
		f := chromahtml.New(chromahtml.WithClasses(true))
		if err := f.WriteCSS(&b, styles.Get(style)); err != nil {
			return
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(line, "/* Background */") || strings.HasPrefix(line, "/* PreWrapper */") ||
				strings.HasPrefix(line, "/* TextWhitespace */") || strings.Contains(line, ".chroma .ln") ||
				strings.Contains(line, ".chroma .line") || strings.Contains(line, ".chroma .hl") ||
				strings.Contains(line, ".chroma .lnt") {
				continue
			}
			line = strings.ReplaceAll(line, "font-weight: bold", "")
			out.WriteString(line + "\n")
		}
	}
	write("github")
	out.WriteString("@media (prefers-color-scheme: dark) {\n")
	write("github-dark")
	out.WriteString("}\n")
	return out.Bytes()
}
