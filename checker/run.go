package checker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/workbook-course/workbook/checker/internal/waits"
)

// RunOutput is what one run of a program produced.
type RunOutput struct {
	Stdout   string
	Stderr   string
	ExitCode int           // -1 when the program was killed
	Status   Verdict       // Pass (it ran and exited by itself), Timeout, OutputLimit, MemoryLimit or Crash
	Reason   string        // why, when known: one of the Reason* codes, else ""
	Duration time.Duration // wall time
	CPU      time.Duration // the program's CPU time (with the children it waited for), where the system reports it
	// Idle is how long the run spent neither on a CPU nor waiting for one: sleeping or blocked,
	// told apart from waiting on a busy machine, where the system tells it (Linux); 0 elsewhere.
	Idle    time.Duration
	Blocked *Blocked // a virtual-time run's goroutine left blocked (ReasonDeadlock, ReasonLeak)
	// Stopped says that the run was stopped at one of its time limits (CPU or wall clock).
	Stopped bool
}

// runLimit is what one run may take: CPU, the program's CPU time, which decides whether it finished
// in time whatever the machine's load; Idle, the time it may spend with no thread on a CPU or
// waiting for one (sleeping, waiting for a channel, a lock, a child), where that can be read while
// it runs (canWatchCPU); Wall, the wall-clock backstop (where the CPU time cannot be watched while
// the program runs, the wall clock stops it at three times CPU, and the CPU time judges it
// afterwards).
type runLimit struct {
	CPU, Idle, Wall time.Duration
	// Tasks, when it is not 0, is how many threads the program's process may have, counted by
	// the watcher: where nothing else bounds a run's threads (no RLIMIT_NPROC of the run's own, no
	// cgroup), each one a stack and a task the kernel holds that no memory limit counts.
	Tasks int
}

// fullRun is the limit of a run under lim: its RunTime of CPU time, its IdleTime of idle time, its
// WallTime of wall clock.
func fullRun(lim Limits) runLimit {
	lim = lim.withDefaults()
	return runLimit{CPU: lim.RunTime, Idle: lim.IdleTime, Wall: lim.WallTime}
}

// shortRun is the limit of a run once its program's budget is spent (see Limits.Budget): a twentieth
// of RunTime of CPU time, from 100 to 250 ms, which is ample for the exercises' runs (10 to 25 ms
// each with the sandbox's start, in virtual time, so never asleep: four times that on a machine at a
// load of 30), as much idle time (at most IdleTime), and ten times that of wall clock.
func shortRun(lim Limits) runLimit {
	lim = lim.withDefaults()
	cpu := min(max(lim.RunTime/20, 100*time.Millisecond), 250*time.Millisecond, lim.RunTime)
	return runLimit{CPU: cpu, Idle: min(cpu, lim.IdleTime), Wall: 10 * cpu}
}

// wallDeadline is when the wall clock alone stops a run of limit rl: where the CPU time is watched,
// at its last stop (lastStop), the watcher stopping it at Idle of time neither on a CPU nor waiting
// for one and at four times Wall of its own time (see watchCPU); elsewhere at Wall or three times
// CPU, whichever comes first.
func (rl runLimit) wallDeadline() time.Duration {
	if !canWatchCPU {
		return min(rl.Wall, 3*rl.CPU)
	}
	return rl.lastStop()
}

// ownWall is how much of its own wall-clock time a run of limit rl may take where its threads can be
// read: time in which none of them was running or waiting for a CPU (sleeping, or in a disk wait),
// four times Wall. The time a busy machine keeps a program waiting for a CPU is not its own: it
// counts only towards lastStop.
func (rl runLimit) ownWall() time.Duration { return 4 * rl.Wall }

// lastStop is when the wall clock stops any run of limit rl whose threads can be read, whatever it
// was doing: far past its own time (ownWall), since a busy machine can keep an honest program that
// needs a few milliseconds of CPU waiting for one for seconds (at a load of 30 on two CPUs, 1.2 s for
// 20 ms); two minutes, or four times Wall if that is longer. A program cannot stretch it on its own
// account: the seccomp filter refuses it a lower priority or scheduling class.
func (rl runLimit) lastStop() time.Duration { return max(4*rl.Wall, 2*time.Minute) }

