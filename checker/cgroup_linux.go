//go:build linux

package checker

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Where the system delegates a cgroup v2 subtree to the checker, every sandboxed process tree (a
// run's init and everything it starts, or a session's init and its runs) is started inside a cgroup
// of its own (clone3 with CLONE_INTO_CGROUP, so it is never outside it, not even before exec), which
// bounds the memory (tmpfs pages included, no swap) and the tasks of the whole tree, and is killed
// as one with cgroup.kill when the run ends: a child that left the process group with setsid dies
// too, at every sandbox level. The memory watchdog of the namespace levels stays as a second line.
//
// The checker uses the cgroup it was started in, C, when the kernel offers the memory and pids
// controllers there (cgroup.controllers) and C is the checker's to write. C must hold the checker
// alone, as a scope made with `systemd-run --user --scope -p Delegate=yes` or a service with
// Delegate=yes does: the checker moves itself into a leaf C/workbook-PID and enables the two
// controllers in C's cgroup.subtree_control, which the kernel allows only when no other process is
// in C. Everywhere else (cgroup v1, a hybrid system whose memory controller is v1's, a terminal's
// shared scope, a read-only cgroupfs) it asks systemd for a delegated scope of its own
// (scope_linux.go) and takes this path again there, or else says why in the probe log and keeps to
// the watchdog and the per-process limits.

// cgroupTree is the delegated cgroup the checker makes the cgroups of its process trees in.
type cgroupTree struct {
	dir  string // C, with memory and pids in its cgroup.subtree_control
	from string // "" when the checker was started in C, else who gave it (CgroupFromSystemdUser, …)
	next atomic.Uint64
}

var (
	cgroupOnce  sync.Once
	theCgroups  *cgroupTree
	cgroupWhy   string // why there is no cgroupTree, for the probe log
	cgroupProcs = "/proc/self/cgroup"
	cgroupMount = "/proc/self/mountinfo"
)

// cgroups returns the delegated tree, or nil when the system has none for the checker. It is set up
// once, before the checker starts any child, since moving the checker's process (see above) must
// happen while it is alone in its cgroup.
func cgroups() *cgroupTree {
	cgroupOnce.Do(func() {
		t, err := setupCgroups()
		if err != nil {
			cgroupWhy = "cgroup v2: " + err.Error()
			probeLog = append(probeLog, cgroupWhy)
			return
		}
		theCgroups = t
	})
	return theCgroups
}

// CgroupStatus says where the checker makes the cgroups of its runs, or why it makes none.
func CgroupStatus() (dir, why string) {
	currentLevel()
	if t := cgroups(); t != nil {
		return t.dir, ""
	}
	return "", cgroupWhy
}

// ownCgroup finds the checker's cgroup v2 folder from the contents of /proc/self/cgroup and
// /proc/self/mountinfo: the "0::PATH" line, and a cgroup2 mount whose root is PATH or above it.
func ownCgroup(procCgroup, mountinfo []byte) (string, error) {
	var path string
	found := false
	for _, line := range strings.Split(string(procCgroup), "\n") {
		if rest, ok := strings.CutPrefix(line, "0::"); ok {
			path, found = rest, true
		}
	}
	if !found {
		return "", errors.New("no cgroup v2 hierarchy in /proc/self/cgroup")
	}
	if strings.HasSuffix(path, " (deleted)") {
		return "", errors.New("the checker's cgroup is deleted")
	}
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	for sc.Scan() {
		// ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, f := range fields {
			if f == "-" {
				sep = i
				break
			}
		}
		if sep < 5 || sep+1 >= len(fields) || fields[sep+1] != "cgroup2" {
			continue
		}
		root, mnt := unescapeMount(fields[3]), unescapeMount(fields[4])
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		return filepath.Join(mnt, rel), nil
	}
	return "", errors.New("no cgroup2 file system is mounted where the checker's cgroup is")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space, …).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasWords reports whether the space-separated list in file holds every word.
