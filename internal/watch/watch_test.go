package watch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

func TestRelevant(t *testing.T) {
	for _, tc := range []struct {
		ev   fsnotify.Event
		want bool
	}{
		{fsnotify.Event{Name: filepath.Join("ex", "main.go"), Op: fsnotify.Write}, true},
		{fsnotify.Event{Name: filepath.Join("ex", "go.mod"), Op: fsnotify.Create}, true},
		{fsnotify.Event{Name: "go.sum", Op: fsnotify.Rename}, true},
		{fsnotify.Event{Name: "main.go", Op: fsnotify.Chmod}, false},
		{fsnotify.Event{Name: "main.go~", Op: fsnotify.Write}, false},
		{fsnotify.Event{Name: "README.md", Op: fsnotify.Write}, false},
	} {
		if got := Relevant(tc.ev); got != tc.want {
			t.Errorf("Relevant(%v) = %v, want %v", tc.ev, got, tc.want)
		}
	}
}

// TestWait: a save of a Go file is heard; a file that is no part of the program is not, and Wait
// then ends with its context.
func TestWait(t *testing.T) {
	dir := t.TempDir()
	w, err := New(func(err error) { t.Log(err) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() {
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
		os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	}()
	if err := w.Wait(ctx); err != nil {
		t.Fatalf("Wait after a save: %v", err)
	}
	short, cancel2 := context.WithTimeout(context.Background(), 3*Debounce)
	defer cancel2()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("y"), 0o644)
	if err := w.Wait(short); err != context.DeadlineExceeded {
		t.Errorf("Wait after a change to notes.txt = %v, want the context's end", err)
	}
}

func TestSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); err != context.Canceled {
		t.Errorf("Sleep on an ended context = %v, want context.Canceled", err)
	}
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("Sleep = %v", err)
	}
}

// TestUntil: the program is checked at once and again after a save, until a check passes; a folder
// that cannot be watched is a *DirError.
func TestUntil(t *testing.T) {
	dir := t.TempDir()
	w, err := New(func(err error) { t.Log(err) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	checks := 0
	err = w.Until(ctx, dir, func(context.Context) (bool, error) {
		checks++
		if checks == 1 {
			go os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
		}
		return checks == 2, nil
	})
	if err != nil || checks != 2 {
		t.Errorf("Until = %v after %d checks, want nil after 2", err, checks)
	}
	var de *DirError
	if err := w.Until(ctx, filepath.Join(dir, "missing"), nil); !errors.As(err, &de) {
		t.Errorf("Until on a missing folder = %v, want a *DirError", err)
	}
}
