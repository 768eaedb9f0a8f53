package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
)

// testCourse is a course of one exercise with a starter in each language.
func testCourse() *course.Course {
	return course.New(fstest.MapFS{
		"exercises/ex-a/exercise.yaml": {Data: []byte("order: 1\nlesson: l\ndifficulty: 1\nminutes: 5\n")},
		"exercises/ex-a/bg.md":         {Data: []byte("# Задача\n")},
		"exercises/ex-a/ru.md":         {Data: []byte("# Задача по-русски\n")},
		"exercises/ex-a/bg/main.go":    {Data: []byte("package main\n\n// български\nfunc main() {}\n")},
		"exercises/ex-a/ru/main.go":    {Data: []byte("package main\n\n// русский\nfunc main() {}\n")},
	})
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	clone := filepath.Join(root, "clone")
	ws := filepath.Join(root, "ws")
	for _, d := range []string{filepath.Join(clone, "exercises", "x"), filepath.Join(ws, "ex-a")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(clone, "go.mod"), []byte("module github.com/workbook-course/workbook\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(ws, progress.FileName), []byte("{}"), 0o644)
	tests := []struct {
		start     string
		wantRoot  string
		wantClone string
	}{
		{filepath.Join(clone, "exercises", "x"), filepath.Join(clone, CloneFolder), clone},
		{clone, filepath.Join(clone, CloneFolder), clone},
		{filepath.Join(ws, "ex-a"), ws, ""},
		{root, "", ""},
	}
	for _, tt := range tests {
		got := Find(tt.start)
		switch {
		case tt.wantRoot == "" && got != nil:
			t.Errorf("Find(%s) = %+v, want nil", tt.start, got)
		case tt.wantRoot != "" && (got == nil || got.Root != tt.wantRoot || got.Clone != tt.wantClone):
			t.Errorf("Find(%s) = %+v, want root %s, clone %q", tt.start, got, tt.wantRoot, tt.wantClone)
		}
	}
	// Inside the clone's made workspace, the workspace is found and still knows its clone.
	w := &Workspace{Root: filepath.Join(clone, CloneFolder), Clone: clone}
	if _, _, err := w.Create(testCourse(), Settings{Content: "bg"}, "1.26"); err != nil {
		t.Fatal(err)
	}
	if got := Find(filepath.Join(clone, CloneFolder, "ex-a")); got == nil || got.Root != w.Root || got.Clone != clone {
		t.Errorf("Find in my/ex-a = %+v, want %+v", got, w)
	}
}

func TestCreateRestoreSwitch(t *testing.T) {
	c := testCourse()
	ex, err := c.Exercise("ex-a")
	if err != nil {
		t.Fatal(err)
	}
	w := &Workspace{Root: filepath.Join(t.TempDir(), "ws")}
	added, kept, err := w.Create(c, Settings{Content: "bg", Assumed: true}, "1.26")
	if err != nil || added != 1 || kept != 0 {
		t.Fatalf("Create = %d, %d, %v; want 1, 0, nil", added, kept, err)
	}
	main := filepath.Join(w.ExerciseDir(ex), "main.go")
	if got, want := read(t, main), "package main\n\n// български\nfunc main() {}\n"; got != want {
		t.Errorf("main.go = %q, want %q", got, want)
	}
	if got, want := read(t, w.StatementPath(ex)), "# Задача\n"; got != want {
		t.Errorf("statement = %q, want %q", got, want)
	}
	if got, want := read(t, filepath.Join(w.ExerciseDir(ex), "go.mod")), "module ex-a\n\ngo 1.26\n"; got != want {
		t.Errorf("go.mod = %q, want %q", got, want)
	}
	if got, want := w.Settings(), (Settings{Content: "bg", Assumed: true}); got != want {
		t.Errorf("Settings = %+v, want %+v", got, want)
	}
	if got := w.GuessLang(c); got != "bg" {
		t.Errorf("GuessLang = %q, want bg", got)
	}
	if !w.pristine(c, ex, "bg") || w.pristine(c, ex, "ru") {
		t.Errorf("pristine(bg), pristine(ru) = %v, %v; want true, false", w.pristine(c, ex, "bg"), w.pristine(c, ex, "ru"))
	}

	// Again: nothing added, the learner's file kept.
	os.WriteFile(main, []byte("package main\n\nfunc main() { println(1) }\n"), 0o644)
	if added, kept, err := w.Create(c, Settings{Content: "bg"}, "1.26"); err != nil || added != 0 || kept != 1 {
		t.Fatalf("Create again = %d, %d, %v; want 0, 1, nil", added, kept, err)
	}
	if w.pristine(c, ex, "bg") {
		t.Error("pristine after an edit = true, want false")
	}

	// Restore keeps the edit in backup 1 and gives the pristine starter; an extra file goes too.
	os.WriteFile(filepath.Join(w.ExerciseDir(ex), "helper.go"), []byte("package main\n"), 0o644)
	backup, err := w.Restore(c, ex, "bg", "1.26")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(w.BackupRoot(), "ex-a", "1"); backup != want {
		t.Errorf("backup = %s, want %s", backup, want)
	}
	if got, want := read(t, filepath.Join(backup, "main.go")), "package main\n\nfunc main() { println(1) }\n"; got != want {
		t.Errorf("backup main.go = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(w.ExerciseDir(ex), "helper.go")); !os.IsNotExist(err) {
		t.Errorf("helper.go after Restore: %v, want it gone", err)
	}
	if !w.pristine(c, ex, "bg") {
		t.Error("pristine after Restore = false, want true")
	}

	// Switch: a pristine folder is replaced without a backup, and the language is now chosen.
	backups, err := w.Switch(c, "bg", "ru", "1.26")
	if err != nil || len(backups) != 0 {
		t.Fatalf("Switch = %v, %v; want no backups", backups, err)
	}
	if got, want := read(t, main), "package main\n\n// русский\nfunc main() {}\n"; got != want {
		t.Errorf("main.go after Switch = %q, want %q", got, want)
	}
	if got, want := w.Settings(), (Settings{Content: "ru"}); got != want {
		t.Errorf("Settings after Switch = %+v, want %+v", got, want)
	}
	// An edited folder is backed up when switched.
	os.WriteFile(main, []byte("package main\n\n// моё\nfunc main() {}\n"), 0o644)
	backups, err = w.Switch(c, "ru", "bg", "1.26")
	if err != nil || len(backups) != 1 {
		t.Fatalf("Switch = %v, %v; want one backup", backups, err)
	}
	if got, want := read(t, filepath.Join(backups[0], "main.go")), "package main\n\n// моё\nfunc main() {}\n"; got != want {
		t.Errorf("switched backup = %q, want %q", got, want)
	}
}

func TestWithin(t *testing.T) {
	dir := filepath.Join("a", "b")
	tests := []struct {
		path string
		want bool
	}{
		{dir, true},
		{filepath.Join(dir, "c"), true},
		{filepath.Join("a", "bc"), false},
		{"a", false},
		{filepath.Join("a", "b", "..", "..", "x"), false},
	}
	for _, tt := range tests {
		if got := Within(tt.path, dir); got != tt.want {
			t.Errorf("Within(%s, %s) = %v, want %v", tt.path, dir, got, tt.want)
		}
	}
}

func TestAdopt(t *testing.T) {
	c := testCourse()
	clone := t.TempDir()
	w := &Workspace{Root: filepath.Join(clone, CloneFolder), Clone: clone}
	ru := filepath.Join(clone, "exercises", "ex-a", "ru")
	if err := os.MkdirAll(ru, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := "package main\n\n// моё\nfunc main() {}\n"
	os.WriteFile(filepath.Join(ru, "main.go"), []byte(mine), 0o644)

	// Without the old progress file, nothing is the learner's to carry over.
	if got := w.OldLang(c); got != "" {
		t.Errorf("OldLang without an old state = %q, want none", got)
	}
	os.WriteFile(filepath.Join(clone, progress.FileName), []byte(`{"version":1,"started":"2026-11-30T10:00:00Z","exercises":{"ex-a":{"hints":2}}}`), 0o644)
	if got := w.OldLang(c); got != "ru" {
		t.Errorf("OldLang = %q, want ru", got)
	}
	if _, _, err := w.Create(c, Settings{Content: "ru"}, "1.26"); err != nil {
		t.Fatal(err)
	}
	moved, err := w.Adopt(c, "ru")
	if err != nil || len(moved) != 1 || moved[0] != "ex-a" {
		t.Fatalf("Adopt = %v, %v; want [ex-a]", moved, err)
	}
	ex, _ := c.Exercise("ex-a")
	if got := read(t, filepath.Join(w.ExerciseDir(ex), "main.go")); got != mine {
		t.Errorf("main.go = %q, want the learner's %q", got, mine)
	}
	if _, err := os.Stat(filepath.Join(clone, progress.FileName)); !os.IsNotExist(err) {
		t.Errorf("the old state is still at the clone's root: %v", err)
	}
	st, err := progress.Load(w.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if st.Lang != "ru" || st.Lookup("ex-a").Hints != 2 {
		t.Errorf("state = lang %q, hints %d; want ru, 2", st.Lang, st.Lookup("ex-a").Hints)
	}
	// Once only.
	if moved, err := w.Adopt(c, "ru"); err != nil || len(moved) != 0 {
		t.Errorf("Adopt again = %v, %v; want nothing", moved, err)
	}
}
