package main

import (
	"strings"
	"testing"
)

func TestRunnable(t *testing.T) {
	e := &env{invoke: "go -C ../../.. run ./cmd/workbook"}
	tests := []struct{ msg, want string }{
		{"Stuck? 'workbook hint exercise-retry' gives a hint.", "Stuck? 'go -C ../../.. run ./cmd/workbook hint exercise-retry' gives a hint."},
		{"Застряли? «workbook hint x» даст подсказку.", "Застряли? «go -C ../../.. run ./cmd/workbook hint x» даст подсказку."},
		{"Next: the exercise “T” — workbook check x", "Next: the exercise “T” — go -C ../../.. run ./cmd/workbook check x"},
		{"workbook: a word", "workbook: a word"},
		{"the workbook course", "the workbook course"},
		{"«workbook»\u00A0— что ещё осталось", "«go -C ../../.. run ./cmd/workbook»\u00A0— что ещё осталось"},
		{"'workbook' says what is left", "'go -C ../../.. run ./cmd/workbook' says what is left"},
		{"команда `workbook check exercise-deadline`.", "команда `go -C ../../.. run ./cmd/workbook check exercise-deadline`."},
		{"(`workbook`)", "(`go -C ../../.. run ./cmd/workbook`)"},
		{"the workbook's own folder", "the workbook's own folder"},
		{"„workbook“ stays", "„go -C ../../.. run ./cmd/workbook“ stays"},
	}
	for _, tt := range tests {
		if got := e.runnable(tt.msg); got != tt.want {
			t.Errorf("runnable(%q) = %q, want %q", tt.msg, got, tt.want)
		}
		if again := e.runnable(tt.want); again != tt.want {
			t.Errorf("runnable is not idempotent: %q became %q", tt.want, again)
		}
	}
	if installed := (&env{invoke: "workbook"}); installed.runnable(tests[0].msg) != tests[0].msg {
		t.Error("an installed workbook's messages were changed")
	}
}

// TestPrinterRunnable: every message of the tool suggests commands as they run where the learner
// stands, not only those a command file remembered to pass through runnable (hint's "run it again").
func TestPrinterRunnable(t *testing.T) {
	e := &env{invoke: "go run ./cmd/workbook"}
	for _, lang := range []string{"en", "ru", "bg"} {
		p := e.printer(lang)
		for _, msg := range []string{
			p.N("hint_more", 2, "Name", "exercise-deadline"),
			p.T("next_hint", "Name", "exercise-deadline"),
		} {
			if !strings.Contains(msg, "go run ./cmd/workbook hint exercise-deadline") {
				t.Errorf("%s: %q does not suggest the command that runs in a clone", lang, msg)
			}
		}
	}
}
