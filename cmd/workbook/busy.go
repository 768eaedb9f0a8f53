package main

import (
	"time"

	"github.com/workbook-course/workbook/internal/tty"
)

// busyAfter is how long work may be silent before a terminal is told what is going on.
const busyAfter = time.Second

// busy shows msg on stderr, with the seconds spent, when the work that follows takes longer than
// after and the learner sits at a terminal (tty.Busy): the first check builds the standard library
// and the sandbox's helper, which can take a while on a cold machine.
func (e *env) busy(msg string, after time.Duration) (done func()) {
	return tty.Busy(e.stderr, e.stderrTerminal(), msg, after, func(s int) string { return e.ui.T("busy_seconds", "Seconds", s) })
}

// stderrTerminal reports whether stderr is a terminal (or stands for one in a test).
func (e *env) stderrTerminal() bool {
	if e.tty != nil {
		return e.tty()
	}
	return tty.IsTerminal(e.stderr)
}
