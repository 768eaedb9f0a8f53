//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestBlockedOnOutputIsBusy: a process asleep writing to its output pipe, which nobody drains, is
// busy as far as the run's pipes are concerned (it waits for the checker), and idle for any other
// pipe: the same thread, judged by where it writes.
func TestBlockedOnOutputIsBusy(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("yes") // fills the pipe, then sleeps writing to it
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Skip("no yes here:", err)
	}
	w.Close()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	out, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", r.Fd()))
	if err != nil {
		t.Skip("no /proc here:", err)
	}
	var other []string
	if r2, w2, err := os.Pipe(); err == nil {
		defer r2.Close()
		defer w2.Close()
		l, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", r2.Fd()))
		other = []string{l}
	}
	dir := fmt.Sprintf("/proc/%d/task/%d", cmd.Process.Pid, cmd.Process.Pid)
	tl := tally{now: []string{dir}, states: []byte{0}}
	deadline := time.Now().Add(10 * time.Second)
	for taskState(dir+"/stat") != 'S' {
		if time.Now().After(deadline) {
			t.Fatal("yes never blocked on its full pipe")
		}
		time.Sleep(10 * time.Millisecond)
	}
	tl.states[0] = taskState(dir + "/stat") // as runnable reads it
	if got := stdioPipes([]int{int(r.Fd())}); len(got) != 1 || got[0] != out {
		t.Errorf("stdioPipes = %q, want [%q]", got, out)
	}
	if busy, queued := tl.anyRunnable(nil, []string{out}); !busy || queued {
		t.Errorf("blocked on the run's output pipe: busy %v, queued %v; want busy, not queued", busy, queued)
	}
	if busy, _ := tl.anyRunnable(nil, other); busy {
		t.Error("blocked on another pipe: busy, want idle")
	}
	if busy, _ := tl.anyRunnable([]string{out}, nil); busy {
		t.Error("writing to the run's input pipe: busy, want idle (only a read of the input waits for the checker)")
	}
}

// TestTallyReadsStates: an adding up reads each thread's state with its schedstat (the state first,
// so that a thread that waited for a CPU and then slept between two readings is never taken for
// idle); anyRunnable judges from those states, not from a later look.
func TestTallyReadsStates(t *testing.T) {
	var tl tally
	if _, _, ok := tl.runnable(); !ok {
		t.Skip("no thread's schedstat is readable here")
	}
	if len(tl.states) != len(tl.now) {
		t.Fatalf("%d states for %d threads", len(tl.states), len(tl.now))
	}
	running := 0
	for i, st := range tl.states {
		if st == 0 {
			t.Errorf("%s: no state read", tl.now[i])
		}
		if st == 'R' {
			running++
		}
	}
	// This test's own thread was running when it read itself.
	if running == 0 {
		t.Error("no thread read as running, not even the reader")
	}
	busy, queued := tl.anyRunnable(nil, nil)
	if !busy || !queued {
		t.Errorf("anyRunnable = %v, %v with a running thread among the states; want true, true", busy, queued)
	}
}