// judgeTime sets the status of a run from how its time ran out (stopped: "cpu", "blocked", "wall"
// or "" when it ended by itself; or "tasks", a run stopped at rl.Tasks, a crash at the process limit): a run stopped at its CPU limit, or one that ended by itself after
// using more CPU time than its limit, did not finish in time (cpu_limit); a run stopped after Idle
// of time spent neither on a CPU nor waiting for one slept or waited (blocked); a run the wall clock
// alone stopped is blocked if it used less than a tenth of that time on a CPU, and is judged as a
// CPU-bound one (cpu_limit) otherwise. But a run that the wall clock stopped at its last backstop
// (past three times Wall, where the CPU time is watched) after idling less than Idle was waiting for
// a CPU, not sleeping: a machine so busy that a spinning program gets less than a tenth of a CPU
// must not turn its endless loop into a sleeper, so it is cpu_limit.
func judgeTime(out *RunOutput, rl runLimit, stopped string) {
	switch stopped {
	case "cpu":
		out.Status, out.ExitCode, out.Reason, out.Stopped = Timeout, -1, ReasonCPULimit, true
		return
	case "blocked":
		out.Status, out.ExitCode, out.Reason, out.Stopped = Timeout, -1, ReasonBlocked, true
		return
	case "tasks":
		out.Status, out.ExitCode, out.Reason = Crash, -1, ReasonProcessLimit
		return
	}
	switch {
	case stopped == "wall":
		out.Status, out.ExitCode, out.Stopped = Timeout, -1, true
		starved := out.Duration >= 3*rl.Wall && out.Idle < rl.Idle
		if !starved && out.CPU < out.Duration/10 && out.CPU < rl.CPU {
			out.Reason = ReasonBlocked
		} else {
			out.Reason = ReasonCPULimit
		}
	case stopped == "" && out.Status == Pass && out.CPU > rl.CPU:
		// It ended by itself, its exit code is its own; but it took longer than its limit.
		out.Status, out.Reason, out.Stopped = Timeout, ReasonCPULimit, true
	}
}

// nameWait names what a run judged blocked was doing when it was stopped, where its threads could
// be read (wait, from package waits): it slept (ReasonSlept) or it waited (ReasonWaited); elsewhere
// it stays blocked, which says either.
func nameWait(out *RunOutput, wait string) {
	if out.Reason != ReasonBlocked {
		return
	}
	switch wait {
	case waits.Slept:
		out.Reason = ReasonSlept
	case waits.Waited:
		out.Reason = ReasonWaited
	}
}

// Run runs the built program once with args, in dir (the program's own scratch folder when dir is
// ""), under the program's limits and in the sandbox this system allows (see Isolation). Its
// environment is scrubbed; on timeout or when the output cap is reached everything it started is
// killed. Status is Crash when the program panicked or died from a signal, MemoryLimit when it ran
// out of its memory limit and Timeout when it hit its wall-time or CPU-time limit; a plain non-zero
// exit is left to the caller to judge (ExitCode), with Reason naming a likely cause when stderr shows
// one (the network, a file outside the work folder, the process limit).
func (p *Program) Run(ctx context.Context, dir string, args []string, stdin string) RunOutput {
	return p.run(ctx, dir, args, stdin, fullRun(p.limits))
}

// run is Run with a limit of its own; stderr names the program's files as the learner's folder does
// (cleanTrace). A run that failed for a reason outside the program (the sandbox) is made once more,
// and taints the program's executable: it is not kept in the cache.
func (p *Program) run(ctx context.Context, dir string, args []string, stdin string, rl runLimit) RunOutput {
	out := p.runRaw(ctx, dir, args, stdin, rl)
	if out.Reason == ReasonSandbox && ctx.Err() == nil {
		// A fault of the sandbox, not of the program (an init that died, a session that could not
		// be set up): the run is made once more, in a sandbox of its own, before anything counts.
		p.taint()
		out = p.runRaw(ctx, dir, args, stdin, rl)
	}
	if out.Reason == ReasonSandbox || ctx.Err() != nil {
		p.taint()
	}
	out.Stderr = cleanTrace(out.Stderr)
	if p.limits.Virtual {
		out.Blocked = virtualOutcome(&out)
	}
	return out
}

