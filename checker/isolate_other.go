//go:build !linux

package checker

import (
	"os/exec"
	"time"
)

// runSandbox is the portable baseline outside Linux: a scrubbed environment, a scratch work folder,
// the wall-time limit, the output cap, and on Unix a process group that is killed as a whole. There
// are no namespaces, no file-system or network restrictions and no resource limits.
type runSandbox struct{}

// sandboxCmd prepares cmd to run in the sandbox.
func (p *Program) sandboxCmd(cmd *exec.Cmd, dir string) (*runSandbox, error) {
	setProcessGroup(cmd)
	return &runSandbox{}, nil
}

func (s *runSandbox) started()                           {}
func (s *runSandbox) programBase() (time.Duration, bool) { return 0, true }

func (s *runSandbox) setupError() string { return "" }
func (s *runSandbox) close()             {}
func (s *runSandbox) kill()              {}
func (s *runSandbox) outOfMemory() bool  { return false }

// privateTmp reports whether runs get a /tmp and home of their own: never outside Linux.
func privateTmp() bool { return false }

// platformIsolation: only the baseline applies. A process group does not hold a child that calls
// setsid, and on Windows the program's children are not killed at all.
func platformIsolation() *Isolation { return newIsolation("basic") }

// sandboxBuild leaves a go build as it is outside Linux: offline, scrubbed and time-limited, but
// without namespaces, Landlock or memory limits.
func sandboxBuild(cmd *exec.Cmd, scratch string, lim Limits) (*runSandbox, error) {
	return &runSandbox{}, nil
}

// taskLimit is 0: nothing counts a run's threads here.
func (s *runSandbox) taskLimit(Limits) int { return 0 }
