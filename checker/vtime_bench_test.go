package checker

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The benchmarks of virtual time: a warm check of the exercise-retry-ctx reference solution, whose
// 31 cases span more than 23 minutes of virtual time (one alone 15 minutes of backoff), against its
// floor, the bare runs of the same executable with the cases' arguments, and against the warm check
// of an ordinary exercise (BenchmarkCheckRerun, exercise-deadline). Run them with
//
//	go test ./checker -run '^$' -bench 'VirtualCheckRerun|VirtualByHand|CheckRerun' -benchtime 10x -count 5
//
// The figures are in BENCHMARKS.md.

const vtimeBenchSolution = "../solutions/exercise-retry-ctx/bg"

func vtimeBenchCases(b testing.TB) []Case {
	cases, err := LoadCases(os.DirFS(".."), "exercises/exercise-retry-ctx/cases")
	if err != nil {
		b.Fatal(err)
	}
	return cases
}

// BenchmarkVirtualCheckRerun is a check of unchanged sources in virtual time: the executable (the
// program with its synctest harness) comes from the cache.
func BenchmarkVirtualCheckRerun(b *testing.B) {
	cases := vtimeBenchCases(b)
	ctx := context.Background()
	check := func() {
		res, err := Check(ctx, vtimeBenchSolution, cases, Options{Lang: "bg", Limits: Limits{Virtual: true}})
		if err != nil || res.Verdict != Pass {
			b.Fatalf("check: %v %+v", err, res)
		}
	}
	check()
	for b.Loop() {
		check()
		b.StopTimer()
		endIdleSessions()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(cases))/1000, "ms/case")
}

// BenchmarkVirtualByHand is the floor of BenchmarkVirtualCheckRerun: the same executable run once
// per case by hand, with no sandbox, no case and no comparison around it.
func BenchmarkVirtualByHand(b *testing.B) {
	cases := vtimeBenchCases(b)
	prog, err := Build(context.Background(), vtimeBenchSolution, Limits{Virtual: true})
	if err != nil {
		b.Fatal(err)
	}
	defer prog.Close()
	var runs [][]string
	for _, c := range cases {
		for _, line := range strings.Split(string(c.Script), "\n") {
			f := strings.Fields(line)
			if len(f) > 0 && f[0] == "!" {
				f = f[1:]
			}
			if len(f) > 0 && f[0] == "run" {
				runs = append(runs, f[1:])
			}
		}
	}
	for b.Loop() {
		for _, args := range runs {
			var out bytes.Buffer
			run := exec.Command(prog.Path, args...)
			run.Stdout = &out
			_ = run.Run()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(runs))/1000, "ms/case")
}