func (p *Program) runRaw(ctx context.Context, dir string, args []string, stdin string, rl runLimit) RunOutput {
	if err := p.runDirs(); err != nil {
		return sandboxFailure(err.Error())
	}
	if dir == "" {
		dir = filepath.Join(p.scratch, "run")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return sandboxFailure(err.Error())
		}
	}
	if out, ok := p.runInSession(ctx, dir, args, stdin, rl); ok {
		return out
	}
	rctx, cancel := context.WithTimeout(ctx, rl.wallDeadline())
	defer cancel()
	cmd := exec.CommandContext(rctx, p.Path, args...)
	cmd.Dir = dir
	cmd.Env = runEnv(p.scratch)
	capped := &capture{max: p.limits.OutputBytes, onFull: cancel}
	// Pipes of the checker's own, not exec's: the watcher knows them (see runStdio).
	stdio, err := newRunStdio(cmd, stdin)
	if err != nil {
		return sandboxFailure(err.Error())
	}
	defer stdio.close()
	sb, err := p.sandboxCmd(cmd, dir)
	if err != nil {
		return sandboxFailure(err.Error())
	}
	defer sb.close()
	rl.Tasks = sb.taskLimit(p.limits)
	cmd.Cancel = func() error { sb.kill(); return killProcessTree(cmd) }
	cmd.WaitDelay = 500 * time.Millisecond
	start := time.Now()
	err = cmd.Start()
	stdio.start(capped)
	sb.started()
	var watchStop atomic.Value // the limit the watcher stopped the run at
	var idle atomic.Int64      // the run's time neither on a CPU nor waiting for one
	var wait atomic.Value      // what its threads were blocked in when the watcher stopped it
	if err == nil {
		watched := make(chan struct{})
		var watching sync.WaitGroup
		if canWatchCPU {
			watching.Go(func() {
				watchCPU(cmd.Process.Pid, rl, sb.programBase, stdio.pipes, &watchStop, &idle, &wait, cancel, watched)
			})
		}
		err = cmd.Wait()
		close(watched)
		watching.Wait()
		// The output to its end, or as far as a child of the program that keeps it open lets it
		// in half a second once nothing is left to read (what exec's WaitDelay gave).
		stdio.finish(capped, 500*time.Millisecond)
	} else {
		err = fmt.Errorf("%w: %w", errStart, err)
	}
	out := RunOutput{Duration: time.Since(start), Status: Pass, Idle: time.Duration(idle.Load())}
	// Whatever the program left running in its group (and its cgroup, even after setsid) dies
	// with it, and the output ends there.
	killProcessGroup(cmd)
	sb.kill()
	stdio.close()
	capped.mu.Lock()
	out.Stdout, out.Stderr = capped.stdout.String(), capped.stderr.String()
	full := capped.full
	capped.mu.Unlock()
	if msg := sb.setupError(); msg != "" {
		out.Status, out.ExitCode, out.Reason = Crash, -1, ReasonSandbox
		out.Stderr += "sandbox: " + msg
		return out
	}
	stopped, _ := watchStop.Load().(string)
	if stopped == "" && rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		stopped = "wall"
	}
	timedOut := stopped != ""
	var ee *exec.ExitError
	switch {
	case full:
		out.Status, out.ExitCode = OutputLimit, -1
		crashDump(&out)
	case timedOut:
		out.Status, out.ExitCode = Timeout, -1
	case errors.Is(err, errStart):
		out.Status, out.ExitCode, out.Reason = Crash, -1, ReasonSandbox
		out.Stderr += err.Error()
		return out
	case err == nil:
		out.ExitCode = 0
	case errors.As(err, &ee):
		exited(&out, ee.ExitCode())
	default:
		out.Status, out.ExitCode = Crash, -1
		out.Stderr += err.Error()
	}
	if ps := cmd.ProcessState; ps != nil {
		// The process was the sandbox init's until its exec: the program is charged what came after.
		base, _ := sb.programBase()
		out.CPU = max(ps.UserTime()+ps.SystemTime()-base, 0)
	}
	if !full && ctx.Err() == nil {
		judgeTime(&out, rl, stopped)
		named, _ := wait.Load().(string)
		nameWait(&out, named)
	}
	classify(&out, p.limits, out.CPU, exitSignal(cmd.ProcessState), full || timedOut || ctx.Err() != nil)
	if !full && sb.outOfMemory() {
		// The kernel killed the run's processes at the memory limit of them all together.
		out.Status, out.ExitCode, out.Reason = MemoryLimit, -1, ReasonMemoryLimit
	}
	return out
}

