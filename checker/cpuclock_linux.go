package checker

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/workbook-course/workbook/checker/internal/waits"
)

// canWatchCPU says that a running program's CPU time can be read while it runs (processCPU), so a
// run is stopped at its CPU limit, not at a wall-clock stand-in for it.
const canWatchCPU = true

// processCPU is the CPU time so far of the process pid, all its threads together: the kernel's
// per-process CPU clock (MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)), which needs no permission on
// the process and counts nanoseconds. ok is false once the process is gone.
func processCPU(pid int) (cpu time.Duration, ok bool) {
	var ts unix.Timespec
	clock := int32(^pid)<<3 | 2
	if _, _, e := unix.RawSyscall(unix.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// processThreads is how many threads the process pid has (num_threads, field 20 of
// /proc/PID/stat), or 0 when that cannot be read.
func processThreads(pid int) int {
	f := statFields(pid)
	if len(f) < 18 {
		return 0
	}
	k, _ := strconv.Atoi(f[17])
	return k
}

// statFields are the fields of /proc/PID/stat after the command's name (f[0] is field 3, the
// state), nil when it cannot be read. The name, in parentheses, may hold spaces and parentheses:
// the fields start after the last ')'.
func statFields(pid int) []string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(data[i+1:]))
}

// runnableTime is how long the threads of the process pid have been on a CPU or waiting for one
// (the first two fields of /proc/PID/task/TID/schedstat, added up), whether one of them is running
// or runnable now (queued), and whether one is that or in a disk wait (busy, notIdle), or asleep
// reading in or writing out, the run's own stdio pipes while they wait for the checker (see
// waits.OnStdio, which the sandbox init judges by too): a checker that a busy machine keeps from
// draining the output does not make the program idle. Both are also true once the process has
// exited (a zombie): the time until it is reaped is not the program's.
func runnableTime(pid int, in, out []string) (sum time.Duration, busy, queued, ok bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, false, false, false
	}
	if st := taskState("/proc/" + strconv.Itoa(pid) + "/stat"); st == 'Z' || st == 'X' {
		busy, queued = true, true
	}
	var asleep []string // threads asleep (S), which may be so on the run's pipes
	for _, t := range tasks {
		// The state first, then the time: a thread that wakes, waits for a CPU, runs and sleeps
		// again between the two readings has that time in its schedstat, so a reader slowed by a
		// busy machine never counts it idle (the other way round, it would be).
		if !queued {
			st := taskState(dir + "/" + t.Name() + "/stat")
			busy = busy || notIdle(st)
			queued = st == 'R'
			if st == 'S' && !busy {
				asleep = append(asleep, dir+"/"+t.Name())
			}
		}
		data, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue
		}
		var on, waiting int64
		if _, err := fmt.Sscan(string(data), &on, &waiting); err == nil {
			sum += time.Duration(on + waiting)
			ok = true
		}
	}
	for _, d := range asleep {
		if busy {
			break
		}
		busy = waits.OnStdio(d, in, out)
	}
	return sum, busy, queued, ok
}

// notIdle says whether a thread in state st (of /proc/PID/task/TID/stat) is not idle: running or
// runnable (R), or in an uninterruptible wait (D), which is a page fault or a disk read a loaded or
// thrashing machine makes long, not a sleep the program chose. (The sandbox init judges the same.)
func notIdle(st byte) bool { return st == 'R' || st == 'D' }

// taskState is the state letter of the stat file at path (0 when it cannot be read): the field
// after the command's closing parenthesis. (The sandbox init, a program of its own, reads it the same
// way.)
func taskState(path string) byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	if i := bytes.LastIndexByte(data, ')'); i >= 0 && i+2 < len(data) {
		return data[i+2]
	}
	return 0
}

// pipeName is how /proc names the pipe f is an end of ("pipe:[INODE]", as the link of a process's
// descriptor reads), or "" when it is not a pipe or cannot be read.
func pipeName(f *os.File) string {
	sc, err := f.SyscallConn()
	if err != nil {
		return ""
	}
	var st unix.Stat_t
	serr := sc.Control(func(fd uintptr) { err = unix.Fstat(int(fd), &st) })
	if serr != nil || err != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return ""
	}
	return "pipe:[" + strconv.FormatUint(st.Ino, 10) + "]"
}

// pipeHolds reports whether the pipe f is an end of holds bytes not read yet (FIONREAD, which Linux calls TIOCINQ).
func pipeHolds(f *os.File) bool {
	sc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	n := 0
	sc.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
	return err == nil && n > 0
}
