package verify

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestAddPath checks what each kind of path adds to the targets, and the paths verify cannot take.
func TestAddPath(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lessonText := "---\ntitle: T\nsummary: S\norder: 1\n---\n\nText.\n"
	write("course/lessons/one/bg.md", lessonText)
	write("course/lessons/one/ru.md", lessonText)
	write("course/lessons/two/bg.md", lessonText)
	write("course/lessons/two/ru.md", lessonText)
	write("course/exercises/ex/exercise.yaml", "order: 1\ntitle:\n  bg: T\n  ru: T\n")
	write("loose/exercise.yaml", "order: 1\n")
	write("empty/note.txt", "nothing here")
	write("course/lessons/one/notes.txt", "not a lesson")
	in := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }

	for _, tc := range []struct {
		path      string
		checked   int      // lesson files to check
		files     []string // base names of all lesson files read, parity ones too
		exercises int
		code      string // the TargetError's code, "" for none
	}{
		{path: "course/lessons/one/bg.md", checked: 1, files: []string{"bg.md", "ru.md"}},
		{path: "course/lessons/one", checked: 2, files: []string{"bg.md", "ru.md"}},
		{path: "course/lessons", checked: 4, files: []string{"bg.md", "bg.md", "ru.md", "ru.md"}},
		{path: "course", checked: 4, files: []string{"bg.md", "bg.md", "ru.md", "ru.md"}, exercises: 1},
		{path: "course/exercises", exercises: 1},
		{path: "course/exercises/ex", exercises: 1},
		{path: "course/lessons/one/notes.txt", code: "not_lesson"},
		{path: "missing", code: "path"},
		{path: "loose", code: "exercise_place"},
		{path: "empty", code: "nothing"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			tg := NewTargets()
			err := tg.AddPath(in(tc.path))
			var te *TargetError
			switch {
			case tc.code != "":
				if !errors.As(err, &te) || te.Code != tc.code {
					t.Fatalf("AddPath: %v, want a TargetError %q", err, tc.code)
				}
				return
			case err != nil:
				t.Fatalf("AddPath: %v", err)
			}
			var got []string
			for _, f := range tg.Files {
				got = append(got, filepath.Base(f.Name))
			}
			sort.Strings(got)
			if tg.Lessons != tc.checked || len(got) != len(tc.files) || len(tg.Exercises) != tc.exercises {
				t.Fatalf("%d lesson files to check of %v, %d exercises; want %d of %v, %d",
					tg.Lessons, got, len(tg.Exercises), tc.checked, tc.files, tc.exercises)
			}
			for i := range got {
				if got[i] != tc.files[i] {
					t.Errorf("files %v, want %v", got, tc.files)
					break
				}
			}
		})
	}

	// A file added for parity only and then asked for is checked, once.
	tg := NewTargets()
	for _, p := range []string{"course/lessons/one/bg.md", "course/lessons/one/ru.md", "course/lessons/one"} {
		if err := tg.AddPath(in(p)); err != nil {
			t.Fatal(err)
		}
	}
	if tg.Lessons != 2 || len(tg.Files) != 2 {
		t.Errorf("%d files, %d to check; want 2 and 2", len(tg.Files), tg.Lessons)
	}
}
