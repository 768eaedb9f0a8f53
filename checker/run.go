package checker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// RunOutput is what one run of a program produced.
type RunOutput struct {
	Stdout   string
	Stderr   string
	ExitCode int           // -1 when the program was killed
	Status   Verdict       // Pass (it ran and exited by itself), Timeout, OutputLimit, MemoryLimit or Crash
	Reason   string        // why, when known: one of the Reason* codes, else ""
	Duration time.Duration // wall time
	Blocked  *Blocked      // a virtual-time run's goroutine left blocked (ReasonDeadlock, ReasonLeak)
}

// Run runs the built program once with args, in dir (the program's own scratch folder when dir is
// ""), under the program's limits and in the sandbox this system allows (see Isolation). Its
// environment is scrubbed; on timeout or when the output cap is reached everything it started is
// killed. Status is Crash when the program panicked or died from a signal, MemoryLimit when it ran
// out of its memory limit and Timeout when it hit its wall-time or CPU-time limit; a plain non-zero
// exit is left to the caller to judge (ExitCode), with Reason naming a likely cause when stderr shows
// one (the network, a file outside the work folder, the process limit).
func (p *Program) Run(ctx context.Context, dir string, args []string, stdin string) RunOutput {
	return p.run(ctx, dir, args, stdin, p.limits.RunTime)
}

// run is Run with a wall-time limit of its own; stderr names the program's files as the learner's
// folder does (cleanTrace).
func (p *Program) run(ctx context.Context, dir string, args []string, stdin string, limit time.Duration) RunOutput {
	out := p.runRaw(ctx, dir, args, stdin, limit)
	out.Stderr = cleanTrace(out.Stderr)
	if p.limits.Virtual {
		out.Blocked = virtualOutcome(&out)
	}
	return out
}

func (p *Program) runRaw(ctx context.Context, dir string, args []string, stdin string, limit time.Duration) RunOutput {
	if err := p.runDirs(); err != nil {
		return sandboxFailure(err.Error())
	}
	if dir == "" {
		dir = filepath.Join(p.scratch, "run")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return sandboxFailure(err.Error())
		}
	}
	if out, ok := p.runInSession(ctx, dir, args, stdin, limit); ok {
		return out
	}
	rctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(rctx, p.Path, args...)
	cmd.Dir = dir
	cmd.Env = runEnv(p.scratch)
	cmd.Stdin = strings.NewReader(stdin)
	capped := &capture{max: p.limits.OutputBytes, onFull: cancel}
	cmd.Stdout = capped.writer(&capped.stdout)
	cmd.Stderr = capped.writer(&capped.stderr)
	sb, err := p.sandboxCmd(cmd, dir)
	if err != nil {
		return sandboxFailure(err.Error())
	}
	defer sb.close()
	cmd.Cancel = func() error { sb.kill(); return killProcessTree(cmd) }
	cmd.WaitDelay = 500 * time.Millisecond
	start := time.Now()
	err = cmd.Start()
	sb.started()
	if err == nil {
		err = cmd.Wait()
	} else {
		err = fmt.Errorf("%w: %w", errStart, err)
	}
	out := RunOutput{Duration: time.Since(start), Status: Pass}
	// Whatever the program left running in its group (and its cgroup, even after setsid) dies
	// with it.
	killProcessGroup(cmd)
	sb.kill()
	capped.mu.Lock()
	out.Stdout, out.Stderr = capped.stdout.String(), capped.stderr.String()
	full := capped.full
	capped.mu.Unlock()
	if msg := sb.setupError(); msg != "" {
		out.Status, out.ExitCode, out.Reason = Crash, -1, ReasonSandbox
		out.Stderr += "sandbox: " + msg
		return out
	}
	timedOut := rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	var ee *exec.ExitError
	switch {
	case full:
		out.Status, out.ExitCode = OutputLimit, -1
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
	case errors.Is(err, exec.ErrWaitDelay):
		// The program exited but a child it started kept the output open; the child is dead now.
		out.ExitCode = cmd.ProcessState.ExitCode()
	default:
		out.Status, out.ExitCode = Crash, -1
		out.Stderr += err.Error()
	}
	var cpu time.Duration
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	classify(&out, p.limits, cpu, exitSignal(cmd.ProcessState), full || timedOut || ctx.Err() != nil)
	if !full && sb.outOfMemory() {
		// The kernel killed the run's processes at the memory limit of them all together.
		out.Status, out.ExitCode, out.Reason = MemoryLimit, -1, ReasonMemoryLimit
	}
	return out
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
