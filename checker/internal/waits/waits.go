// Package waits tells, from outside and at the moment a program is stopped for idling, whether it
// slept or waited: whether the system calls its threads are blocked in carry a timeout (a sleep, a
// timer, time.After: it would have woken by itself) or not (a channel nobody sends on, a lock, a
// read that never returns). Linux says it in /proc/PID/task/TID/syscall: the number of the call a
// thread is blocked in and its arguments.
//
// A Go program shows it thus (read on real programs, Go 1.26, amd64): with a timer pending
// (time.Sleep, even of a hundred years, a ticker read in a loop, a select with time.After), the
// runtime's idle thread blocks in epoll_pwait with a timeout of the time to the next timer (at most
// 1e9 ms); with no timer, it blocks there with no timeout (-1) when a file or a socket is waited on
// through the netpoller (a FIFO opened read-write), and otherwise every thread blocks in a futex
// with no timeout but the runtime's monitor thread (sysmon), whose futex always has one (at most a
// minute) or which naps in nanosleep. A thread blocked in another call (open of a FIFO with no
// writer, a read, wait4) has no timeout. So, in this order: a poll of any kind (epoll, poll,
// select) with a timeout is a sleep; else any wait without a timeout is a wait; else a futex with a
// timeout or a nanosleep (a program of one thread that sleeps) is a sleep; else nothing is known.
//
// Stretches adds up, from readings of a run's threads while it runs, how long it has idled and how
// much of its wall-clock time was its own: the checker's watcher and the sandbox init judge a run's
// time by the same rule.
package waits

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// What a stopped program was doing: Slept (blocked with a timeout) or Waited (with none); "" when
// it cannot be told.
const (
	Slept  = "slept"
	Waited = "waited"
)

// Read classifies the threads whose /proc folders (/proc/PID/task/TID) are dirs, on this machine's
// architecture: Slept, Waited or "" (a thread's syscall file unreadable is left out).
func Read(dirs []string) string {
	lines := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if data, err := os.ReadFile(d + "/syscall"); err == nil {
			lines = append(lines, string(data))
		}
	}
	return Classify(runtime.GOARCH, lines)
}

// ReadProcess is Read of every thread of the process pid.
func ReadProcess(pid int) string {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	dirs := make([]string, len(tasks))
	for i, t := range tasks {
		dirs[i] = dir + "/" + t.Name()
	}
	return Read(dirs)
}

// kind is how a thread is blocked.
type kind int

const (
	notBlocked kind = iota // running, not in a system call, or a call this package does not know
	timedPoll              // epoll, poll or select with a timeout
	untimed                // any wait with no timeout
	timedNap               // a futex wait with a timeout, nanosleep, clock_nanosleep
)

// Classify is Read of the contents of threads' syscall files (lines: "NR A0 A1 A2 A3 A4 A5 SP PC",
// "-1 SP PC" or "running") on the architecture arch (runtime.GOARCH).
func Classify(arch string, lines []string) string {
	calls, ok := syscalls[arch]
	if !ok {
		return ""
	}
	seen := map[kind]bool{}
	for _, l := range lines {
		seen[thread(calls, l)] = true
	}
	switch {
	case seen[timedPoll]:
		return Slept
	case seen[untimed]:
		return Waited
	case seen[timedNap]:
		return Slept
	}
	return ""
}

// call is a system call a blocked thread may sit in.
type call int

const (
	other call = iota
	futex
	epollWait // timeout in ms, argument 3
	epollPwait2
	poll  // timeout in ms, argument 2
	ppoll // timespec pointer, argument 2
	selectCall
	pselect6 // timeval/timespec pointer, argument 4
	nanosleep
)

// syscalls are the numbers of the calls that matter, by architecture.
var syscalls = map[string]map[int64]call{
	"amd64": {202: futex, 232: epollWait, 281: epollWait, 441: epollPwait2, 7: poll, 271: ppoll,
		23: selectCall, 270: pselect6, 35: nanosleep, 230: nanosleep},
	"arm64": {98: futex, 22: epollWait, 441: epollPwait2, 73: ppoll, 72: pselect6, 101: nanosleep,
		115: nanosleep},
	"riscv64": {98: futex, 22: epollWait, 441: epollPwait2, 73: ppoll, 72: pselect6, 101: nanosleep,
		115: nanosleep},
}

