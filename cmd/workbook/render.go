package main

import (
	"io"
	"strconv"

	"github.com/workbook-course/workbook/internal/render"
	"github.com/workbook-course/workbook/internal/tty"
)

// width is the column count to wrap prose at: the screen's (at most 100), else 80.
func (e *env) width() int {
	if cols := e.columns(); cols > 0 {
		return min(cols, 100)
	}
	return 80
}

// columns is the width code must fit in: the terminal's, or $COLUMNS when it is set; 0 when
// neither tells.
func (e *env) columns() int {
	if cols := tty.Width(e.stdout, 0); cols > 20 {
		return cols
	}
	if n, err := strconv.Atoi(e.getenv("COLUMNS")); err == nil && n > 20 {
		return n
	}
	return 0
}

// renderMarkdown renders Markdown for e.stdout (internal/render): styled and coloured on a colour
// terminal, plain text anywhere else, prose wrapped once at the screen's width, code never wrapped.
// Piped output is laid out for 80 columns.
func (e *env) renderMarkdown(src string) string {
	return render.Terminal{
		Width:   e.width(),
		Columns: max(e.columns(), e.width()),
		Color:   e.colorOK(e.stdout),
		TooWide: func(cols int) string { return e.ui.T("lesson_too_wide", "Cols", cols) },
	}.Render(src)
}

// printMarkdown renders Markdown onto e.stdout.
func (e *env) printMarkdown(src string) error {
	_, err := io.WriteString(e.stdout, e.renderMarkdown(src))
	return err
}

// page writes text to e.stdout, through a pager when e.stdout is a terminal and text is longer than
// the screen (render.Page); with noPager, as it is.
func (e *env) page(text string, noPager bool) error {
	if noPager {
		_, err := io.WriteString(e.stdout, text)
		return err
	}
	return render.Page(text, e.stdout, e.stderr, e.getenv)
}
