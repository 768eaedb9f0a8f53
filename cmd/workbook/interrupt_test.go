package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workbook-course/workbook/internal/progress"
)

// TestCheckInterrupted presses Ctrl-C (cancels the command's context, as main's signal handler
// does) while a learner's program runs its cases: the check says it was interrupted, exits 130,
// reports no case (none "crashed"), records nothing, and leaves no process and no folder behind.
func TestCheckInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ws := t.TempDir()
	t.Chdir(ws)
	quiet := func(string) string { return "" }
	var out, errOut syncBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: quiet}
	if code := run(context.Background(), []string{"init", ".", "--lang", "en"}, e); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut.String())
	}
	dir := filepath.Join(ws, "bg", "exercise-timeout")
	// A program that never ends by itself: every case would run into its time limit.
	spin := "package main\n\nfunc main() {\n\tfor {\n\t}\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(spin), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(ws, progress.FileName))
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan bool, 1)
	var cancelled atomic.Int64 // when Ctrl-C was sent, in Unix nanoseconds
	go func() {
		// Ctrl-C once the program runs (on Linux, once a process runs from the scratch folder), or
		// after a while where that cannot be seen.
		limit := time.After(2 * time.Minute)
		for {
			select {
			case <-ctx.Done():
				return
			case <-limit:
				seen <- false
				cancel()
				return
			case <-time.After(20 * time.Millisecond):
			}
			if runtime.GOOS != "linux" || len(procsUnder(tmp)) > 0 {
				if runtime.GOOS != "linux" {
					time.Sleep(3 * time.Second)
				}
				seen <- true
				cancelled.Store(time.Now().UnixNano())
				cancel()
				return
			}
		}
	}()
	out, errOut = syncBuffer{}, syncBuffer{}
	e = &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: quiet}
	code := run(ctx, []string{"check", "exercise-timeout", "--dir", dir, "--messages", "en"}, e)
	ended := time.Now()
	if !<-seen {
		t.Error("the program never ran before Ctrl-C")
	}
	if code != 130 {
		t.Errorf("exit %d, want 130; stdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	if got := errOut.String(); !strings.Contains(got, "the check was interrupted (Ctrl-C): nothing was reported or recorded.") {
		t.Errorf("stderr = %q, want it to say the check was interrupted", got)
	}
	for _, word := range []string{"crash", "Crash", "passed", "failed"} {
		if strings.Contains(out.String(), word) {
			t.Errorf("stdout reports cases (%q): %s", word, out.String())
		}
	}
	// How long the build before took is the machine's; what is the check's is that Ctrl-C ends it
	// without waiting out the run (its last backstop is two minutes).
	if at := cancelled.Load(); at != 0 {
		if took := ended.Sub(time.Unix(0, at)); took > 90*time.Second {
			t.Errorf("the check ended %v after Ctrl-C", took)
		}
	}
	after, err := os.ReadFile(filepath.Join(ws, progress.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("progress changed by an interrupted check:\nbefore %s\nafter  %s", before, after)
	}
	if runtime.GOOS == "linux" {
		deadline := time.Now().Add(5 * time.Second) // a killed process may take a moment to be reaped
		for len(procsUnder(tmp)) > 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if left := procsUnder(tmp); len(left) > 0 {
			t.Errorf("processes left running: %v", left)
		}
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range entries {
		t.Errorf("left behind in the temporary folder: %s", d.Name())
	}
}

// procsUnder lists the processes (Linux) whose executable lies under dir.
func procsUnder(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, d := range entries {
		exe, err := os.Readlink(filepath.Join("/proc", d.Name(), "exe"))
		if err == nil && strings.HasPrefix(exe, dir+string(filepath.Separator)) {
			pids = append(pids, d.Name()+" "+exe)
		}
	}
	return pids
}
