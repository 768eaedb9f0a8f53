//go:build linux

package main

import (
	"encoding/binary"
	"fmt"
	"syscall"
	"testing"
)

// run interprets the filter p, as the kernel would, on the call nr of architecture arch with args,
// and returns the action.
func run(t *testing.T, p []sockFilter, arch, nr uint32, args ...uint64) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[offNr:], nr)
	binary.LittleEndian.PutUint32(data[offArch:], arch)
	for i, a := range args {
		binary.LittleEndian.PutUint64(data[argLo(i):], a)
	}
	var acc uint32
	for pc := 0; pc < len(p); pc++ {
		in := p[pc]
		switch in.code {
		case bpfLD | bpfW | bpfABS:
			acc = binary.LittleEndian.Uint32(data[in.k:])
		case bpfJMP | bpfJEQ | bpfK, bpfJMP | bpfJGE | bpfK, bpfJMP | bpfJSET | bpfK:
			var yes bool
			switch in.code {
			case bpfJMP | bpfJEQ | bpfK:
				yes = acc == in.k
			case bpfJMP | bpfJGE | bpfK:
				yes = acc >= in.k
			default:
				yes = acc&in.k != 0
			}
			if yes {
				pc += int(in.jt)
			} else {
				pc += int(in.jf)
			}
		case bpfRET | bpfK:
			return in.k
		default:
			t.Fatalf("instruction %d: unknown code %#x", pc, in.code)
		}
	}
	t.Fatalf("the filter ran off its end")
	return 0
}

// filterCase is a call and the action the filter must take on it.
type filterCase struct {
	name string
	nr   uint32
	args []uint64
	want uint32
}

