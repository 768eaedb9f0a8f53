//go:build !linux

package checker

import (
	"os"
	"time"
)

// canWatchCPU says that a running program's CPU time can be read while it runs. Not here: a run is
// stopped at a wall-clock limit of three times its CPU limit, and judged by the CPU time the system
// reports once it has ended (ProcessState's user and system time).
const canWatchCPU = false

func processCPU(pid int) (time.Duration, bool) { return 0, false }

func processThreads(int) int { return 0 }

func runnableTime(int, []string, []string) (time.Duration, bool, bool, bool) {
	return 0, false, false, false
}

func pipeName(*os.File) string { return "" }

func pipeHolds(*os.File) bool { return false }
