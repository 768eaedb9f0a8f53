package workspace

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

func TestViaGoRun(t *testing.T) {
	if viaGoRun(filepath.Join(os.TempDir(), "go-build123", "b001", "exe", "workbook")) != true {
		t.Error("a go run binary is not recognised")
	}
	// Go 1.24 and later: the executable go run linked, kept in the build cache.
	cached := filepath.Join(string(filepath.Separator), "home", "me", ".cache", "go-build", "64", "645ff3e0dc5425fc81073a9700bd73c5ba5f5b1f0f7529697a73c4b6e58ca20b-d", "workbook")
	if !viaGoRun(cached) {
		t.Error("a go run binary from the build cache is not recognised")
	}
	for _, other := range []string{
		filepath.Join(string(filepath.Separator), "usr", "local", "bin", "workbook"),
		filepath.Join(string(filepath.Separator), "home", "me", "go", "bin", "workbook"),
		// A folder that only looks like a cache entry: the shard is not the hash's first digits.
		filepath.Join(string(filepath.Separator), "opt", "ab", "645ff3e0dc5425fc81073a9700bd73c5ba5f5b1f0f7529697a73c4b6e58ca20b-d", "workbook"),
	} {
		if viaGoRun(other) {
			t.Errorf("%s is taken for a go run binary", other)
		}
	}
	installed := filepath.Join(string(filepath.Separator), "usr", "local", "bin", "workbook")
	if got := Invocation(installed, t.TempDir()); got != "workbook" {
		t.Errorf("Invocation of an installed binary = %q, want workbook", got)
	}
}

// TestHere: the folder the learner stands in is the shell's (PWD) when `go -C` moved the tool up to
// the clone's root, and the working folder otherwise.
func TestHere(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	below := filepath.Join(root, "my", "ru", "exercise-deadline")
	elsewhere := t.TempDir()
	if err := os.MkdirAll(below, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ pwd, want string }{
		{below, below},                         // go -C ../../.. from the exercise's folder
		{root, root},                           // no go -C
		{"", root},                             // no PWD
		{"my/ru", root},                        // not an absolute path
		{elsewhere, root},                      // a PWD left over from somewhere else
		{filepath.Join(root, "missing"), root}, // a folder that is not there
		{filepath.Join(below, "..", "..", ".."), root}, // the root, written otherwise
	}
	t.Chdir(root)
	for _, tt := range tests {
		t.Setenv("PWD", tt.pwd)
		got, err := Here()
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("PWD=%q: Here() = %q, want %q", tt.pwd, got, tt.want)
		}
	}
}

// TestHereOutsideTheClone: a learner in a workspace `workbook init` made elsewhere runs the clone's
// workbook with `go -C CLONE run ./cmd/workbook`; the tool then stands in the shell's folder (PWD)
// when that folder is inside such a workspace, and nowhere else outside the clone.
func TestHereOutsideTheClone(t *testing.T) {
	clone := fakeClone(t, t.TempDir())
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exDir := filepath.Join(ws, "ru", "exercise-deadline")
	if err := os.MkdirAll(exDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".workbook.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir() // a folder that is no workspace
	tests := []struct{ pwd, want string }{
		{ws, ws},       // go -C CLONE from the workspace's root
		{exDir, exDir}, // from an exercise's folder in it
		{plain, clone}, // a PWD left over from somewhere else
	}
	t.Chdir(clone)
	for _, tt := range tests {
		t.Setenv("PWD", tt.pwd)
		got, err := Here()
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("PWD=%q: Here() = %q, want %q", tt.pwd, got, tt.want)
		}
	}
}

// TestInvocationFrom: the command that runs the clone's workbook from where the learner stands.
func TestInvocationFrom(t *testing.T) {
	clone := fakeClone(t, t.TempDir())
	spaced := fakeClone(t, filepath.Join(t.TempDir(), "my clone"))
	goRun := filepath.Join(string(filepath.Separator), "home", "me", ".cache", "go-build", "64", "645ff3e0dc5425fc81073a9700bd73c5ba5f5b1f0f7529697a73c4b6e58ca20b-d", "workbook")
	installed := filepath.Join(string(filepath.Separator), "usr", "local", "bin", "workbook")
	elsewhere := t.TempDir()
	tests := []struct {
		name, exe, wd, cwd, want string
	}{
		{"installed", installed, elsewhere, clone, "workbook"},
		{"at the clone's root", goRun, clone, clone, "go run ./cmd/workbook"},
		{"in the clone's exercise folder", goRun, filepath.Join(clone, "my", "ru", "x"), clone, "go -C ../../.. run ./cmd/workbook"},
		{"in a workspace elsewhere", goRun, elsewhere, clone, "go -C " + filepath.ToSlash(clone) + " run ./cmd/workbook"},
		{"a clone whose path has a space", goRun, elsewhere, spaced, "go -C '" + filepath.ToSlash(spaced) + "' run ./cmd/workbook"},
		{"no clone at all", goRun, elsewhere, elsewhere, "workbook"},
	}
	for _, tt := range tests {
		if got := InvocationFrom(tt.exe, tt.wd, tt.cwd); got != tt.want {
			t.Errorf("%s: InvocationFrom = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// fakeClone makes dir look like the root of a clone of the course (IsClone) and returns it with its
// symbolic links resolved.
func fakeClone(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "exercises"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(modulePath+"\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
