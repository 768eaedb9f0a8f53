package waits

import (
	"testing"
	"time"
)

// Readings of /proc/PID/task/TID/syscall captured from real Go programs (Go 1.26, amd64, Linux 6)
// stopped while idle, and from the calls a program of its own threads may sit in.
var (
	sysmonFutex = "202 0x56ff40 0x80 0x0 0x3812badefea0 0x0 0x0 0x3812badefe68 0x480fe3"
	idleM       = "202 0x3812badfc960 0x80 0x0 0x0 0x0 0x0 0x3812bae1fe38 0x480fe3"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name  string
		arch  string
		lines []string
		want  string
	}{
		{"time.Sleep of a hundred years: epoll_pwait of 1e9 ms", "amd64", []string{
			"281 0x5 0x7fffe824b7ec 0x80 0x3b9aca00 0x0 0x0 0x7fffe824b758 0x40816e", sysmonFutex, idleM, idleM}, Slept},
		{"time.Sleep of an hour", "amd64", []string{
			"281 0x5 0x7ffcc4275e1c 0x80 0x36ee7f 0x0 0x0 0x7ffcc4275d88 0x40816e", sysmonFutex, idleM, idleM}, Slept},
		{"a ticker read in a loop", "amd64", []string{
			"202 0x56f858 0x80 0x0 0x0 0x0 0x0 0x7fff8ff99c00 0x480fe3", sysmonFutex, idleM,
			"281 0x5 0x1f6befaad6fc 0x80 0x79d 0x0 0x0 0x1f6befaad668 0x40816e"}, Slept},
		{"select on a channel or time.After", "amd64", []string{
			"202 0x56f858 0x80 0x0 0x0 0x0 0x0 0x7ffe6fdfe460 0x480fe3", sysmonFutex, idleM,
			"281 0x5 0x19155bcb16fc 0x80 0x36ee7f 0x0 0x0 0x19155bcb1668 0x40816e"}, Slept},
		{"the sleeper caught with sysmon napping", "amd64", []string{
			"281 0x5 0x7fffe824b7ec 0x80 0x3b9aca00 0x0 0x0 0x7fffe824b758 0x40816e",
			"35 0x7ffd5d3a9f30 0x0 0x0 0x0 0x0 0x0 0x7ffd5d3a9f20 0x46e0a3", idleM}, Slept},
		{"open of a FIFO with no writer", "amd64", []string{
			"257 0xffffffffffffff9c 0x110a13486030 0x80000 0x0 0x0 0x0 0x110a1348ecc8 0x40816e", sysmonFutex, idleM, idleM}, Waited},
		{"read of a FIFO through the netpoller: epoll_pwait of -1", "amd64", []string{
			"281 0x6 0x7ffdf0170f7c 0x80 0xffffffffffffffff 0x0 0x0 0x7ffdf0170ee8 0x40816e", sysmonFutex, idleM, idleM}, Waited},
		{"a channel nobody sends on (a ticker left unread)", "amd64", []string{
			"202 0x570c58 0x80 0x0 0x0 0x0 0x0 0x7fff9e5c80d8 0x482443",
			"202 0x571340 0x80 0x0 0xce12279fea0 0x0 0x0 0xce12279fe68 0x482443",
			"202 0xce1227b4960 0x80 0x0 0x0 0x0 0x0 0xce1227cfc90 0x482443",
			"202 0x58fea0 0x80 0x0 0x0 0x0 0x0 0xce1227acee0 0x482443"}, Waited},
		{"a mutex locked twice, sysmon napping", "amd64", []string{
			"202 0x570c58 0x80 0x0 0x0 0x0 0x0 0x7ffe1f406418 0x482443",
			"35 0x7ffd5d3a9f30 0x0 0x0 0x0 0x0 0x0 0x7ffd5d3a9f20 0x46e0a3", idleM}, Waited},
		{"a sleep and a blocked read: it wakes by itself", "amd64", []string{
			"0 0x0 0xc000100000 0x1 0x0 0x0 0x0 0x7ffd 0x4", "281 0x5 0x7ff 0x80 0x3e8 0x0 0x0 0x7ff 0x4"}, Slept},
		{"one thread in clock_nanosleep", "amd64", []string{"230 0x1 0x0 0x7ffd 0x7ffd 0x0 0x0 0x7ffd 0x4"}, Slept},
		{"poll with no timeout", "amd64", []string{"7 0x7ffd 0x1 0xffffffff 0x0 0x0 0x0 0x7ffd 0x4"}, Waited},
		{"ppoll with a timeout", "amd64", []string{"271 0x7ffd 0x1 0x7ffe 0x0 0x8 0x0 0x7ffd 0x4"}, Slept},
		{"pselect6 with none", "amd64", []string{"270 0x1 0x7ffd 0x0 0x0 0x0 0x0 0x7ffd 0x4"}, Waited},
		{"a futex wake is not a wait", "amd64", []string{"202 0x56ff40 0x81 0x1 0x0 0x0 0x0 0x7ffd 0x4"}, ""},
		{"arm64: epoll_pwait with a timeout", "arm64", []string{
			"22 0x4 0xffff 0x80 0x3e8 0x0 0x0 0xffff 0x4", "98 0x1 0x80 0x0 0xffff 0x0 0x0 0xffff 0x4"}, Slept},
		{"arm64: futexes, one timed", "arm64", []string{
			"98 0x1 0x80 0x0 0x0 0x0 0x0 0xffff 0x4", "98 0x1 0x80 0x0 0xffff 0x0 0x0 0xffff 0x4"}, Waited},
		{"running threads", "amd64", []string{"running", "-1 0x7ffd 0x4"}, ""},
		{"nothing read", "amd64", nil, ""},
		{"an architecture not known", "mips", []string{"4000 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0"}, ""},
		{"garbage", "amd64", []string{"x y z a b c d e f"}, ""},
	} {
		if got := Classify(tc.arch, tc.lines); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestStretches checks how a run's idle and own time are added up from readings of its threads: a
// run a busy machine keeps waiting for a CPU has neither, however long it waits; a sleeper has both;
// a run in a disk wait has its own time but no idle time.
func TestStretches(t *testing.T) {
	const ms = time.Millisecond
	type reading struct {
		at, run      time.Duration
		busy, queued bool
	}
	tests := []struct {
		name      string
		readings  []reading
		idle, own time.Duration
	}{
		{"waiting for a CPU throughout, seconds",
			[]reading{{50 * ms, 5 * ms, true, true}, {1000 * ms, 10 * ms, true, true}, {5000 * ms, 15 * ms, true, true}}, 0, 0},
		{"runnable at the readings, its wait accounted only later",
			[]reading{{50 * ms, 0, true, true}, {100 * ms, 0, true, true}, {150 * ms, 150 * ms, true, true}}, 0, 0},
		{"sleeping between readings",
			[]reading{{50 * ms, 10 * ms, false, false}, {100 * ms, 10 * ms, false, false}, {150 * ms, 10 * ms, false, false}}, 140 * ms, 150 * ms},
		{"in a disk wait",
			[]reading{{50 * ms, 10 * ms, true, false}, {100 * ms, 10 * ms, true, false}, {150 * ms, 12 * ms, true, false}}, 0, 150 * ms},
		{"asleep, then runnable: the stretch that ends runnable is not counted",
			[]reading{{50 * ms, 0, false, false}, {100 * ms, 0, false, false}, {150 * ms, 0, true, true}}, 100 * ms, 100 * ms},
		{"neither runnable at the readings nor idle between them: its schedstat covers the stretch",
			[]reading{{50 * ms, 48 * ms, false, false}, {100 * ms, 97 * ms, false, false}}, 3 * ms, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stretches
			for _, r := range tt.readings {
				s.Add(r.at, r.run, r.busy, r.queued, false)
			}
			if s.Idle != tt.idle || s.Own != tt.own {
				t.Errorf("idle %v, own %v; want idle %v, own %v", s.Idle, s.Own, tt.idle, tt.own)
			}
		})
	}
}

