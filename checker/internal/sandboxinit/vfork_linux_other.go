//go:build linux && !amd64 && !arm64

package main

import "syscall"

// vforkFlags: a plain fork where there is no cloneVfork in assembly (the seccomp filter, which
// needs the secret's clone, exists only for amd64 and arm64: elsewhere forkChild is not used).
const vforkFlags = 0

//go:nosplit
func cloneVfork(flags, secret uintptr) (pid, errno uintptr) {
	r1, _, e := syscall.RawSyscall6(syscall.SYS_CLONE, flags, 0, 0, 0, 0, secret)
	return r1, uintptr(e)
}
