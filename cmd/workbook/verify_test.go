package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// TestVerifyMessages makes sure every problem the lesson engine reports has a message, and that the
// English message file says what the engine says. (That every English message is there in Russian
// and Bulgarian too is internal/i18n's test.)
func TestVerifyMessages(t *testing.T) {
	en := i18n.New("en")
	for code, text := range lesson.English {
		id := "lesson_" + string(code)
		// With every named value standing for itself, the English message is its template.
		var kv []any
		for _, name := range []string{"Err", "Field", "Word", "Info", "Name", "Line", "Kind", "Attr", "Count", "Lines",
			"Names", "Status", "File", "Here", "There", "At", "Width", "Max", "Marker"} {
			kv = append(kv, name, "{{."+name+"}}")
		}
		if got := en.T(id, kv...); got != text {
			t.Errorf("%s:\n message file: %s\n       engine: %s", id, got, text)
		}
	}
}

// TestVerifyChangedOutput copies the slow-neighbour lesson, changes one line of an output block in
// bg.md and expects verify to fail naming that line.
func TestVerifyChangedOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lesson's programs")
	}
	// verify names the files by the path it is given: a relative one names them, and so keys them in
	// verify's cache, alike from run to run.
	t.Chdir(t.TempDir())
	dir := "slow-neighbour"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var line int
	for _, name := range []string{"bg.md", "ru.md"} {
		data, err := os.ReadFile(filepath.Join(repoRoot, "lessons", "slow-neighbour", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "bg.md" {
			lines := strings.Split(string(data), "\n")
			for i, l := range lines {
				if l == "```output" {
					line = i + 2 // the block's first line, counted from 1
					lines[i+1] += " (променено)"
					break
				}
			}
			if line == 0 {
				t.Fatal("no output block in bg.md")
			}
			data = []byte(strings.Join(lines, "\n"))
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	code := run(context.Background(), []string{"verify", dir, "--lang", "bg"}, e)
	if code != 1 {
		t.Fatalf("exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	want := fmt.Sprintf("%s:%d: програмата pool отпечатва тук друго (ред 1 от блока output)\n",
		filepath.ToSlash(filepath.Join(dir, "bg.md")), line)
	if !strings.HasPrefix(stdout.String(), want) {
		t.Errorf("stdout should start with\n%s\ngot\n%s", want, &stdout)
	}
	// The changed line is the one problem, but for quizzes the lesson has not explained yet (issue 29:
	// verify reports those as soon as the engine knows explanations, before the lessons carry them).
	for _, l := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(l, filepath.ToSlash(dir)) && l+"\n" != want && !strings.Contains(l, "няма обяснение") {
			t.Errorf("one problem expected, also got %q:\n%s", l, &stdout)
		}
	}
}

// TestVerifyBrokenExercise copies exercise-deadline with its solutions, loses the Russian hints and
// keeps a "wrong" program that is in fact right, and expects verify to name both in Russian.
func TestVerifyBrokenExercise(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the exercise's programs")
	}
	root := t.TempDir()
	for _, dir := range []string{"exercises/exercise-deadline", "solutions/exercise-deadline"} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join("..", "..", dir))); err != nil {
			t.Fatal(err)
		}
	}
	ex := filepath.Join(root, "exercises", "exercise-deadline")
	if err := os.Remove(filepath.Join(ex, "hints.ru.md")); err != nil {
		t.Fatal(err)
	}
	right, err := os.ReadFile(filepath.Join(root, "solutions", "exercise-deadline", "bg", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	wrong := append([]byte("# Not wrong at all.\n# lang: bg\n-- main.go --\n"), right...)
	if err := os.WriteFile(filepath.Join(ex, "testdata", "wrong", "not-wrong.txtar"), wrong, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	code := run(context.Background(), []string{"verify", ex, "--lang", "ru"}, e)
	if code != 1 {
		t.Fatalf("exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	for _, want := range []string{
		"exercises/exercise-deadline/hints.ru.md: нет подсказок.",
		"exercises/exercise-deadline/testdata/wrong/not-wrong.txtar: должна не проходить хотя бы один тест",
		"Проверено: 0 файлов уроков, 1 задача.",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("missing %q in\n%s", want, &stdout)
		}
	}
}