func hasWords(file string, words ...string) (bool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return false, err
	}
	have := map[string]bool{}
	for _, w := range strings.Fields(string(data)) {
		have[w] = true
	}
	for _, w := range words {
		if !have[w] {
			return false, nil
		}
	}
	return true, nil
}

// setupCgroups uses the cgroup the checker was started in, or else one it asks systemd for
// (scope_linux.go).
func setupCgroups() (*cgroupTree, error) {
	t, err := ownCgroupTree()
	if err == nil {
		return t, nil
	}
	from, serr := systemdScope()
	if serr != nil {
		return nil, fmt.Errorf("%v; a scope of systemd's: %v", err, serr)
	}
	t, serr = ownCgroupTree()
	if serr != nil {
		return nil, fmt.Errorf("%v; in the scope systemd gave: %v", err, serr)
	}
	t.from = from
	return t, nil
}

// ownCgroupTree sets up the cgroup the checker is in as the parent of its runs' cgroups.
func ownCgroupTree() (*cgroupTree, error) {
	pc, err := os.ReadFile(cgroupProcs)
	if err != nil {
		return nil, err
	}
	mi, err := os.ReadFile(cgroupMount)
	if err != nil {
		return nil, err
	}
	dir, err := ownCgroup(pc, mi)
	if err != nil {
		return nil, err
	}
	ok, err := hasWords(filepath.Join(dir, "cgroup.controllers"), "memory", "pids")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s does not offer the memory and pids controllers (on a hybrid system they belong to cgroup v1; otherwise the parent cgroup has not delegated them)", dir)
	}
	for _, f := range []string{dir, filepath.Join(dir, "cgroup.procs"), filepath.Join(dir, "cgroup.subtree_control")} {
		if err := unix.Access(f, unix.W_OK); err != nil {
			return nil, fmt.Errorf("%s is not delegated to this user (%v)", dir, err)
		}
	}
	t := &cgroupTree{dir: dir}
	removeStale(dir)
	enabled, err := hasWords(filepath.Join(dir, "cgroup.subtree_control"), "memory", "pids")
	if err != nil {
		return nil, err
	}
	if enabled {
		// Only the root of a hierarchy may hold processes and enable controllers for its children.
		return t, nil
	}
	// Leave C for a leaf of the checker's own, then give C's children the controllers. The kernel
	// refuses the second step while any other process is in C.
	leaf := filepath.Join(dir, fmt.Sprintf("workbook-%d", os.Getpid()))
	if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	pid := []byte(strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), pid, 0); err != nil {
		os.Remove(leaf)
		return nil, fmt.Errorf("moving the checker into %s: %v", leaf, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory +pids"), 0); err != nil {
		os.WriteFile(filepath.Join(dir, "cgroup.procs"), pid, 0)
		os.Remove(leaf)
		if errors.Is(err, syscall.EBUSY) {
			return nil, fmt.Errorf("%s holds other processes too", dir)
		}
		return nil, fmt.Errorf("enabling memory and pids in %s: %v", dir, err)
	}
	return t, nil
}

// removeStale removes the empty cgroups that checkers which are no longer running left in dir.
func removeStale(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		var pid int
		if rest, ok := strings.CutPrefix(name, "run-"); ok {
			pid, _ = strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
		} else if rest, ok := strings.CutPrefix(name, "workbook-"); ok {
			pid, _ = strconv.Atoi(rest)
		}
		if !e.IsDir() || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.Remove(filepath.Join(dir, name)) // only an empty cgroup can be removed
		}
	}
}

// checkCgroups makes one cgroup with limits and starts the sandbox init of level l in it (clone3
// with CLONE_INTO_CGROUP, and the level's namespaces), before any run uses the tree: a tree that
// cannot hold a limit, or a kernel or security module that refuses the start, leaves the checker
// without cgroups, never without a sandbox.
func checkCgroups(l level) {
	t := cgroups()
	if t == nil {
		return
	}
	g, err := t.group(256<<20, 64)
	if err == nil {
		err = probeIn(l, g)
		g.close()
	}
	if err != nil {
		cgroupWhy = "cgroup v2: starting a sandbox in a cgroup: " + err.Error()
		probeLog = append(probeLog, cgroupWhy)
		theCgroups = nil
	}
}

