package checker

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Isolation says which protections a run of a learner's program gets on this system. Applied and
// Missing hold protection codes (the Protect* constants); a presenter names the missing ones so that
// nobody believes in a protection the system could not give.
type Isolation struct {
	Level   string   `json:"level"` // namespaces, landlock or basic
	Applied []string `json:"applied"`
	Missing []string `json:"missing,omitempty"`
	// Cgroup is the cgroup v2 folder in which each run gets a cgroup of its own, where the system
	// delegates one to the checker (Linux only).
	Cgroup string `json:"cgroup,omitempty"`
	// CgroupFrom says who gave the checker Cgroup: empty when it was started in it (a delegated
	// service or scope), CgroupFromSystemdUser or CgroupFromSystemdSystem when it asked systemd for
	// a scope of its own (Linux only).
	CgroupFrom string `json:"cgroup_from,omitempty"`
	// TimeBy says what a run's time limit is judged by: "cpu" where the program's CPU time is read
	// while it runs (Linux), "wall" where the wall clock stops it and its CPU time, reported once it
	// has ended, judges it (macOS, Windows).
	TimeBy string `json:"time_by"`
}

// ScopeEnv is the environment variable that turns off asking systemd for a scope: 0, off, no or
// false.
const ScopeEnv = "WORKBOOK_SYSTEMD_SCOPE"

// Where the checker got its cgroup from (cgroupTree.from, Isolation.CgroupFrom).
const (
	CgroupFromSystemdUser   = "systemd_user"   // a scope of the user's systemd manager
	CgroupFromSystemdSystem = "systemd_system" // a scope of the system's manager (the checker runs as root)
)

// Protection codes, in the order they are listed.
const (
	ProtectTime        = "time"         // the run is stopped at its wall-time limit
	ProtectOutput      = "output"       // the run is stopped at its output cap
	ProtectEnv         = "env"          // the environment is scrubbed
	ProtectProcessTree = "process_tree" // every process the run started dies with it, even after setsid
	ProtectNetwork     = "network"      // no network at all
	ProtectFiles       = "filesystem"   // reads and writes only in the work folder (and system files read-only)
	ProtectPrivateTmp  = "private_tmp"  // /tmp is the run's own and vanishes with it
	ProtectMemory      = "memory"       // a memory limit per process
	ProtectCPU         = "cpu"          // a CPU-time limit per process
	ProtectProcesses   = "processes"    // a limit on the processes and threads a run may start
	ProtectRunMemory   = "run_memory"   // a memory limit on all the processes of a run together
	ProtectRunDisk     = "run_disk"     // a limit on all the files a run writes together (tmpfs)
	ProtectSyscalls    = "syscalls"     // a seccomp filter: no CPU affinity, namespaces, io_uring, keys, memfd …
	// ProtectOneProcess: a run is one process (threads only: no fork, no exec after its own, no
	// shared memory), so its CPU clock and memory are the whole run's, with or without cgroups.
	ProtectOneProcess = "no_child_processes"
)

var allProtections = []string{ProtectTime, ProtectOutput, ProtectEnv, ProtectProcessTree, ProtectNetwork,
	ProtectFiles, ProtectPrivateTmp, ProtectMemory, ProtectCPU, ProtectProcesses, ProtectRunMemory,
	ProtectRunDisk, ProtectSyscalls, ProtectOneProcess}

// newIsolation lists every protection as applied or missing.
func newIsolation(level string, applied ...string) *Isolation {
	iso := &Isolation{Level: level, Applied: []string{}}
	has := map[string]bool{ProtectTime: true, ProtectOutput: true, ProtectEnv: true}
	for _, a := range applied {
		has[a] = true
	}
	for _, p := range allProtections {
		if has[p] {
			iso.Applied = append(iso.Applied, p)
		} else {
			iso.Missing = append(iso.Missing, p)
		}
	}
	return iso
}

// Has reports whether protection p applies.
func (iso *Isolation) Has(p string) bool {
	if iso == nil {
		return false
	}
	for _, a := range iso.Applied {
		if a == p {
			return true
		}
	}
	return false
}

// SandboxIsolation returns the protections a run gets on this system. On Linux the answer comes
// from trying the sandbox once (it is cached); elsewhere it is the portable baseline.
func SandboxIsolation() *Isolation {
	iso := *platformIsolation()
	iso.TimeBy = "wall"
	if canWatchCPU {
		iso.TimeBy = "cpu"
	}
	iso.Applied = append([]string{}, iso.Applied...)
	iso.Missing = append([]string{}, iso.Missing...)
	return &iso
}

// probeLog says why stronger sandboxes were refused on this system, for tests and debugging.
var probeLog []string

// Isolation returns the protections the program's runs get.
func (p *Program) Isolation() *Isolation { return SandboxIsolation() }

