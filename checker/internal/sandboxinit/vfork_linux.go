//go:build linux && (amd64 || arm64)

package main

import "syscall"

// vforkFlags are what forkChild's clone adds to SIGCHLD: the child shares the init's memory, and
// the init's thread waits until the child has exec'd the program or exited. So a run's fork
// neither copies the init's page tables nor makes every page the init writes afterwards fault
// once (copy on write), which cost as much as a third of the init's CPU time per run.
const vforkFlags = syscall.CLONE_VM | syscall.CLONE_VFORK

// cloneVfork is clone(flags, 0, 0, 0, 0, secret) (vfork_linux_*.s), written so that the child,
// which runs first on the same stack, cannot change where the parent returns to.
//
//go:noescape
func cloneVfork(flags, secret uintptr) (pid, errno uintptr)