// procGroup is the cgroup of one sandboxed process tree.
type procGroup struct {
	dir      string
	fd       *os.File
	oomStart int64 // the oom_kill count when the current run started
}

// group makes a cgroup for one process tree with these limits on its memory (no swap) and tasks.
func (t *cgroupTree) group(memory int64, tasks int) (*procGroup, error) {
	dir := filepath.Join(t.dir, fmt.Sprintf("run-%d-%d", os.Getpid(), t.next.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	g := &procGroup{dir: dir}
	settings := []struct{ file, value string }{
		{"memory.max", strconv.FormatInt(memory, 10)},
		{"memory.swap.max", "0"},
		{"memory.oom.group", "1"},
		{"pids.max", strconv.Itoa(tasks)},
	}
	for _, s := range settings {
		if err := os.WriteFile(filepath.Join(dir, s.file), []byte(s.value), 0); err != nil {
			if s.file == "memory.swap.max" && errors.Is(err, os.ErrNotExist) {
				continue // a kernel without swap accounting has no swap to limit
			}
			os.Remove(dir)
			return nil, fmt.Errorf("%s: %v", s.file, err)
		}
	}
	fd, err := os.Open(dir)
	if err != nil {
		os.Remove(dir)
		return nil, err
	}
	g.fd = fd
	return g, nil
}

// attach makes the process that attr starts begin its life in the group.
func (g *procGroup) attach(attr *syscall.SysProcAttr) {
	if g == nil {
		return
	}
	attr.UseCgroupFD = true
	attr.CgroupFD = int(g.fd.Fd())
}

// events reads one counter of a cgroup's events file.
func (g *procGroup) events(file, key string) int64 {
	data, err := os.ReadFile(filepath.Join(g.dir, file))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, key+" "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// runStarts marks the start of a run in the group (a session's group serves many runs).
func (g *procGroup) runStarts() {
	if g != nil {
		g.oomStart = g.events("memory.events", "oom_kill")
	}
}

// outOfMemory reports whether the kernel killed a process of the group at its memory limit since
// the current run started.
func (g *procGroup) outOfMemory() bool {
	return g != nil && g.events("memory.events", "oom_kill") > g.oomStart
}

// close kills whatever is left in the group and removes it.
func (g *procGroup) close() {
	if g == nil {
		return
	}
	g.fd.Close()
	g.kill()
	for i := 0; i < 200; i++ {
		if err := os.Remove(g.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		if i%20 == 19 {
			g.killEach()
		}
		time.Sleep(time.Millisecond)
	}
	// A group whose last process is still dying is removed once it is empty, in the background;
	// one the checker's exit leaves behind is removed by the next checker (removeStale).
	go func(dir string) {
		for i := 0; i < 100; i++ {
			time.Sleep(100 * time.Millisecond)
			if os.Remove(dir) == nil {
				return
			}
		}
	}(g.dir)
}

// kill kills every process in the group, wherever it is in the process tree.
func (g *procGroup) kill() {
	if g == nil {
		return
	}
	if err := os.WriteFile(filepath.Join(g.dir, "cgroup.kill"), []byte("1"), 0); err != nil {
		// Before Linux 5.14 there is no cgroup.kill: kill every process it lists.
		g.killEach()
	}
}

func (g *procGroup) killEach() {
	data, _ := os.ReadFile(filepath.Join(g.dir, "cgroup.procs"))
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// newGroup makes the group of one process tree when the system delegates cgroups, or returns nil.
// An error making it is a failure of the sandbox: the run is not started without the limit the
// tree was checked to hold.
func newGroup(memory int64, tasks int) (*procGroup, error) {
	t := cgroups()
	if t == nil {
		return nil, nil
	}
	return t.group(memory, tasks)
}
