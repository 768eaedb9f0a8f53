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
	tl := tally{now: []string{dir}}
	deadline := time.Now().Add(10 * time.Second)
	for taskState(dir+"/stat") != 'S' {
		if time.Now().After(deadline) {
			t.Fatal("yes never blocked on its full pipe")
		}
		time.Sleep(10 * time.Millisecond)
	}
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