// Codes a RunOutput's Reason and a CaseResult's Message may carry, beside exit_zero, exit_nonzero and
// exit_code.
const (
	ReasonCPULimit     = "cpu_limit"     // stopped at its CPU-time limit (Status Timeout)
	ReasonBlocked      = "blocked"       // stopped at its idle limit (or the wall clock) using little CPU: it slept or waited, which one not known (Status Timeout)
	ReasonSlept        = "slept"         // as blocked, and its threads were blocked with a timeout: a sleep, a timer (Status Timeout)
	ReasonWaited       = "waited"        // as blocked, and its threads were blocked with none: a channel, a lock, a read (Status Timeout)
	ReasonBudget       = "budget"        // a case not run to its end: the cases before it used up the program's budget (Status NotRun)
	ReasonMemoryLimit  = "memory_limit"  // ran out of its memory limit (Status MemoryLimit)
	ReasonProcessLimit = "process_limit" // could not start another process or thread (Status Crash)
	ReasonProcess      = "process"       // tried to start another process, or to exec a program (Status Crash)
	ReasonNetwork      = "network"       // failed trying to use the network, which a run does not have
	ReasonFileAccess   = "file_access"   // failed touching a file outside its work folder
	ReasonSandbox      = "sandbox"       // the sandbox could not be set up (a fault of the tool)
)

// crashDump names a run stopped at the output cap by the Go runtime's own account of a fatal error
// at a limit: a program that cannot start another thread, or runs out of memory, with thousands of
// goroutines prints a traceback of each, and past the cap that was taken for endless output rather
// than the limit it met (threads, at the process limit of 128 with 6,000 goroutines).
func crashDump(out *RunOutput) {
	switch {
	case strings.HasPrefix(out.Stderr, "runtime: failed to create new OS thread"):
		out.Status, out.Reason = Crash, ReasonProcessLimit
	case strings.HasPrefix(out.Stderr, "fatal error: runtime: out of memory"):
		out.Status, out.Reason = MemoryLimit, ReasonMemoryLimit
	}
}

// classify refines a finished run's Status and sets its Reason from how it ended and what it said
// on stderr. cpu is the CPU time the program's first process used and signal the signal that
// killed it ("" when none); killed says that the checker killed it (time or output limit).
func classify(out *RunOutput, lim Limits, cpu time.Duration, signal string, killed bool) {
	if killed {
		return
	}
	stderr := out.Stderr
	switch {
	// The seccomp filter kills a program with SIGSYS, and only for this (ProtectOneProcess).
	case signal == "SIGSYS":
		out.Status, out.Reason = Crash, ReasonProcess
	// The kernel's CPU clock and the usage wait4 reports differ by a tenth or more: a SIGKILL that
	// the checker did not send, after more than half the CPU time, is the CPU limit.
	case signal == "SIGKILL" && cpu >= lim.CPUTime/2, signal == "SIGXCPU":
		out.Status, out.Reason, out.Stopped = Timeout, ReasonCPULimit, true
	case out.ExitCode != 0 && (strings.Contains(stderr, "runtime: out of memory") ||
		strings.Contains(stderr, "fatal error: out of memory") ||
		strings.Contains(stderr, "cannot allocate memory")):
		out.Status, out.Reason = MemoryLimit, ReasonMemoryLimit
	case out.ExitCode != 0 && (strings.Contains(stderr, "failed to create new OS thread") ||
		strings.Contains(stderr, "resource temporarily unavailable")):
		out.Reason = ReasonProcessLimit
		out.Status = Crash
	case out.ExitCode != 0 && (strings.Contains(stderr, "network is unreachable") ||
		strings.Contains(stderr, "dial tcp") || strings.Contains(stderr, "dial udp") || strings.Contains(stderr, "dial unix") ||
		strings.Contains(stderr, "lookup ") && strings.Contains(stderr, "no such host")):
		out.Reason = ReasonNetwork
	case out.ExitCode != 0 && (strings.Contains(stderr, "permission denied") ||
		strings.Contains(stderr, "read-only file system") || strings.Contains(stderr, "operation not permitted")):
		out.Reason = ReasonFileAccess
	}
}

// buildReason names a known cause of a failed build from the compiler's log and the sources, or "".
func buildReason(srcCopy, log string) string {
	switch {
	case strings.Contains(log, "go.mod requires go >=") || strings.Contains(log, "requires go >=") ||
		strings.Contains(log, "toolchain not available") || strings.Contains(log, "GOTOOLCHAIN=local"):
		return "go_version"
	case strings.Contains(log, "GOPROXY=off") || strings.Contains(log, "module lookup disabled") ||
		strings.Contains(log, "no required module provides package") || strings.Contains(log, "missing go.sum entry"):
		return "module"
	case importsC(srcCopy):
		return "cgo"
	case strings.Contains(log, "file too large") || strings.Contains(log, "file size limit exceeded"):
		return "build_size"
	case strings.Contains(log, "out of memory") || strings.Contains(log, "cannot allocate memory"):
		return "build_memory"
	}
	return ""
}

// importsC reports whether a Go file in dir imports "C", which needs cgo and a C compiler.
func importsC(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(data)
		if strings.Contains(s, `import "C"`) || strings.Contains(s, "\t\"C\"\n") {
			return true
		}
	}
	return false
}
