//go:build unix

package grade

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// inTime fails the test when f does not return in time: a read that blocks on a FIFO would hang.
func inTime(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v: something blocked", d)
	}
}

// hostileFolder makes a folder submission with a good main.go next to everything a folder must not
// make the grader read: a FIFO and a link to /dev/zero named like Go files, a link to a folder
// outside, a hard link to a file outside, a socket, and a file that is not a build file.
func hostileFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.go"), []byte("package secret\n"), 0o644)
	mk := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("hw/main.go", "package main\n\nfunc main() {}\n")
	mk("hw/notes.txt", "not read")
	if err := syscall.Mkfifo(filepath.Join(dir, "hw", "zz.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"hw/zero.go": "/dev/zero", "hw/out": outside, "hw/loop.go": "loop.go"} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	// A second name of a file outside (both temporary folders are on one file system).
	if err := os.Link(filepath.Join(outside, "secret.go"), filepath.Join(dir, "hw", "secret.go")); err != nil {
		t.Fatal(err)
	}
	// A socket's path must be short: make it in a short folder and move it in.
	sockDir, err := os.MkdirTemp("", "s")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	l, err := net.Listen("unix", filepath.Join(sockDir, "s"))
	if err == nil {
		l.(*net.UnixListener).SetUnlinkOnClose(false)
		l.Close()
		if err := os.Rename(filepath.Join(sockDir, "s"), filepath.Join(dir, "hw", "sock.go")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestWalkFolderHostile(t *testing.T) {
	dir := hostileFolder(t)
	var read []string
	var skipped []SkippedEntry
	var err error
	inTime(t, 10*time.Second, func() {
		skipped, err = walkFolder(dir, func(rel string, data []byte) error {
			read = append(read, fmt.Sprintf("%s %d", rel, len(data)))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"hw/main.go 29"}; !reflect.DeepEqual(read, want) {
		t.Errorf("read %q, want %q", read, want)
	}
	want := []SkippedEntry{{"hw/loop.go", SkipSymlink}, {"hw/out", SkipSymlink}, {"hw/secret.go", SkipHardlink},
		{"hw/sock.go", SkipSocket}, {"hw/zero.go", SkipSymlink}, {"hw/zz.go", SkipFIFO}}
	if _, err := os.Stat(filepath.Join(dir, "hw", "sock.go")); err != nil {
		want = append(want[:3], want[4:]...) // no unix sockets here
	}
	if !reflect.DeepEqual(skipped, want) {
		t.Errorf("skipped %+v, want %+v", skipped, want)
	}

	// copyFolder leaves a copy of regular files alone.
	dst := t.TempDir()
	inTime(t, 10*time.Second, func() { _, err = copyFolder(dir, dst) })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(dst, p)
		got = append(got, fmt.Sprintf("%s %s", filepath.ToSlash(rel), d.Type()))
		return nil
	})
	if want := []string{". d---------", "hw d---------", "hw/main.go ----------"}; !reflect.DeepEqual(got, want) {
		t.Errorf("copy holds %q, want %q", got, want)
	}
}

// TestSwappedAfterListing opens names that the listing saw as regular files but that are now a FIFO
// or a link (swapped between the look and the open): neither blocks, neither is read.
func TestSwappedAfterListing(t *testing.T) {
	dir := hostileFolder(t)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	tests := []struct {
		rel, kind string
	}{
		{"hw/zz.go", SkipFIFO},
		{"hw/zero.go", SkipOther}, // os.Root refuses a link that leads out of the folder
		{"hw/loop.go", SkipOther},
	}
	for _, tt := range tests {
		w := &folderWalk{root: root, file: func(rel string, data []byte) error {
			t.Errorf("%s was read (%d bytes)", rel, len(data))
			return nil
		}}
		inTime(t, 5*time.Second, func() {
			if err := w.regular(tt.rel); err != nil {
				t.Errorf("%s: %v", tt.rel, err)
			}
		})
		if want := []SkippedEntry{{tt.rel, tt.kind}}; !reflect.DeepEqual(w.skipped, want) {
			t.Errorf("%s: skipped %+v, want %+v", tt.rel, w.skipped, want)
		}
	}
}

func TestOpenRegular(t *testing.T) {
	dir := hostileFolder(t)
	tests := []struct {
		path string
		ok   bool
	}{
		{filepath.Join(dir, "hw", "main.go"), true},
		{filepath.Join(dir, "hw", "zz.go"), false},   // FIFO: not opened for reading with blocking
		{filepath.Join(dir, "hw", "zero.go"), false}, // link: not followed
		{"/dev/zero", false},                         // device: opened, found out by fstat, closed
		{filepath.Join(dir, "hw"), false},            // folder
	}
	for _, tt := range tests {
		inTime(t, 5*time.Second, func() {
			f, _, err := openRegular(tt.path)
			if f != nil {
				f.Close()
			}
			if (err == nil) != tt.ok {
				t.Errorf("openRegular(%s): %v, want ok %t", tt.path, err, tt.ok)
			}
		})
	}
}

func TestWalkFolderLimits(t *testing.T) {
	t.Parallel() // makes thousands of files: the kernel works, the other tests need not wait
	tests := []struct {
		name string
		make func(t *testing.T, dir string)
		want string
	}{
		{"one file too big", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "big.go"), make([]byte, maxFileBytes+1), 0o644)
		}, BigFile},
		{"too much in all", func(t *testing.T, dir string) {
			for i := range 3 {
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), make([]byte, maxFileBytes), 0o644)
			}
		}, BigBytes},
		{"too many files", func(t *testing.T, dir string) {
			for i := range DefaultReadLimits.Files + 1 {
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), nil, 0o644)
			}
		}, BigFiles},
		{"too many entries", func(t *testing.T, dir string) {
			for i := range DefaultReadLimits.Entries + 1 {
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%d.txt", i)), nil, 0o644)
			}
		}, BigEntries},
		{"too deep", func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, strings.Repeat("d/", DefaultReadLimits.Depth+1)), 0o755)
		}, BigDepth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.make(t, dir)
			_, err := walkFolder(dir, func(string, []byte) error { return nil })
			var tb *tooBigError
			if !errors.As(err, &tb) || tb.code != tt.want {
				t.Errorf("got %v, want a tooBigError %q", err, tt.want)
			}
		})
	}
}
