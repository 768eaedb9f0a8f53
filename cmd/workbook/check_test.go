package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageErrors: what the learner mistyped or pointed at wrongly is a usage error, exit 2, with
// a message in their language that says what was expected; nothing is built.
func TestUsageErrors(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	for dir, files := range map[string]map[string]string{
		"empty": {"README.md": "nothing here\n"},
		"lib":   {"lib.go": "package lib\n"},
		"tests": {"main_test.go": "package main\n"},
	} {
		os.Mkdir(filepath.Join(root, dir), 0o755)
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(root, dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"check", "exercise-deadline", "--dir", "empty", "--lang", "en"}, "empty holds no Go program of package main, so there is nothing to check. Expected: the folder of your program for exercise-deadline"},
		{[]string{"check", "exercise-deadline", "--dir", "lib", "--lang", "ru"}, "в lib нет программы на Go из package main"},
		{[]string{"check", "exercise-deadline", "--dir", "tests", "--lang", "bg"}, "в tests няма програма на Go от package main"},
		{[]string{"check", "exercise-deadlin", "--lang", "en"}, "Did you mean “exercise-deadline”?"},
		{[]string{"hint", "exercise-jiter", "--lang", "bg"}, "Може би „exercise-jitter“?"},
		{[]string{"lesson", "retry-strom", "--lang", "ru"}, "Может быть, «retry-storm»?"},
		{[]string{"progres", "--lang", "en"}, "Did you mean “progress”?"},
		{[]string{"check", "exercise-deadline", "--jsno", "--lang", "en"}, "there is no flag --jsno (did you mean --json?)"},
		{[]string{"check", "exercise-deadline", "--timeout", "x", "--lang", "ru"}, "флаг --timeout не принимает значение «x»"},
		{[]string{"list", "--messages", "fr"}, "--messages"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr syncBuffer
			e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
			if code := run(context.Background(), tt.args, e); code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr = %q, want %q in it", stderr.String(), tt.want)
			}
			if stdout.String() != "" {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
		})
	}
}
