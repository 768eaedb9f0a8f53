package checker

import (
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
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
