//go:build !linux

package checker

import "time"

// canWatchBuildCPU says that the CPU time of a running go command's process tree can be read while
// it runs. Not here: a build is stopped at a wall-clock limit of three times its CPU limit (see
// buildWall).
const canWatchBuildCPU = false

func treeCPU(pid int) (time.Duration, bool) { return 0, false }
