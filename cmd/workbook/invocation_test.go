package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGoRunFrom(t *testing.T) {
	root := filepath.Join(string(filepath.Separator), "home", "me", "clone")
	tests := []struct{ wd, want string }{
		{root, "go run ./cmd/workbook"},
		{filepath.Join(root, "my", "ru", "exercise-deadline"), "go -C ../../.. run ./cmd/workbook"},
		{filepath.Join(root, "exercises"), "go -C .. run ./cmd/workbook"},
	}
	for _, tt := range tests {
		if got := goRunFrom(tt.wd, root); got != tt.want {
			t.Errorf("goRunFrom(%s) = %q, want %q", tt.wd, got, tt.want)
		}
	}
}

func TestRunnable(t *testing.T) {
	e := &env{invoke: "go -C ../../.. run ./cmd/workbook"}
	tests := []struct{ msg, want string }{
		{"Stuck? 'workbook hint exercise-retry' gives a hint.", "Stuck? 'go -C ../../.. run ./cmd/workbook hint exercise-retry' gives a hint."},
		{"Застряли? «workbook hint x» даст подсказку.", "Застряли? «go -C ../../.. run ./cmd/workbook hint x» даст подсказку."},
		{"Next: the exercise “T” — workbook check x", "Next: the exercise “T” — go -C ../../.. run ./cmd/workbook check x"},
		{"workbook: a word", "workbook: a word"},
		{"the workbook course", "the workbook course"},
	}
	for _, tt := range tests {
		if got := e.runnable(tt.msg); got != tt.want {
			t.Errorf("runnable(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
	if installed := (&env{invoke: "workbook"}); installed.runnable(tests[0].msg) != tests[0].msg {
		t.Error("an installed workbook's messages were changed")
	}
	if viaGoRun(filepath.Join(os.TempDir(), "go-build123", "b001", "exe", "workbook")) != true {
		t.Error("a go run binary is not recognised")
	}
	if viaGoRun(filepath.Join(string(filepath.Separator), "usr", "local", "bin", "workbook")) {
		t.Error("an installed binary is taken for go run")
	}
}
