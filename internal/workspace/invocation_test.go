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
	installed := filepath.Join(string(filepath.Separator), "usr", "local", "bin", "workbook")
	if viaGoRun(installed) {
		t.Error("an installed binary is taken for go run")
	}
	if got := Invocation(installed, t.TempDir()); got != "workbook" {
		t.Errorf("Invocation of an installed binary = %q, want workbook", got)
	}
}
