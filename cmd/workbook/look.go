package main

import (
	"io"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/tty"
)

func (e *env) paintFor(w io.Writer) tty.Paint { return tty.Paint{On: e.colorOK(w)} }

// statusMark is the one-character mark of an exercise's status, coloured.
func statusMark(p tty.Paint, s progress.Status) string {
	switch s {
	case progress.Passed:
		return p.Green("✓")
	case progress.Failing:
		return p.Red("✗")
	}
	return p.Dim("·")
}

// statusText names an exercise's status in the user's language.
func (e *env) statusText(s progress.Status) string { return e.ui.T("ex_status_" + string(s)) }

// difficulty names an exercise's difficulty (1 easy, 2 medium, 3 hard).
func (e *env) difficulty(ex *course.Exercise) string {
	switch {
	case ex.Difficulty <= 0:
		return ""
	case ex.Difficulty == 1:
		return e.ui.T("difficulty_easy")
	case ex.Difficulty == 2:
		return e.ui.T("difficulty_medium")
	}
	return e.ui.T("difficulty_hard")
}

// since says how long ago t was, in whole minutes, hours or days.
func (e *env) since(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return e.ui.T("ago_now")
	case d < time.Hour:
		return e.ui.N("ago_minutes", int(d/time.Minute))
	case d < 24*time.Hour:
		return e.ui.N("ago_hours", int(d/time.Hour))
	}
	return e.ui.N("ago_days", int(d/(24*time.Hour)))
}

// langName is the name of a content language in the user's language.
func (e *env) langName(l string) string { return e.ui.T("lang_" + l) }

// pad right-pads s with spaces to width columns (counting runes, which is right for the names and
// Cyrillic titles printed here).
func pad(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}
