package main

import (
	"fmt"
	"slices"

	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/web"
)

// serveURL is where `workbook serve` listens unless told otherwise (its --addr default).
const serveURL = "http://127.0.0.1:8080"

// chartNote returns, for a hidden block of the lesson on topic that holds the data of a chart
// `workbook serve` draws, a line that names the chart and gives its address; "" for any other
// block. The terminal keeps its own text pictures; these charts are in the browser only.
// The note is Markdown, like the rest of the lesson.
func (e *env) chartNote(l *lesson.Lesson, topic string, b *lesson.Block) string {
	if b.Kind != lesson.OutputBlock || l.Lang == "" {
		return ""
	}
	i := slices.Index(l.Blocks, b)
	title, id, ok := web.ChartTitle(i, b.Text, e.ui)
	if !ok {
		return ""
	}
	url := fmt.Sprintf("%s/%s/lessons/%s#%s", serveURL, l.Lang, topic, id)
	// The address in a block of its own, so that it is not wrapped (a wrapped address cannot be
	// copied).
	return e.ui.T("lesson_chart_in_browser", "Title", title) + "\n\n```text\n" + url + "\n```\n"
}
