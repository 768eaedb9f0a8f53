package checker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunnableOnStdio checks the fallback watcher's reading of a process asleep on a pipe (what
// runnableTime says of it): writing to a full pipe, it is busy when that pipe is one of the run's
// outputs (out), idle otherwise, even when the same pipe is named as the run's input; reading an
// empty pipe, it is busy when that pipe is the run's input while the checker feeds it (in), idle
// otherwise, even when the same pipe is named as an output.
func TestRunnableOnStdio(t *testing.T) {
	for _, tt := range []struct {
		name string
		cmd  string // yes writes until its output is full; cat reads an input nobody writes
		as   string // how the watcher is told the pipe: "out", "in" or "" (not at all)
		want bool   // busy
	}{
		{"writes to the run's full output", "yes", "out", true},
		{"writes to a full pipe of its own", "yes", "", false},
		{"writes to the run's input (reopened for writing)", "yes", "in", false},
		{"reads the run's input while it is fed", "cat", "in", true},
		{"reads a pipe of its own", "cat", "", false},
		{"reads the run's output (reopened for reading)", "cat", "out", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			cmd := exec.Command(tt.cmd)
			if tt.cmd == "yes" {
				cmd.Stdout = w
			} else {
				cmd.Stdin = r
			}
			if err := cmd.Start(); err != nil {
				t.Skipf("no %s here: %v", tt.cmd, err)
			}
			defer func() { cmd.Process.Kill(); cmd.Wait() }()
			name := pipeName(r)
			if name == "" || name != pipeName(w) {
				t.Fatalf("pipeName: %q and %q, want one pipe:[INODE]", pipeName(r), pipeName(w))
			}
			var in, out []string
			switch tt.as {
			case "in":
				in = []string{name}
			case "out":
				out = []string{name}
			}
			// Wait for it to be asleep on the pipe (no bound but the test's own timeout).
			for taskState(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid)) != 'S' {
				time.Sleep(5 * time.Millisecond)
			}
			_, busy, queued, ok := runnableTime(cmd.Process.Pid, in, out)
			if !ok || busy != tt.want || queued {
				t.Errorf("runnableTime: busy %v, queued %v, ok %v; want busy %v, not queued", busy, queued, ok, tt.want)
			}
		})
	}
}

// stdioProgram writes its first argument's worth of KiB to stdout and prints "done" ("flood N"),
// reads its own stdout, opened again for reading, for ever ("readout"), or moves a pipe of its own
// onto stdout and writes to it until it is full and for ever ("ownpipe").
const stdioProgram = `package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func main() {
	switch os.Args[1] {
	case "flood":
		n, _ := strconv.Atoi(os.Args[2])
		line := strings.Repeat("x", 1023) + "\n"
		for i := 0; i < n; i++ {
			os.Stdout.WriteString(line)
		}
		fmt.Println("done")
	case "readout":
		f, err := os.Open("/proc/self/fd/1")
		if err != nil {
			fmt.Fprintln(os.Stderr, "open:", err)
			return
		}
		fd := int(f.Fd()) // blocking: the thread sleeps in read(2)
		for {
			syscall.Read(fd, make([]byte, 512))
		}
	case "ownpipe":
		var p [2]int
		if err := syscall.Pipe(p[:]); err != nil {
			panic(err)
		}
		if err := syscall.Dup3(p[1], 1, 0); err != nil {
			panic(err)
		}
		buf := make([]byte, 4096)
		for {
			syscall.Write(1, buf)
		}
	}
}
`

// TestStdioWaitsAtEveryLevel runs, at every level this system can set up (the fallback watcher of
// the levels without a session among them), a program whose output the checker drains slowly
// (testDrainPause, far past the idle limit for each 32 KiB it reads: what a busy machine does to
// the checker): it waits for the checker, not idles, and passes; and programs that hang reading
// their own stdout or writing to a pipe of their own moved onto stdout, which are judged idle:
// timeout, waited.
func TestStdioWaitsAtEveryLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program that hangs")
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(stdioProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	// 400 ms of idle time a run; the drain pauses 600 ms before each read.
	prog, err := Build(context.Background(), src, Limits{RunTime: 800 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	testDrainPause.Store(int64(600 * time.Millisecond))
	defer testDrainPause.Store(0)
	for _, lv := range testLevels(t) {
		t.Run(lv.name, func(t *testing.T) {
			defer lv.use()()
			out := prog.Run(context.Background(), "", []string{"flood", "192"}, "")
			if out.Status != Pass || !strings.HasSuffix(out.Stdout, "done\n") || len(out.Stdout) != 192<<10+5 {
				t.Errorf("blocked on the run's stdout, drained slowly: %s %q after %s (idle %s), %d bytes; want pass, all printed",
					out.Status, out.Reason, out.Duration.Round(time.Millisecond), out.Idle, len(out.Stdout))
			}
			// Asleep reading its own output: it waits for itself, not for the checker, and is
			// stopped as idle (out.Idle), not by the backstop of its own time four wall limits on.
			out = prog.Run(context.Background(), "", []string{"readout"}, "")
			if strings.HasPrefix(out.Stderr, "open:") {
				t.Logf("the sandbox keeps it from opening its output again: %s", out.Stderr)
			} else if want := idleReason(ReasonWaited); out.Status != Timeout || out.Reason != want || out.Idle < 400*time.Millisecond {
				t.Errorf("asleep reading its own stdout: %s %q, idle %s; want timeout %q, stopped as idle", out.Status, out.Reason, out.Idle, want)
			}
			out = prog.Run(context.Background(), "", []string{"ownpipe"}, "")
			if want := idleReason(ReasonWaited); out.Status != Timeout || out.Reason != want {
				t.Errorf("blocked on a pipe of its own on stdout: %s %q, want timeout %q", out.Status, out.Reason, want)
			}
		})
	}
}
