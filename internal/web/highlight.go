package web

import (
	"html/template"

	"github.com/workbook-course/workbook/internal/render"
)

// Code is highlighted on the server by internal/render, from go/scanner's tokens, as spans carrying
// chroma's short class names (k, s, c1, nf, …). The editor's own highlighter in app.js emits the same
// classes for Go, so a snippet keeps its colours when the learner starts typing.

// highlightLines highlights code in lang and returns one HTML fragment per line (without the
// newline). hole, when not empty, is replaced in the result by the HTML produced by fill (the blank
// of a fill-in quiz).
func highlightLines(lang, code string, hole string, fill func() string) []template.HTML {
	return render.CodeLinesHTML(lang, code, hole, fill)
}

// highlight returns code in lang as one HTML fragment, lines joined by newlines, for a <pre>.
func highlight(lang, code string) template.HTML { return render.CodeHTML(lang, code) }

// chromaCSS is the stylesheet for highlighted code (/static/chroma.css).
func chromaCSS() []byte { return render.CSS() }
