package main

import (
	"context"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/tty"
)

// busyAfter is how long work may be silent before a terminal is told what is going on: the first
// check builds the standard library and the sandbox's helper, which can take a while on a cold
// machine (busyBuild).
const busyAfter = time.Second

// stderrTerminal reports whether stderr is a terminal (or stands for one in a test).
func (e *env) stderrTerminal() bool {
	if e.tty != nil {
		return e.tty()
	}
	return tty.IsTerminal(e.stderr)
}

// stdAfter is how long the checker may compile the standard library before a learner whose stderr
// is no terminal (a CI log, an editor's task) is told why the check is slow.
const stdAfter = 5 * time.Second

// busyBuild is busy for a check or run of the program, with msg, and ctx for the work: when the
// checker compiles Go's standard library first, a terminal's line says so instead of msg, and stderr
// that is no terminal gets one line saying so once that has taken stdAfter (tty.BusyWarming).
func (e *env) busyBuild(ctx context.Context, msg string) (context.Context, func()) {
	progress, done := tty.BusyWarming(e.stderr, e.stderrTerminal(), msg, e.ui.T("busy_std"), busyAfter, stdAfter,
		func(s int) string { return e.ui.T("busy_seconds", "Seconds", s) })
	return checker.WithProgress(ctx, progress), done
}