// TestFilter runs the filter of each architecture on the calls it must allow, refuse or answer
// with the program's death.
func TestFilter(t *testing.T) {
	const secret = 0x1234_5678_9abc_def0
	eperm := uint32(seccompRetErrno | uint32(syscall.EPERM))
	enosys := uint32(seccompRetErrno | uint32(syscall.ENOSYS))
	const allow, kill = seccompRetAllow, seccompRetKillProcess
	const goThread = 0x00000100 | 0x00000200 | 0x00000400 | 0x00000800 | 0x00040000 | cloneThread // VM|FS|FILES|SIGHAND|SYSVSEM|THREAD
	const vforkExec = 0x00004000 | 0x00000100 | 0x00001000 | uint64(syscall.SIGCHLD)              // os/exec: VFORK|VM|PIDFD|SIGCHLD
	for name, tb := range tables {
		p := filterProgram(tb, secret, 0)
		if len(p) > 4096 {
			t.Fatalf("%s: %d instructions", name, len(p))
		}
		tests := []filterCase{
			{"a Go thread", tb.clone, []uint64{goThread}, allow},
			{"os/exec's child", tb.clone, []uint64{vforkExec}, kill},
			{"a fork by clone", tb.clone, []uint64{uint64(syscall.SIGCHLD)}, kill},
			{"the init's fork of the program", tb.clone, []uint64{uint64(syscall.SIGCHLD), 0, 0, 0, 0, secret}, allow},
			{"the init's vfork of the program", tb.clone, []uint64{vforkFlags | uint64(syscall.SIGCHLD), 0, 0, 0, 0, secret}, allow},
			{"a fork with the secret elsewhere", tb.clone, []uint64{uint64(syscall.SIGCHLD), 0, 0, secret, secret}, kill},
			{"a fork with the low half of the secret", tb.clone, []uint64{uint64(syscall.SIGCHLD), 0, 0, 0, 0, secret & 0xffffffff}, kill},
			{"a fork with the high half of the secret", tb.clone, []uint64{uint64(syscall.SIGCHLD), 0, 0, 0, 0, secret &^ 0xffffffff}, kill},
			{"os/exec's child with the secret", tb.clone, []uint64{vforkExec, 0, 0, 0, 0, secret}, allow},
			{"a thread in a new namespace with the secret", tb.clone, []uint64{goThread | 0x10000000, 0, 0, 0, 0, secret}, eperm},
			{"os.FindProcess's probe", tb.clone, []uint64{0x00004000 | 0x00000100 | 0x00001000}, eperm},
			{"a thread in a new namespace", tb.clone, []uint64{goThread | 0x10000000}, eperm},
			{"a child in a new user namespace", tb.clone, []uint64{0x10000000 | uint64(syscall.SIGCHLD)}, eperm},
			{"clone3", tb.clone3, nil, enosys},
			{"the program's own execve", tb.execve, []uint64{0, 0, 0, secret}, allow},
			{"an execve", tb.execve, []uint64{0, 0, 0, 0}, kill},
			{"an execve with the low half of the secret", tb.execve, []uint64{0, 0, 0, secret & 0xffffffff}, kill},
			{"an execve with the high half of the secret", tb.execve, []uint64{0, 0, 0, secret &^ 0xffffffff}, kill},
			{"execveat", tb.execveat, []uint64{3, 0, 0, 0, 0x1000}, kill},
			{"a private mapping", tb.mmap, []uint64{0, 1 << 20, 3, 0x22}, allow},
			{"a shared anonymous mapping", tb.mmap, []uint64{0, 1 << 20, 3, 0x21}, eperm},
			{"a shared mapping, validated", tb.mmap, []uint64{0, 1 << 20, 3, 0x03}, eperm},
			{"a private stack mapping", tb.mmap, []uint64{0, 1 << 20, 3, 0x122}, eperm},
			{"a Go stack (MAP_STACK)", tb.mmap, []uint64{0, 1 << 20, 3, 0x20022}, allow},
			{"an AF_UNIX socket", tb.socket, []uint64{afUnix, 1}, eperm},
			{"an AF_INET socket", tb.socket, []uint64{2, 2}, eperm},
			{"an AF_UNIX pair", tb.socketpair, []uint64{afUnix, 1}, allow},
			{"an AF_INET6 pair", tb.socketpair, []uint64{10, 1}, eperm},
			{"SO_SNDBUF", tb.setsockopt, []uint64{3, solSocket, 7}, eperm},
			{"SO_RCVBUF", tb.setsockopt, []uint64{3, solSocket, 8}, eperm},
			{"SO_SNDBUFFORCE", tb.setsockopt, []uint64{3, solSocket, 32}, eperm},
			{"SO_RCVBUFFORCE", tb.setsockopt, []uint64{3, solSocket, 33}, eperm},
			{"SO_REUSEADDR", tb.setsockopt, []uint64{3, solSocket, 2}, allow},
			{"TCP_NODELAY", tb.setsockopt, []uint64{3, 6, 1}, allow},
			{"F_SETPIPE_SZ", tb.fcntl, []uint64{3, fSetPipeSz, 1 << 20}, eperm},
			{"F_SETFL", tb.fcntl, []uint64{3, 4, 0x800}, allow},
			// In a PID namespace of its own a run can name no process outside it.
			{"kill(-1) in a PID namespace", tb.kill, []uint64{0xffffffff, 9}, allow},
			{"F_SETOWN in a PID namespace", tb.fcntl, []uint64{3, fSetOwn, 7}, allow},
		}
		tests = append(tests, rlimitCases(tb)...)
		if tb.fork != 0 {
			tests = append(tests, filterCase{"fork", tb.fork, nil, kill}, filterCase{"vfork", tb.vfork, nil, kill})
		}
		for _, nr := range tb.denied {
			tests = append(tests, filterCase{fmt.Sprint("denied ", nr), nr, nil, eperm})
		}
		for _, tt := range tests {
			if got := run(t, p, tb.arch, tt.nr, tt.args...); got != tt.want {
				t.Errorf("%s: %s: %#x, want %#x", name, tt.name, got, tt.want)
			}
		}
		if got := run(t, p, tb.arch^1, tb.clone, goThread); got != enosys {
			t.Errorf("%s: another ABI: %#x, want ENOSYS", name, got)
		}
		if got := run(t, p, tb.arch, 1 /* write on amd64, not refused on arm64 either */); got != allow {
			t.Errorf("%s: an ordinary call: %#x, want allow", name, got)
		}
	}
}

