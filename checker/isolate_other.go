package checker

import "os/exec"

// isolate is the seam for OS-level isolation of a run (namespaces, Landlock, resource limits). The
// portable baseline is a scrubbed environment, a scratch working folder, a time limit, an output cap
// and a killed process group.
func isolate(cmd *exec.Cmd, scratch string) {}
