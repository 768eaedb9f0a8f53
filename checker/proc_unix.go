//go:build unix

package checker

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in a process group of its own, so that everything it starts can
// be killed together.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killProcessGroup kills the command's whole process group. It is safe after Wait: it never signals
// a single process by a number that may have been reused.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if err == syscall.ESRCH {
		return nil
	}
	return err
}

// killProcessTree kills the command's process and its process group. In a PID namespace the
// process is the namespace's first process, and its death takes every other one with it, even those
// that left the group with setsid.
func killProcessTree(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := cmd.Process.Kill()
	if err == os.ErrProcessDone {
		err = nil
	}
	if gerr := killProcessGroup(cmd); err == nil {
		err = gerr
	}
	return err
}

// exitSignal names the signal that ended the process ("SIGKILL"), or "" when it exited by itself.
func exitSignal(ps *os.ProcessState) string {
	if ps == nil {
		return ""
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok {
		return ""
	}
	return signalName(ws)
}

// signalName names the signal that ended a process with wait status ws, or "".
func signalName(ws syscall.WaitStatus) string {
	if !ws.Signaled() {
		return ""
	}
	switch sig := ws.Signal(); sig {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGXCPU:
		return "SIGXCPU"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGSYS:
		return "SIGSYS"
	default:
		return sig.String()
	}
}

func platformEnv() []string { return nil }
