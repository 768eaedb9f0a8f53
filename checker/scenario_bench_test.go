package checker

import (
	"context"
	"os"
	"testing"
)

// The benchmarks of a scenario exercise (issue 37): a warm check of the exercise-storm-client
// reference solution, its ten file cases and three drawn seeds (each case 2000 virtual clients
// against the course's service for up to a minute of virtual time; two cases run the course's
// policy beside it), and the same runs by hand, which report the CPU time the runs used; the same
// two for exercise-metastable-client (Metastable: 8 clients, 8 calls a tick for a minute, 9 file
// cases and three drawn). Run them with
//
//	go test ./checker -run '^$' -bench 'Scenario|Metastable' -benchtime 5x -count 3
//
// The figures are in BENCHMARKS.md.

const scenarioBenchSolution = "../solutions/exercise-storm-client/bg"

// scenarioBench is one scenario exercise's benchmark: its reference and three drawn cases.
type scenarioBench struct {
	exercise, solution string
	drawn              []string
}

var (
	stormBench = scenarioBench{"exercise-storm-client", scenarioBenchSolution,
		[]string{"storm -seed 694101283", "storm-cost -seed 776642259", "outage -seed 904349346"}}
	metastableBench = scenarioBench{"exercise-metastable-client", "../solutions/exercise-metastable-client/bg",
		[]string{"metastable -seed 694101283", "metastable-down -seed 776642259", "metastable-failover -seed 904349346"}}
)

// cases are the exercise's cases and its three drawn ones, as a check makes them.
func (sb scenarioBench) cases(b testing.TB) []Case {
	cases, err := LoadCases(os.DirFS(".."), "exercises/"+sb.exercise+"/cases")
	if err != nil {
		b.Fatal(err)
	}
	for _, drawn := range sb.drawn {
		c, err := ParseCase("drawn", []byte("run -scenario "+drawn+"\nmetrics\n"))
		if err != nil {
			b.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// BenchmarkScenarioCheckRerun is a check of unchanged sources: the executable comes from the cache.
func BenchmarkScenarioCheckRerun(b *testing.B) { stormBench.checkRerun(b) }

// BenchmarkMetastableCheckRerun is BenchmarkScenarioCheckRerun for exercise-metastable-client.
func BenchmarkMetastableCheckRerun(b *testing.B) { metastableBench.checkRerun(b) }

// BenchmarkScenarioByHand runs the same executable once per case, with no checker around it, and
// reports the CPU time the runs of one check used together (cpu-ms/check): what issue 37 bounds.
func BenchmarkScenarioByHand(b *testing.B) { stormBench.byHand(b) }

// BenchmarkMetastableByHand is BenchmarkScenarioByHand for exercise-metastable-client.
func BenchmarkMetastableByHand(b *testing.B) { metastableBench.byHand(b) }

func (sb scenarioBench) checkRerun(b *testing.B) {
	cases := sb.cases(b)
	ctx := context.Background()
	check := func() {
		res, err := Check(ctx, sb.solution, cases, Options{Lang: "bg", Limits: Limits{Virtual: true}})
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

func (sb scenarioBench) byHand(b *testing.B) {
	cases := sb.cases(b)
	prog, err := Build(context.Background(), sb.solution, Limits{Virtual: true})
	if err != nil {
		b.Fatal(err)
	}
	defer prog.Close()
	var args [][]string
	for _, c := range cases {
		dc, ok := parseDirect(c.Script)
		if !ok {
			b.Fatalf("%s: not a direct case", c.Name)
		}
		for _, l := range dc.lines {
			if l.name == "run" {
				args = append(args, l.args)
			}
		}
	}
	var cpu float64
	for b.Loop() {
		for _, a := range args {
			out := prog.Run(context.Background(), "", a, "")
			cpu += out.CPU.Seconds() * 1000
		}
	}
	b.ReportMetric(cpu/float64(b.N), "cpu-ms/check")
}
