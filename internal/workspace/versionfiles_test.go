package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestVersionFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"main.go", "TASK.md", "go.mod", "retry/retry.go", "a.go"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := (Version{N: 1, Dir: dir}).Files(), []string{"a.go", "main.go", "retry/retry.go"}; !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
}

func TestIsVersionArg(t *testing.T) {
	for a, want := range map[string]bool{"1": true, "12": true, "last": true, "0": false, "-1": false, "exercise-retry": false, "": false} {
		if got := IsVersionArg(a); got != want {
			t.Errorf("IsVersionArg(%q) = %v, want %v", a, got, want)
		}
	}
}