func TestOnStdio(t *testing.T) {
	links := map[int64]string{0: "pipe:[10]", 1: "pipe:[11]", 2: "pipe:[12]", 5: "pipe:[11]", 6: "pipe:[10]",
		7: "pipe:[99]", 8: "socket:[5]"}
	link := func(fd int64) string { return links[fd] }
	in, out := []string{"pipe:[10]"}, []string{"pipe:[11]", "pipe:[12]"}
	tests := []struct {
		name, arch, line string
		fed              bool // the checker still feeds stdin
		want             bool
	}{
		{"a write to stderr, the run's pipe", "amd64", "1 0x2 0xc000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", false, true},
		{"a write to stdout", "amd64", "1 0x1 0xc000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", false, true},
		{"a writev to stdout", "amd64", "20 0x1 0xc000100000 0x2 0x0 0x0 0x0 0x7ffc 0x4a", false, true},
		{"a write to stdout dup'ed onto fd 5", "amd64", "1 0x5 0xc000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", false, true},
		{"a read of stdin the checker feeds", "amd64", "0 0x0 0xc000100000 0x200 0x0 0x0 0x0 0x7ffc 0x4a", true, true},
		{"a read of stdin fed whole and closed", "amd64", "0 0x0 0xc000100000 0x200 0x0 0x0 0x0 0x7ffc 0x4a", false, false},
		{"a read of stdout reopened for reading", "amd64", "0 0x1 0xc000100000 0x200 0x0 0x0 0x0 0x7ffc 0x4a", true, false},
		{"a read of stdout reopened onto fd 5", "amd64", "0 0x5 0xc000100000 0x200 0x0 0x0 0x0 0x7ffc 0x4a", true, false},
		{"a write to stdin reopened for writing", "amd64", "1 0x6 0xc000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", true, false},
		{"a write to a pipe of the program's own", "amd64", "1 0x7 0xc000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", true, false},
		{"a read of a socket", "amd64", "0 0x8 0xc000100000 0x200 0x0 0x0 0x0 0x7ffc 0x4a", true, false},
		{"a futex wait", "amd64", "202 0xc000 0x80 0x0 0x0 0x0 0x0 0x7ffc 0x4a", true, false},
		{"arm64 write to stderr", "arm64", "64 0x2 0x4000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", false, true},
		{"arm64 read of stdin fed", "arm64", "63 0x0 0x4000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", true, true},
		{"arm64 read of stdout", "arm64", "63 0x1 0x4000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", true, false},
		{"arm64's 1 is not write", "arm64", "1 0x2 0x4000100000 0x10000 0x0 0x0 0x0 0x7ffc 0x4a", false, false},
		{"running", "amd64", "running", true, false},
		{"not in a call", "amd64", "-1 0x7ffc 0x4a", true, false},
		{"an unknown architecture", "mips", "1 0x2 0x0 0x0 0x0 0x0 0x0 0x0 0x0", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fed := in
			if !tt.fed {
				fed = nil
			}
			if got := onStdio(tt.arch, tt.line, link, fed, out); got != tt.want {
				t.Errorf("onStdio(%q) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
}
