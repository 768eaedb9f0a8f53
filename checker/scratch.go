package checker

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TempDir makes a scratch folder in the system's temporary folder for kind (one word: "build",
// "grade", …), named workbook-KIND-PID-RANDOM so that a later run can tell the folders of a process
// that was killed (kill -9, a power cut) from those of one still at work. The first call also
// removes, in the background, the scratch folders that such dead processes of this user left.
func TempDir(kind string) (string, error) {
	staleOnce.Do(func() { go RemoveStale(os.TempDir(), staleAge) })
	return os.MkdirTemp("", fmt.Sprintf("workbook-%s-%d-", kind, os.Getpid()))
}

var staleOnce sync.Once

// staleAge is how long a dead process's scratch folder is left before a later process removes it:
// long enough that a process of another PID namespace sharing /tmp (whose PID means nothing here)
// has touched its folder since, short enough that an instructor who killed a grading and starts
// it again finds the folders of the killed run gone.
const staleAge = 2 * time.Minute

// RemoveStale removes the scratch folders in dir made by TempDir in processes that have ended,
// when they belong to this user and have not changed for at least age. It returns how many it
// removed.
func RemoveStale(dir string, age time.Duration) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		parts := strings.Split(e.Name(), "-")
		if !e.IsDir() || len(parts) != 4 || parts[0] != "workbook" {
			continue
		}
		pid, err := strconv.Atoi(parts[2])
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil || !ownedByMe(fi) || time.Since(fi.ModTime()) < age {
			continue
		}
		if removeTree(p) == nil {
			n++
		}
	}
	return n
}

// removeTree removes path and everything in it, as os.RemoveAll does; where that fails, it first
// gives back to every folder under path that is the checker's own the rights a learner's program
// took away, and tries once more. A program that runs as the checker's user (the landlock and
// rlimits levels of an ordinary user) can make a folder of its files that its owner may neither
// list nor empty (chmod 000 or 0500): os.RemoveAll alone left it, and what it held, on the disk
// after the run (lockedout). Folders only, never through a symbolic link, and never as
// root, who needs no rights given back and must not give them to anyone: a program that runs as
// the checker's user could change the same modes itself.
func removeTree(path string) error {
	err := os.RemoveAll(path)
	if err == nil || os.Geteuid() == 0 {
		return err
	}
	grantTree(path)
	return os.RemoveAll(path)
}
