package checker

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// canWatchBuildCPU says that the CPU time of a running go command's whole process tree can be read
// while it runs (treeCPU).
const canWatchBuildCPU = true

// clockTick is the unit of the times in /proc/PID/stat: USER_HZ, 100 on every Linux the Go
// toolchain runs on.
const clockTick = 10 * time.Millisecond

// treeCPU is the CPU time used so far by the process pid and every process below it: for each, its
// own user and system time and that of the children it has already waited for (/proc/PID/stat's
// utime, stime, cutime and cstime). A go build's processes (the go command, the compiler, the
// linker, the assembler) are the toolchain's, which wait for every child they start, so nothing of
// the build escapes the sum. The tree is walked down from pid through each thread's children
// (/proc/PID/task/TID/children), a few files a reading however many processes the machine runs;
// where the kernel has no such files (CONFIG_PROC_CHILDREN), it is found from every process's
// parent in /proc (treeByScan). A process's own line is read before its children's, so a child
// that ends between the two is missed once (it is in the parent's cutime at the next reading), never
// counted twice. ok is false when pid's own entry cannot be read.
func treeCPU(pid int) (cpu time.Duration, ok bool) {
	if !childrenFiles() {
		return treeByScan(pid)
	}
	_, ticks, ok := statOf(pid)
	if !ok {
		return 0, false
	}
	ticks += sumTree(pid, childrenOf, func(c int) (int64, bool) {
		_, t, ok := statOf(c)
		return t, ok
	})
	return time.Duration(ticks) * clockTick, true
}

// sumTree adds up the ticks of every process below pid, each once, found through kids; a process
// whose ticks cannot be read (gone since) is left out with what is below it.
func sumTree(pid int, kids func(int) []int, ticks func(int) (int64, bool)) int64 {
	var sum int64
	seen := map[int]bool{pid: true}
	stack := kids(pid)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		if t, ok := ticks(c); ok {
			sum += t
			stack = append(stack, kids(c)...)
		}
	}
	return sum
}

// childrenFiles says whether this kernel has /proc/PID/task/TID/children, read on this process.
var childrenFiles = sync.OnceValue(func() bool {
	pid := strconv.Itoa(os.Getpid())
	_, err := os.Stat("/proc/" + pid + "/task/" + pid + "/children")
	return err == nil
})

// childrenOf is the children of every thread of pid (none once it is gone).
func childrenOf(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var kids []int
	for _, t := range tasks {
		data, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids
}

// treeByScan is treeCPU from every process's parent in /proc, for kernels without children files.
// /proc lists processes by PID, so a parent is mostly read before its children: a child that ends
// between the two readings is then missed once, seldom counted twice.
func treeByScan(pid int) (cpu time.Duration, ok bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	type proc struct {
		ppid  int
		ticks int64
	}
	procs := map[int]proc{}
	kids := map[int][]int{}
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, ticks, ok := statOf(n)
		if !ok {
			continue
		}
		procs[n] = proc{ppid, ticks}
		kids[ppid] = append(kids[ppid], n)
	}
	root, ok := procs[pid]
	if !ok {
		return 0, false
	}
	sum := root.ticks + sumTree(pid, func(p int) []int { return append([]int(nil), kids[p]...) }, func(c int) (int64, bool) {
		p, ok := procs[c]
		return p.ticks, ok
	})
	return time.Duration(sum) * clockTick, true
}

// statOf is the parent and utime+stime+cutime+cstime (in clock ticks) of pid.
func statOf(pid int) (ppid int, ticks int64, ok bool) {
	f := statFields(pid)
	// f[0] is field 3 (state), f[1] the parent; utime..cstime are fields 14..17.
	if len(f) < 15 {
		return 0, 0, false
	}
	var err error
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return 0, 0, false
	}
	for _, s := range f[11:15] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		ticks += n
	}
	return ppid, ticks, true
}
