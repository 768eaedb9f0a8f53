package workspace

import (
	"errors"
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
	if got := Find(filepath.Join(clone, CloneFolder, "bg", "ex-a")); got == nil || got.Root != w.Root || got.Clone != clone {
		t.Errorf("Find in my/ex-a = %+v, want %+v", got, w)
	}
}

func TestCreateResetSwitch(t *testing.T) {
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
	main := filepath.Join(w.ExerciseDir(ex, "bg"), "main.go")
	if want := filepath.Join(w.Root, "bg", "ex-a", "main.go"); main != want {
		t.Errorf("program at %s, want %s", main, want)
	}
	if got, want := read(t, main), "package main\n\n// български\nfunc main() {}\n"; got != want {
		t.Errorf("main.go = %q, want %q", got, want)
	}
	if got, want := read(t, w.StatementPath(ex, "bg")), "# Задача\n"; got != want {
		t.Errorf("statement = %q, want %q", got, want)
	}
	if got, want := read(t, filepath.Join(w.ExerciseDir(ex, "bg"), "go.mod")), "module ex-a\n\ngo 1.26\n"; got != want {
		t.Errorf("go.mod = %q, want %q", got, want)
	}
	if got, want := w.Settings(), (Settings{Content: "bg", Assumed: true}); got != want {
		t.Errorf("Settings = %+v, want %+v", got, want)
	}
	if got := w.GuessLang(c); got != "bg" {
		t.Errorf("GuessLang = %q, want bg", got)
	}
	if !w.Pristine(c, ex, "bg") || w.HasWork(c, ex, "bg") || w.HasWork(c, ex, "ru") {
		t.Errorf("Pristine(bg), HasWork(bg), HasWork(ru) = %v, %v, %v; want true, false, false", w.Pristine(c, ex, "bg"), w.HasWork(c, ex, "bg"), w.HasWork(c, ex, "ru"))
	}
	// Nothing of the learner's: Keep keeps nothing.
	if v, made, err := w.Keep(c, ex, "bg"); err != nil || made || v.N != 0 {
		t.Errorf("Keep of the starter = %+v, %v, %v; want nothing kept", v, made, err)
	}

	// Again: nothing added, the learner's file kept.
	mine := "package main\n\nfunc main() { println(1) }\n"
	os.WriteFile(main, []byte(mine), 0o644)
	if added, kept, err := w.Create(c, Settings{Content: "bg"}, "1.26"); err != nil || added != 0 || kept != 1 {
		t.Fatalf("Create again = %d, %d, %v; want 0, 1, nil", added, kept, err)
	}
	if !w.HasWork(c, ex, "bg") {
		t.Error("HasWork after an edit = false, want true")
	}

	// Reset keeps the edit as version 1 and gives the pristine starter; an extra file goes too.
	os.WriteFile(filepath.Join(w.ExerciseDir(ex, "bg"), "helper.go"), []byte("package main\n"), 0o644)
	v, err := w.Reset(c, ex, "bg", "1.26")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(w.BackupRoot(), "bg", "ex-a", "1"); v.Dir != want || v.N != 1 {
		t.Errorf("kept = %+v, want 1 at %s", v, want)
	}
	if got := read(t, filepath.Join(v.Dir, "main.go")); got != mine {
		t.Errorf("kept main.go = %q, want %q", got, mine)
	}
	if _, err := os.Stat(filepath.Join(w.ExerciseDir(ex, "bg"), "helper.go")); !os.IsNotExist(err) {
		t.Errorf("helper.go after Reset: %v, want it gone", err)
	}
	if !w.Pristine(c, ex, "bg") {
		t.Error("Pristine after Reset = false, want true")
	}

	// RestoreVersion brings it back; restoring it again keeps nothing twice.
	if kept, err := w.RestoreVersion(c, ex, "bg", 1); err != nil || kept.N != 0 {
		t.Fatalf("RestoreVersion = %+v, %v; want nothing new kept", kept, err)
	}
	if got := read(t, main); got != mine {
		t.Errorf("main.go after RestoreVersion = %q, want %q", got, mine)
	}
	if v, made, err := w.Keep(c, ex, "bg"); err != nil || made || v.N != 1 {
		t.Errorf("Keep of a restored version = %+v, %v, %v; want version 1, not made again", v, made, err)
	}
	var nv *NoVersionError
	if _, err := w.RestoreVersion(c, ex, "bg", 5); !errors.As(err, &nv) || nv.Have != 1 {
		t.Errorf("RestoreVersion(5) = %v, want a NoVersionError naming 1 kept", err)
	}

	// Switch: the other language gets its own folder; nothing of the first is touched.
	if added, err := w.Switch(c, "ru", "1.26"); err != nil || added != 1 {
		t.Fatalf("Switch = %d, %v; want 1 starter written", added, err)
	}
	if got := read(t, main); got != mine {
		t.Errorf("bg main.go after Switch = %q, want the learner's %q", got, mine)
	}
	if got, want := read(t, filepath.Join(w.ExerciseDir(ex, "ru"), "main.go")), "package main\n\n// русский\nfunc main() {}\n"; got != want {
		t.Errorf("ru main.go after Switch = %q, want %q", got, want)
	}
	if got, want := w.Settings(), (Settings{Content: "ru"}); got != want {
		t.Errorf("Settings after Switch = %+v, want %+v", got, want)
	}
	// And back: instant, nothing written.
	if added, err := w.Switch(c, "bg", "1.26"); err != nil || added != 0 {
		t.Fatalf("Switch back = %d, %v; want nothing written", added, err)
	}
	if got, lang := w.ExerciseAt(filepath.Join(w.ExerciseDir(ex, "ru"), "sub"), []*course.Exercise{ex}); got != ex || lang != "ru" {
		t.Errorf("ExerciseAt in ru = %v, %q; want ex-a, ru", got, lang)
	}
}

