package checker

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRemoveStale checks that only the old scratch folders of processes that have ended go.
func TestRemoveStale(t *testing.T) {
	// The number of a process that has ended.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := cmd.Process.Pid
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	mk := func(name string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Join(p, "src"), 0o755)
		os.WriteFile(filepath.Join(p, "src", "main.go"), []byte("package main\n"), 0o644)
		os.Chtimes(p, mtime, mtime)
		return p
	}
	gone := mk(fmt.Sprintf("workbook-build-%d-123", dead), old)
	kept := []string{
		mk(fmt.Sprintf("workbook-grade-%d-456", os.Getpid()), old), // this process's own
		mk(fmt.Sprintf("workbook-build-%d-789", dead), time.Now()), // too fresh: may be in use
		mk(fmt.Sprintf("workbook-%d-abc", dead), old),              // not one of TempDir's names
		mk(fmt.Sprintf("other-build-%d-123", dead), old),           // not ours at all
		mk(fmt.Sprintf("workbook-build-%d-1-2", dead), old),        // not TempDir's shape
	}
	if n := RemoveStale(dir, time.Minute); n != 1 {
		t.Errorf("removed %d folders, want 1", n)
	}
	if _, err := os.Stat(gone); err == nil {
		t.Errorf("%s is still there", gone)
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
	p, err := TempDir("check")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(p)
	if want := fmt.Sprintf("workbook-check-%d-", os.Getpid()); !strings.HasPrefix(filepath.Base(p), want) {
		t.Errorf("TempDir made %s, want a name starting with %s", p, want)
	}
}

// TestCleanTraceForeignFolder: a panic's trace from an executable built under another temporary
// folder (one taken from the cache) reads relative to the learner's folder too.
func TestCleanTraceForeignFolder(t *testing.T) {
	sep := string(filepath.Separator)
	for _, tc := range []struct{ in, want string }{
		{"\t" + filepath.Join(os.TempDir(), "workbook-batch-1-2", "mod", "p001", "main.go") + ":8 +0x65", "\tmain.go:8 +0x65"},
		{"\t" + sep + filepath.Join("elsewhere", ".tmp", "workbook-batch-31695-3042895043", "mod", "p001", "main.go") + ":8", "\tmain.go:8"},
		{"\t" + sep + filepath.Join("x", "workbook-build-7-9", "src", "main.go") + ":3", "\tmain.go:3"},
		{"main.go:8 stays", "main.go:8 stays"},
	} {
		if got := cleanTrace(tc.in); got != tc.want {
			t.Errorf("cleanTrace(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
