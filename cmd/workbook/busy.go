package main

import (
	"fmt"
	"github.com/workbook-course/workbook/internal/tty"
	"time"
)

// busyAfter is how long work may be silent before a terminal is told what is going on.
const busyAfter = time.Second

// busy shows msg on stderr, with the seconds spent, when the work that follows takes longer than
// after and the learner sits at a terminal (the first check builds the standard library and the
// sandbox's helper, which can take a while on a cold machine). The returned function ends the
// work and clears the line; nothing is left in piped output.
func (e *env) busy(msg string, after time.Duration) (done func()) {
	if !e.stderrTerminal() {
		return func() {}
	}
	stop, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		select {
		case <-stop:
			return
		case <-time.After(after):
		}
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			fmt.Fprintf(e.stderr, "\r\x1b[K%s %s", msg, e.ui.T("busy_seconds", "Seconds", int(time.Since(start).Seconds())))
			select {
			case <-stop:
				fmt.Fprint(e.stderr, "\r\x1b[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(stop)
		<-finished
	}
}

// stderrTerminal reports whether stderr is a terminal (or stands for one in a test).
func (e *env) stderrTerminal() bool {
	if e.tty != nil {
		return e.tty()
	}
	return tty.IsTerminal(e.stderr)
}
