package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workbook-course/workbook/internal/progress"
)

// syncBuffer is an output stream that the test can read while a command writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until out holds want at least n times.
func waitFor(t *testing.T, out *syncBuffer, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for strings.Count(out.String(), want) < n {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %d× %q; output so far:\n%s", n, want, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func testEnv(stdout, stderr *syncBuffer) *env {
	vars := map[string]string{"NO_COLOR": "1"}
	return &env{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, getenv: func(k string) string { return vars[k] }}
}

// TestWatchSession drives watch as a learner would: the first check fails, a save (written three
// times in quick succession, as editors do) gives exactly one more check, which passes; watch then
// moves on to the next exercise and checks it; Ctrl-C ends the session cleanly.
func TestWatchSession(t *testing.T) {
	if testing.Short() {
		t.Skip("builds learner programs")
	}
	solution, err := os.ReadFile(filepath.Join("..", "..", "solutions", "exercise-deadline", "bg", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	var out, errs syncBuffer
	t.Chdir(root)
	if code := run(context.Background(), []string{"init", "ws", "--lang", "bg"}, testEnv(&out, &errs)); code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out.String(), errs.String())
	}
	ws := filepath.Join(root, "ws")
	t.Chdir(filepath.Join(ws, "bg", "exercise-deadline"))

	out, errs = syncBuffer{}, syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- run(ctx, []string{"watch"}, testEnv(&out, &errs)) }()
	defer func() {
		cancel()
		<-done
	}()

	waitFor(t, &out, "Чакам промени", 1)
	if got := strings.Count(out.String(), "Проверка в"); got != 1 {
		t.Fatalf("%d checks before any save, want 1", got)
	}
	for range 3 {
		if err := os.WriteFile("main.go", solution, 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	waitFor(t, &out, "Следващата задача:", 1)
	text := out.String()
	if got := strings.Count(text, "Проверка в"); got != 2 {
		t.Errorf("%d checks after one save, want 2 in all:\n%s", got, text)
	}
	if !strings.Contains(text, "\n✓ Минаха ") {
		t.Errorf("the check after the save did not pass:\n%s", text)
	}
	// The next exercise is checked at once, and its starter fails: one more wait than there was
	// when watch moved on.
	waitFor(t, &out, "Чакам промени", strings.Count(text, "Чакам промени")+1)
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("watch ended with exit %d after Ctrl-C, want 0; stderr:\n%s", code, errs.String())
	}
	done = make(chan int, 1)
	done <- 0
	if !strings.Contains(out.String(), "Следенето е спряно.") {
		t.Errorf("no goodbye after Ctrl-C:\n%s", out.String())
	}

	st, err := progress.Load(filepath.Join(ws, progress.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if s := st.Lookup("exercise-deadline").Status(); s != progress.Passed {
		t.Errorf("exercise-deadline is %q, want passed", s)
	}
	passedOrFailing := 0
	for name, x := range st.Exercises {
		if name != "exercise-deadline" && x.Status() == progress.Failing {
			passedOrFailing++
		}
	}
	if passedOrFailing != 1 {
		t.Errorf("want exactly one more exercise checked (and failing): %+v", st.Exercises)
	}
}