// TestMigrate carries a workspace of the older layout (exercise folders at the root, versions in
// .workbook-backup/<exercise>/<n>) over, losing nothing.
func TestMigrate(t *testing.T) {
	c := testCourse()
	ex, _ := c.Exercise("ex-a")
	w := &Workspace{Root: t.TempDir()}
	os.WriteFile(w.StatePath(), []byte(`{"version":1,"lang":"bg","started":"2026-11-30T10:00:00Z"}`), 0o644)
	old := filepath.Join(w.Root, "ex-a")
	os.MkdirAll(old, 0o755)
	mine := "package main\n\n// моё\nfunc main() {}\n"
	os.WriteFile(filepath.Join(old, "main.go"), []byte(mine), 0o644)
	os.WriteFile(filepath.Join(old, StatementFile), []byte("# Задача\n"), 0o644)
	// Two old versions: one of a Russian folder (its statement tells), one of a Bulgarian one.
	for n, st := range map[string]string{"1": "# Задача по-русски\n", "2": "# Задача\n"} {
		d := filepath.Join(w.BackupRoot(), "ex-a", n)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, StatementFile), []byte(st), 0o644)
		os.WriteFile(filepath.Join(d, "main.go"), []byte("// "+n+"\n"), 0o644)
	}
	os.WriteFile(filepath.Join(w.Root, "notes.txt"), []byte("mine"), 0o644)

	moved, err := w.Migrate(c, "bg")
	if err != nil || len(moved) != 1 {
		t.Fatalf("Migrate = %v, %v; want [ex-a]", moved, err)
	}
	if got := read(t, filepath.Join(w.ExerciseDir(ex, "bg"), "main.go")); got != mine {
		t.Errorf("bg main.go = %q, want %q", got, mine)
	}
	for _, tt := range []struct{ lang, n, want string }{{"ru", "1", "// 1\n"}, {"bg", "1", "// 2\n"}} {
		if got := read(t, filepath.Join(w.BackupRoot(), tt.lang, "ex-a", tt.n, "main.go")); got != tt.want {
			t.Errorf("version %s/%s = %q, want %q", tt.lang, tt.n, got, tt.want)
		}
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the old folder is still there: %v", err)
	}
	if got := read(t, filepath.Join(w.Root, "notes.txt")); got != "mine" {
		t.Errorf("a foreign file = %q, want it untouched", got)
	}
	// Once only.
	if moved, err := w.Migrate(c, "bg"); err != nil || len(moved) != 0 {
		t.Errorf("Migrate again = %v, %v; want nothing", moved, err)
	}
	// An old folder where the new one already is becomes a version, not lost.
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, "main.go"), []byte("// late\n"), 0o644)
	if _, err := w.Migrate(c, "bg"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(w.BackupRoot(), "bg", "ex-a", "2", "main.go")); got != "// late\n" {
		t.Errorf("the late folder kept as %q, want it as version 2", got)
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
	if got := read(t, filepath.Join(w.ExerciseDir(ex, "ru"), "main.go")); got != mine {
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