// watchCPU reads the CPU time of the process pid every few milliseconds until done is closed, less
// what it had used when the program started in it (base: the sandbox init's own; nothing is the
// program's until base is known): once
// it passes rl.CPU it stores "cpu" in stopped and calls stop. Past its first 50 ms, every 50 ms, it
// also reads how long the process's threads have been on a CPU or waiting for one (runnableTime;
// a thread asleep on those of the run's stdio pipes that wait for the checker, pipes, see runStdio,
// counts as busy), and stops the run as "blocked" once it has spent rl.Idle otherwise, sleeping or
// waiting, and as "wall" once it has spent rl.ownWall() of wall-clock time with no thread running
// or waiting for a CPU: a program a busy machine keeps waiting for a CPU is never stopped for that
// (but at lastStop).
// Where rl.Tasks is set, it stops the run as "tasks" once the process has more threads than that,
// read as often as its CPU time.
// Before it stops a run for its wall-clock or idle time, it stores whether the process's
// threads slept or waited in blockedIn (see package waits).
func watchCPU(pid int, rl runLimit, base func() (time.Duration, bool), pipes func() (in, out []string), stopped *atomic.Value, idle *atomic.Int64, blockedIn *atomic.Value, stop func(), done <-chan struct{}) {
	start := time.Now()
	wait := time.Millisecond
	var last time.Time // when the time runnable was last read
	var tally waits.Stretches
	for {
		t := time.NewTimer(wait)
		select {
		case <-done:
			t.Stop()
			return
		case <-t.C:
		}
		cpu, ok := processCPU(pid)
		if !ok {
			return
		}
		// Until the sandbox init has exec'd the program, the process's time is the init's.
		if b, known := base(); known {
			cpu = max(cpu-b, 0)
		} else {
			cpu = 0
		}
		elapsed := time.Since(start)
		// Past its first 50 ms, every 50 ms (a quarter of the idle limit when that is shorter, at
		// least every 10 ms): how long the run has been neither on a CPU nor waiting for one.
		read, runOK := false, false
		if every := min(max(rl.Idle/4, 10*time.Millisecond), 50*time.Millisecond); elapsed >= every && time.Since(last) >= every {
			var run time.Duration
			var busy, queued bool
			read, last = true, time.Now()
			in, out := pipes()
			if run, busy, queued, runOK = runnableTime(pid, in, out); runOK {
				tally.Add(elapsed, run, busy, queued, false)
				idle.Store(int64(tally.Idle))
			}
		}
		limit := ""
		switch {
		case rl.Tasks > 0 && processThreads(pid) > rl.Tasks:
			limit = "tasks"
		case cpu >= rl.CPU:
			limit = "cpu"
		case read && runOK && time.Duration(idle.Load()) >= rl.Idle:
			limit = "blocked"
		case elapsed >= rl.Wall && read && !runOK:
			// Its threads cannot be read: the wall clock judges it (judgeTime).
			limit = "wall"
		case read && runOK && tally.Own >= rl.ownWall():
			limit = "wall"
		}
		if limit != "" {
			if limit != "cpu" && limit != "tasks" {
				blockedIn.Store(waits.ReadProcess(pid))
			}
			stopped.Store(limit)
			stop()
			return
		}
		// The program cannot use more than the machine's CPUs in the time to the next reading.
		wait = min(max((rl.CPU-cpu)/time.Duration(2*runtime.NumCPU()), time.Millisecond), 10*time.Millisecond)
	}
}

// exited records the exit code of a program that ended by itself or from a signal it did not get
// from the checker: Crash for a signal (code -1), a panic or a fatal error of the Go runtime.
func exited(out *RunOutput, code int) {
	out.ExitCode = code
	if code < 0 || strings.Contains(out.Stderr, "\ngoroutine ") || strings.HasPrefix(out.Stderr, "panic: ") ||
		strings.Contains(out.Stderr, "\npanic: ") || strings.HasPrefix(out.Stderr, "fatal error: ") {
		out.Status = Crash
	}
}

// sandboxFailure is the outcome of a run whose sandbox could not be set up.
func sandboxFailure(msg string) RunOutput {
	return RunOutput{Status: Crash, ExitCode: -1, Reason: ReasonSandbox, Stderr: "sandbox: " + msg}
}

// errStart marks a program that could not even be started.
var errStart = errors.New("the program could not be started")

// runEnv is the whole environment of a learner's program.
func runEnv(scratch string) []string {
	env := []string{
		"HOME=" + filepath.Join(scratch, "home"),
		"TMPDIR=" + filepath.Join(scratch, "tmp"),
		"LANG=C.UTF-8",
		"PATH=",
		"GOTRACEBACK=single",
	}
	return append(env, platformEnv()...)
}

// capture collects stdout and stderr up to a shared byte cap and calls onFull once when the cap is
// reached.
type capture struct {
	mu             sync.Mutex
	stdout, stderr bytes.Buffer
	n, max         int64
	full           bool
	onFull         func()
}

type captureWriter struct {
	c   *capture
	buf *bytes.Buffer
}

func (c *capture) writer(buf *bytes.Buffer) *captureWriter { return &captureWriter{c: c, buf: buf} }

func (w *captureWriter) Write(b []byte) (int, error) {
	c := w.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.full {
		return len(b), nil
	}
	room := c.max - c.n
	if int64(len(b)) > room {
		w.buf.Write(b[:room])
		c.n = c.max
		c.full = true
		go c.onFull()
		return len(b), nil
	}
	w.buf.Write(b)
	c.n += int64(len(b))
	return len(b), nil
}

// limitedBuffer keeps the first max bytes written to it and drops the rest.
type limitedBuffer struct {
	mu  sync.Mutex
	buf *bytes.Buffer
	max int
}

// String is what was written, up to max bytes.
func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *limitedBuffer) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - l.buf.Len(); room > 0 {
		if len(b) > room {
			l.buf.Write(b[:room])
		} else {
			l.buf.Write(b)
		}
	}
	return len(b), nil
}
