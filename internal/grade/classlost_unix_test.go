//go:build unix

package grade

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// setTime sets a file's times to t in whole seconds (os.Chtimes goes through nanoseconds since 1970,
// which end in 2262).
func setTime(p string, t time.Time) error {
	ts := syscall.Timespec{Sec: t.Unix()}
	return syscall.UtimesNano(p, []syscall.Timespec{ts, ts})
}

// farFutureDir is a new folder on a file system that keeps a file time in the year 11476 (tmpfs
// does; ext4 stops at 2446), or "" when there is none here.
func farFutureDir(t *testing.T, far time.Time) string {
	for _, base := range []string{"", "/dev/shm"} {
		dir, err := os.MkdirTemp(base, "farfuture")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		p := filepath.Join(dir, "probe")
		os.WriteFile(p, nil, 0o644)
		setTime(p, far)
		if fi, err := os.Stat(p); err == nil && fi.ModTime().Equal(far) {
			os.Remove(p)
			return dir
		}
	}
	return ""
}

// TestGradeFarFutureFileTime: a student's file whose time is in the year 11476 (kept by a file
// system from a student's own archive) is no time of handing in, never the end of the class: the
// journal and results.json could not write it, and the class's grade stopped with exit 2.
func TestGradeFarFutureFileTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel()
	far := time.Unix(300000000000, 0)
	root := farFutureDir(t, far)
	if root == "" {
		t.Skip("no file system here keeps a time past the year 9999")
	}
	sol := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	class := filepath.Join(root, "class")
	writeFiles(t, class, files{"anna/main.go": sol, "mal/main.go": sol})
	if err := setTime(filepath.Join(class, "mal", "main.go"), far); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "report")
	rep, _, err := Run(context.Background(), deadlineJob(t), class, out)
	if err != nil {
		t.Fatalf("the class is not graded: %v", err)
	}
	if err := Write(out, rep, "en"); err != nil {
		t.Fatal(err)
	}
	for _, st := range rep.Students {
		if st.Status != StatusPass {
			t.Errorf("%s: %s, want pass", st.Name, st.Status)
		}
		if st.Name == "mal" && !st.Submitted.IsZero() {
			t.Errorf("mal's submission time is %v, want unknown", st.Submitted)
		}
	}
}