// thread is how the thread whose syscall file reads line is blocked.
func thread(calls map[int64]call, line string) kind {
	f := strings.Fields(line)
	if len(f) < 7 {
		return notBlocked // "running", or "-1 SP PC": not in a system call
	}
	nr, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return notBlocked
	}
	var arg [6]int64
	for i := range arg {
		v, err := strconv.ParseUint(strings.TrimPrefix(f[i+1], "0x"), 16, 64)
		if err != nil {
			return notBlocked
		}
		arg[i] = int64(v)
	}
	switch calls[nr] {
	case futex:
		switch arg[1] &^ (128 | 256) { // FUTEX_PRIVATE_FLAG, FUTEX_CLOCK_REALTIME
		case 0, 6, 9, 11, 13: // WAIT, LOCK_PI, WAIT_BITSET, WAIT_REQUEUE_PI, LOCK_PI2
			if arg[3] != 0 {
				return timedNap
			}
			return untimed
		}
		return notBlocked
	case epollWait:
		if int32(arg[3]) >= 0 {
			return timedPoll
		}
		return untimed
	case poll:
		if int32(arg[2]) >= 0 {
			return timedPoll
		}
		return untimed
	case epollPwait2, selectCall, pselect6, ppoll:
		i := 3
		if calls[nr] == ppoll {
			i = 2
		} else if calls[nr] != epollPwait2 {
			i = 4
		}
		if arg[i] != 0 {
			return timedPoll
		}
		return untimed
	case nanosleep:
		return timedNap
	}
	return untimed // blocked in another call: open, read, accept, wait4, pause…
}

// Stretches adds up a run's time between readings of its threads: Idle, the time neither on a CPU
// nor waiting for one (sleeping, waiting for a channel, a lock, a child), and Own, the time with no
// thread running or waiting for a CPU (idle, or in a disk wait). A thread's wait for a CPU enters
// its schedstat only once it gets one, so a stretch counts only if no thread was runnable at either
// end, and for Own also if the threads' time on a CPU or waiting for one does not cover it all: the
// time a busy machine keeps a program waiting for a CPU is never the program's.
type Stretches struct {
	Idle, Own    time.Duration
	elapsed, run time.Duration // the run's wall-clock time, and its threads' run time, at the last reading
	busy, queued bool          // a thread was running, runnable or in a disk wait; running or runnable
}

// Add records a reading at elapsed of the run's threads: run, their time on a CPU or waiting for one
// (schedstat); busy, whether one is running, runnable or in a disk wait; queued, whether one is
// running or runnable; gone, whether the program has exited (the time until it is reaped is not
// the program's).
func (s *Stretches) Add(elapsed, run time.Duration, busy, queued, gone bool) {
	step, ran := elapsed-s.elapsed, run-s.run
	if !busy && !s.busy && !gone {
		s.Idle += max(step-ran, 0)
	}
	if !queued && !s.queued && !gone && step-ran > 5*time.Millisecond {
		s.Own += step
	}
	s.elapsed, s.run, s.busy, s.queued = elapsed, run, busy, queued
}

// readCalls and writeCalls are the numbers of read and readv, and of write and writev, by
// architecture: the calls a program blocks in on its standard input, output or error.
var (
	readCalls = map[string][]int64{
		"amd64":   {0, 19},
		"arm64":   {63, 65},
		"riscv64": {63, 65},
	}
	writeCalls = map[string][]int64{
		"amd64":   {1, 20},
		"arm64":   {64, 66},
		"riscv64": {64, 66},
	}
)

// OnStdio reports whether the thread whose /proc folder is dir (/proc/PID/task/TID) is blocked
// reading one of in or writing one of out, pipes given as /proc shows a pipe ("pipe:[INODE]"): out
// are the run's own standard output and error, which the checker drains, and in its standard input
// while the checker still feeds it (none once it has written all of it and closed its end). Such a
// thread waits for the checker, which on a busy machine may itself wait for a CPU before it reads
// the next 64 KiB of a large output, so the time is not the program's idling.
//
// Only that way round: a read of the output pipes or a write to the input pipe is never the
// checker's to end (a program may open /proc/self/fd/1 for reading, or /proc/self/fd/0 for
// writing, and wait there for ever), and a pipe the program made itself (even moved onto
// descriptor 1 or 2) has another inode, so a program cannot hang on one unjudged.
func OnStdio(dir string, in, out []string) bool {
	if len(in) == 0 && len(out) == 0 {
		return false
	}
	data, err := os.ReadFile(dir + "/syscall")
	if err != nil {
		return false
	}
	return onStdio(runtime.GOARCH, string(data), func(fd int64) string {
		link, _ := os.Readlink(dir + "/fd/" + strconv.FormatInt(fd, 10))
		return link
	}, in, out)
}

// onStdio is OnStdio of a syscall file's line on arch, with link reading a descriptor's link.
func onStdio(arch, line string, link func(fd int64) string, in, out []string) bool {
	f := strings.Fields(line)
	if len(f) < 7 {
		return false
	}
	nr, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return false
	}
	var pipes []string
	switch {
	case slices.Contains(readCalls[arch], nr):
		pipes = in
	case slices.Contains(writeCalls[arch], nr):
		pipes = out
	default:
		return false
	}
	if len(pipes) == 0 {
		return false
	}
	fd, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 64)
	if err != nil || fd > 1<<20 {
		return false
	}
	return slices.Contains(pipes, link(int64(fd)))
}
