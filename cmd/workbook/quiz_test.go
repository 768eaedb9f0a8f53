package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestQuizInterrupted: Ctrl-C while a question waits for its answer ends the quiz at once, with
// exit 2 and no score.
func TestQuizInterrupted(t *testing.T) {
	t.Chdir(t.TempDir())
	pr, pw := io.Pipe() // an answer that never comes
	defer pw.Close()
	var stdout, stderr syncBuffer
	e := &env{stdin: pr, stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"quiz", "slow-neighbour", "--lang", "ru"}, e) }()
	waitFor(t, &stdout, "Вопрос 1 из", 1)
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		if code != 2 {
			t.Errorf("exit %d after Ctrl-C, want 2", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the quiz did not stop on Ctrl-C")
	}
	if got, want := stdout.String(), "Вопросы прерваны до конца; результат не сохранён."; !strings.Contains(got, want) {
		t.Errorf("stdout lacks %q:\n%s", want, got)
	}
}
