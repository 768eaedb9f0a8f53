package tty

import (
	"fmt"
	"io"
	"sync"
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

// BusyWarming is Busy for work that may first have to compile Go's standard library (a first check
// on a machine, an empty Go build cache): progress(true) says that began and progress(false) that it
// ended. While it goes on, a terminal's line shows warm instead of msg; stderr that is no terminal
// (a CI log, an editor's task) gets warm as one line once that has gone on for quiet. done ends it
// all.
func BusyWarming(w io.Writer, terminal bool, msg, warm string, after, quiet time.Duration, seconds func(int) string) (progress func(start bool), done func()) {
	var mu sync.Mutex
	warming := false
	var timer *time.Timer
	show := func() string {
		mu.Lock()
		defer mu.Unlock()
		if warming {
			return warm
		}
		return msg
	}
	end := BusyWith(w, terminal, show, after, seconds)
	progress = func(start bool) {
		mu.Lock()
		defer mu.Unlock()
		warming = start
		if terminal || !start || timer != nil {
			return
		}
		timer = time.AfterFunc(quiet, func() {
			mu.Lock()
			defer mu.Unlock()
			if warming {
				fmt.Fprintln(w, warm)
			}
		})
	}
	return progress, func() {
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		warming = false
		mu.Unlock()
		end()
	}
}
