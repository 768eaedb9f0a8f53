package tty

import (
	"fmt"
	"io"
	"time"
)

// Busy shows msg on w, a terminal, with the seconds spent (worded by seconds), when the work that
// follows takes longer than after. The returned function ends the work and clears the line;
// nothing is left in piped output, and with terminal false nothing is shown at all.
func Busy(w io.Writer, terminal bool, msg string, after time.Duration, seconds func(int) string) (done func()) {
	return BusyWith(w, terminal, func() string { return msg }, after, seconds)
}

// BusyWith is Busy with a message that may change while the work goes on: msg is asked again at
// every second shown.
func BusyWith(w io.Writer, terminal bool, msg func() string, after time.Duration, seconds func(int) string) (done func()) {
	if !terminal {
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
			fmt.Fprintf(w, "\r\x1b[K%s %s", msg(), seconds(int(time.Since(start).Seconds())))
			select {
			case <-stop:
				fmt.Fprint(w, "\r\x1b[K")
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
