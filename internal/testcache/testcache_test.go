package testcache

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestGoCache(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need a privilege on Windows")
	}
	root := t.TempDir()
	gocache := filepath.Join(root, "go-build")
	if err := os.Mkdir(gocache, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(root, "elsewhere")
	for _, tc := range []struct {
		name, gocache, want string
	}{
		{"pkg", gocache, filepath.Join(root, "workbook", "test", "pkg", "go-build")},
		{"pkg", gocache, filepath.Join(root, "workbook", "test", "pkg", "go-build")}, // the link is there already
		{"cmd/script", gocache, filepath.Join(root, "workbook", "test", "cmd", "script", "go-build")},
		{"pkg", other, other},           // not named go-build: the checker keeps nothing beside it
		{"pkg", "go-build", "go-build"}, // not absolute
	} {
		if got := GoCache(tc.name, tc.gocache); got != tc.want {
			t.Errorf("GoCache(%q, %q) = %q, want %q", tc.name, tc.gocache, got, tc.want)
		} else if got != tc.gocache {
			if target, err := os.Readlink(got); err != nil || target != tc.gocache {
				t.Errorf("%s links to %q (%v), want %q", got, target, err, tc.gocache)
			}
		}
	}
	// A folder others may write to is not used: they could change the link.
	shared := filepath.Join(root, "workbook", "test", "shared")
	if err := os.MkdirAll(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if got := GoCache("shared", gocache); got != gocache {
		t.Errorf("GoCache in a folder others may write to = %q, want %q", got, gocache)
	}
}
