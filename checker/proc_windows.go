//go:build windows

package checker

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing on Windows: a job object would be needed to kill a whole tree, and the
// program is killed on its own (children it starts may survive; see the package doc).
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the process.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := cmd.Process.Kill()
	if err == os.ErrProcessDone {
		return nil
	}
	return err
}

// killProcessTree kills the process; on Windows the processes it started may survive (see the
// package doc).
func killProcessTree(cmd *exec.Cmd) error { return killProcessGroup(cmd) }

// exitSignal is always "" on Windows, where processes do not die from signals.
func exitSignal(ps *os.ProcessState) string { return "" }

// platformEnv keeps the variables without which Windows programs and the go command cannot start.
func platformEnv() []string {
	var env []string
	for _, k := range []string{"SystemRoot", "SYSTEMROOT", "ComSpec", "PATHEXT", "LOCALAPPDATA", "APPDATA", "USERPROFILE", "TEMP", "TMP"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}
