package grade

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLockReport checks that a report folder held by one grading is refused to another, and free
// again once the first lets go or dies.
func TestLockReport(t *testing.T) {
	dir := t.TempDir()
	unlock, err := LockReport(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockReport(dir); !errors.Is(err, ErrReportBusy) {
		t.Fatalf("second lock: %v, want ErrReportBusy", err)
	}
	unlock()
	unlock2, err := LockReport(dir)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
	if err := PrepareOut(dir); err != nil {
		t.Errorf("a folder with only the lock file is not taken for a report: %v", err)
	}
}

// TestLockReportDies checks that the lock of a process that is killed is gone with it.
func TestLockReportDies(t *testing.T) {
	if os.Getenv("WORKBOOK_LOCK_CHILD") != "" {
		if _, err := LockReport(os.Getenv("WORKBOOK_LOCK_CHILD")); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("locked\n")
		select {}
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockReportDies$")
	cmd.Env = append(os.Environ(), "WORKBOOK_LOCK_CHILD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 7)
	if _, err := out.Read(buf); err != nil || string(buf) != "locked\n" {
		cmd.Process.Kill()
		t.Fatalf("the child did not lock: %q %v", buf, err)
	}
	if _, err := LockReport(dir); !errors.Is(err, ErrReportBusy) {
		t.Errorf("while the child holds it: %v, want ErrReportBusy", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	unlock, err := LockReport(dir)
	if err != nil {
		t.Fatalf("after the child was killed: %v", err)
	}
	unlock()
	if _, err := os.Stat(filepath.Join(dir, LockFile)); err != nil {
		t.Errorf("lock file: %v", err)
	}
}
