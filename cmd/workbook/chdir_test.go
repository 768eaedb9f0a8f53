package main

import (
	"os"
	"syscall"
	"testing"
)

// inDir makes dir the working directory of the test process until the test ends, as t.Chdir does,
// but without a line in go test's log of what the test read. go test caches a package's result
// keyed by what its tests read, and for every folder a test entered (os.Chdir, t.Chdir) it hashes
// the folder's name; a new temporary folder has a new name on every run, so a package whose tests
// enter one is never taken from the cache, and a second `go test ./...` ran all of cmd/workbook's
// tests again. The folders entered here are the tests' own new temporary folders: nothing read
// through them can change between runs, so the cache misses no input by not hearing of them. As
// with t.Chdir, PWD follows, and a test that calls inDir cannot run in parallel (t.Setenv).
func inDir(t *testing.T, dir string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PWD", dir)
	if err := syscall.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := syscall.Chdir(old); err != nil {
			t.Errorf("back to %s: %v", old, err)
		}
	})
}
