//go:build linux

package checker

import (
	"context"
	"fmt"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// BenchmarkCheckUnsandboxed is BenchmarkCheck at the "basic" level (scrubbed environment, scratch
// folder, limits on time and output, killed process group, but no namespaces, Landlock or resource
// limits), to tell the engine's own cost from the sandbox's.
func BenchmarkCheckUnsandboxed(b *testing.B) {
	cases := benchCases(b)
	for _, l := range candidates() {
		if !l.reexec {
			testLevel = &l
		}
	}
	defer func() { testLevel = nil }()
	ctx := context.Background()
	for b.Loop() {
		res, err := Check(ctx, benchSolution, cases, Options{Lang: "bg"})
		if err != nil || res.Verdict != Pass {
			b.Fatalf("check: %v %+v", err, res)
		}
	}
}

// BenchmarkRun measures one run of the exercise-deadline solution: a plain exec, a run in a sandbox
// session (the default where PID namespaces are available), the same with the session not bound to
// a CPU, and a run that starts an init of its own (the path of the levels without them, forced here
// at the best level):
//
//	go test ./checker -run '^$' -bench 'Run/' -benchtime 200x
func BenchmarkRun(b *testing.B) {
	ctx := context.Background()
	prog, err := Build(ctx, benchSolution, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	defer prog.Close()
	args := []string{"-deadline", "7"}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(prog.Path, args...).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("session", func(b *testing.B) {
		if !currentLevel().namespaces {
			b.Skip("no PID namespaces here: no sessions")
		}
		drainPools(b)
		for b.Loop() {
			if out := prog.Run(ctx, "", args, ""); out.Status != Pass {
				b.Fatalf("%+v", out)
			}
		}
	})
	b.Run("session-no-filter", func(b *testing.B) {
		// Without the seccomp filter a session forks and execs the program as Go's ForkExec does;
		// with it, the run's thread installs the filter and forks by a clone of its own.
		l := currentLevel()
		if !l.namespaces || !l.seccomp {
			b.Skip("no sessions with the filter here")
		}
		l.seccomp = false
		defer testLevelCase{l: &l}.use()()
		for b.Loop() {
			if out := prog.Run(ctx, "", args, ""); out.Status != Pass {
				b.Fatalf("%+v", out)
			}
		}
	})
	b.Run("session-unbound", func(b *testing.B) {
		if !currentLevel().namespaces {
			b.Skip("no PID namespaces here: no sessions")
		}
		unbound = true
		defer func() { unbound = false }()
		drainPools(b)
		for b.Loop() {
			if out := prog.Run(ctx, "", args, ""); out.Status != Pass {
				b.Fatalf("%+v", out)
			}
		}
	})
	b.Run("init-per-run", func(b *testing.B) {
		sessionsOff = true
		defer func() { sessionsOff = false }()
		for b.Loop() {
			if out := prog.Run(ctx, "", args, ""); out.Status != Pass {
				b.Fatalf("%+v", out)
			}
		}
	})
}

// BenchmarkRunCPU measures what one run of the exercise-deadline solution in a sandbox session costs
// in CPU time, which a busy machine changes far less than wall time: the program's own (as the
// init reports it), the session init's (its /proc stat, the init kept from retiring), the sum of
// the init's own and all it reaped (the programs and anything a fork cost before their exec: the one
// figure that compares one way of starting a program with another), and the checker's own (this
// process):
//
//	go test ./checker -run '^$' -bench 'RunCPU' -benchtime 200x -count 3
func BenchmarkRunCPU(b *testing.B) {
	if !currentLevel().namespaces {
		b.Skip("no PID namespaces here: no sessions")
	}
	ctx := context.Background()
	prog, err := Build(ctx, benchSolution, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	defer prog.Close()
	testRetireCPU = time.Hour
	defer func() { testRetireCPU = 0 }()
	drainPools(b)
	args := []string{"-deadline", "7"}
	if out := prog.Run(ctx, "", args, ""); out.Status != Pass {
		b.Fatalf("%+v", out)
	}
	var pid int
	pools.mu.Lock()
	for _, sp := range pools.m {
		if len(sp.idle) == 1 {
			pid = sp.idle[0].cmd.Process.Pid
		}
	}
	pools.mu.Unlock()
	init0, self0 := statCPU(b, pid), selfCPU()
	total0 := statTotalCPU(b, pid)
	var progCPU time.Duration
	b.ResetTimer()
	for b.Loop() {
		out := prog.Run(ctx, "", args, "")
		if out.Status != Pass {
			b.Fatalf("%+v", out)
		}
		progCPU += out.CPU
	}
	b.StopTimer()
	n := float64(b.N) * float64(time.Millisecond)
	b.ReportMetric(float64(progCPU)/n, "program-cpu-ms/op")
	b.ReportMetric(float64(statCPU(b, pid)-init0)/n, "init-cpu-ms/op")
	b.ReportMetric(float64(statTotalCPU(b, pid)-total0)/n, "init+reaped-cpu-ms/op")
	b.ReportMetric(float64(selfCPU()-self0)/n, "checker-cpu-ms/op")
}

// statCPU is the CPU time of the process pid itself (utime and stime of /proc/PID/stat), to the
// clock tick.
func statCPU(b *testing.B, pid int) time.Duration {
	f := statNumbers(b, pid)
	return (f[11] + f[12]) * time.Second / 100 // USER_HZ
}

// statTotalCPU is the CPU time of the process pid and of every child it has waited for (utime,
// stime, cutime and cstime of /proc/PID/stat), to the clock tick.
func statTotalCPU(b *testing.B, pid int) time.Duration {
	f := statNumbers(b, pid)
	return (f[11] + f[12] + f[13] + f[14]) * time.Second / 100
}

// statNumbers is the numeric fields of /proc/PID/stat after the command's closing parenthesis
// (statFields; the state's place holds 0).
func statNumbers(b *testing.B, pid int) []time.Duration {
	f := statFields(pid)
	if f == nil {
		b.Fatalf("/proc/%d/stat cannot be read", pid)
	}
	out := make([]time.Duration, len(f))
	for i := 1; i < len(f); i++ {
		var n int64
		fmt.Sscan(f[i], &n)
		out[i] = time.Duration(n)
	}
	return out
}

// selfCPU is this process's CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
