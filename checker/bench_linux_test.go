//go:build linux

package checker

import (
	"context"
	"os/exec"
	"testing"
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
		// Without the seccomp filter a session forks and execs the program itself; with it, the
		// program goes through a second exec of the init (workbook-sandbox-exec), which installs
		// the filter.
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
