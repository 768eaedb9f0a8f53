//go:build unix

package checker

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRemoveTree checks that a folder a learner's program locked (chmod 000, 0500), with files
// inside, is removed all the same where the checker is not root, and that a symbolic link in it is
// not followed: the folder it points to keeps its files and its mode.
func TestRemoveTree(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root needs no rights given back (TestHostile's run as nobody covers it: lockedout)")
	}
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	if err := os.MkdirAll(outside, 0o500); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "scratch")
	for i, mode := range []os.FileMode{0, 0o500, 0o300} {
		d := filepath.Join(root, fmt.Sprint("keep", i), "inner")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "ballast"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(filepath.Dir(d), 0o755) // for t.TempDir's own cleanup when the test fails
		if err := os.Chmod(filepath.Dir(d), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	// A locked folder deeper than PATH_MAX (4096 bytes) allows a path to reach: made by
	// descriptors, as a program can.
	deep := filepath.Join(root, "deep")
	if err := os.Mkdir(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(deep, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1200; i++ {
		if err := unix.Mkdirat(fd, "dir", 0o755); err != nil {
			t.Fatal(err)
		}
		sub, err := unix.Openat(fd, "dir", unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = sub
	}
	if err := unix.Mkdirat(fd, "locked", 0o755); err != nil {
		t.Fatal(err)
	}
	if fd2, err := unix.Openat(fd, "locked", unix.O_RDONLY|unix.O_DIRECTORY, 0); err == nil {
		unix.Mkdirat(fd2, "inner", 0o755)
		unix.Close(fd2)
	}
	unix.Fchmodat(fd, "locked", 0, 0)
	unix.Close(fd)
	if err := removeTree(root); err != nil {
		t.Fatalf("removeTree: %v", err)
	}
	if _, err := os.Lstat(root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s is still there: %v", root, err)
	}
	if fi, err := os.Stat(outside); err != nil || fi.Mode().Perm() != 0o500 {
		t.Errorf("the folder behind the link: %v, %v; want it untouched (0500)", fi, err)
	}
}