// TestFilterSignals runs the filter of a run without a PID namespace of its own (process ID 4242):
// it may signal itself, its process group and its threads, and no other process.
func TestFilterSignals(t *testing.T) {
	const secret, self = 0x1234_5678_9abc_def0, 4242
	eperm := uint32(seccompRetErrno | uint32(syscall.EPERM))
	const allow = seccompRetAllow
	minus := func(pid int64) uint64 { return uint64(pid) } // a negative pid_t as the register holds it
	for name, tb := range tables {
		p := filterProgram(tb, secret, self)
		tests := []filterCase{
			{"kill(self)", tb.kill, []uint64{self, 9}, allow},
			{"kill(0): its process group", tb.kill, []uint64{0, 15}, allow},
			{"kill(-self): its process group", tb.kill, []uint64{minus(-self), 15}, allow},
			{"kill(-1): every process of the user", tb.kill, []uint64{minus(-1), 9}, eperm},
			{"kill(parent)", tb.kill, []uint64{4241, 0}, eperm},
			{"kill(-parent's group)", tb.kill, []uint64{minus(-4241), 9}, eperm},
			{"kill(1)", tb.kill, []uint64{1, 9}, eperm},
			{"tgkill(self, a thread): the Go runtime's preemption", tb.tgkill, []uint64{self, 4250, 23}, allow},
			{"tgkill(another process)", tb.tgkill, []uint64{4241, 4241, 9}, eperm},
			{"rt_sigqueueinfo(self)", tb.sigqueueinfo, []uint64{self, 10, 0}, allow},
			{"rt_sigqueueinfo(another process)", tb.sigqueueinfo, []uint64{4241, 9, 0}, eperm},
			{"rt_tgsigqueueinfo(self)", tb.tgsigqueueinfo, []uint64{self, self, 10, 0}, allow},
			{"rt_tgsigqueueinfo(another process)", tb.tgsigqueueinfo, []uint64{4241, 4241, 9, 0}, eperm},
			{"tkill", tb.tkill, []uint64{4241, 9}, eperm},
			{"pidfd_send_signal", tb.pidfdSend, []uint64{3, 9, 0, 0}, eperm},
			{"F_SETOWN", tb.fcntl, []uint64{3, fSetOwn, 4241}, eperm},
			{"F_SETOWN_EX", tb.fcntl, []uint64{3, fSetOwnEx, 0}, eperm},
			{"F_SETPIPE_SZ", tb.fcntl, []uint64{3, fSetPipeSz, 1 << 20}, eperm},
			{"F_SETFL", tb.fcntl, []uint64{3, 4, 0x800}, allow},
			{"F_GETOWN", tb.fcntl, []uint64{3, 9}, allow},
			{"FIOSETOWN", tb.ioctl, []uint64{3, fioSetOwn, 0}, eperm},
			{"SIOCSPGRP", tb.ioctl, []uint64{3, siocSPgrp, 0}, eperm},
			{"TCGETS", tb.ioctl, []uint64{1, 0x5401, 0}, allow},
			{"FIONBIO", tb.ioctl, []uint64{3, 0x5421, 0}, allow},
			// The rest of the filter is the same.
			{"a fork by clone", tb.clone, []uint64{uint64(syscall.SIGCHLD)}, seccompRetKillProcess},
			{"a shared anonymous mapping", tb.mmap, []uint64{0, 1 << 20, 3, 0x21}, eperm},
		}
		tests = append(tests, rlimitCases(tb)...)
		for _, tt := range tests {
			if got := run(t, p, tb.arch, tt.nr, tt.args...); got != tt.want {
				t.Errorf("%s: %s: %#x, want %#x", name, tt.name, got, tt.want)
			}
		}
	}
}

// rlimitCases are the filter's rules on resource limits, the same with a PID namespace or without:
// RLIMIT_CORE stays 1 (at 0 a core_pattern that pipes still starts its helper as root), read as
// often as the program likes; other limits are the program's to set within their hard limits.
func rlimitCases(tb syscallTable) []filterCase {
	eperm := uint32(seccompRetErrno | uint32(syscall.EPERM))
	const allow = seccompRetAllow
	return []filterCase{
		{"setrlimit of RLIMIT_CORE", tb.setrlimit, []uint64{rlimitCore, 0xc000}, eperm},
		{"setrlimit of RLIMIT_NOFILE", tb.setrlimit, []uint64{7, 0xc000}, allow},
		{"prlimit64 setting RLIMIT_CORE", tb.prlimit64, []uint64{0, rlimitCore, 0xc000, 0}, eperm},
		{"prlimit64 setting RLIMIT_CORE, high address", tb.prlimit64, []uint64{0, rlimitCore, 0xc0_0000_0000, 0}, eperm},
		{"prlimit64 reading RLIMIT_CORE", tb.prlimit64, []uint64{0, rlimitCore, 0, 0xc000}, allow},
		{"prlimit64 setting RLIMIT_NOFILE (the os package's init)", tb.prlimit64, []uint64{0, 7, 0xc000, 0xd000}, allow},
	}
}
