package checker

import (
	"context"
	"os"
	"testing"
)

// The benchmarks of a scenario exercise (issue 37): a warm check of a scenario exercise's reference
// solution, its ten file cases and three drawn seeds, and the same runs by hand, which report the CPU
// time the runs used: exercise-storm-client (each case 2000 virtual clients against the course's
// service for up to a minute of virtual time; two cases run the course's policy beside it) and
// exercise-chain-client (each case 4000 to 6400 user requests through a chain of three to five
// layers of the learner's client; one case runs the course's policy beside it) and
// exercise-metastable-client (8 clients, 8 calls a tick for a minute, 9 file cases). Run them with
//
//	go test ./checker -run '^$' -bench 'Scenario' -benchtime 5x -count 3
//
// The figures are in BENCHMARKS.md.

// scenarioBench is a scenario exercise to measure: its reference solution and drawn arguments.
type scenarioBench struct {
	name     string
	solution string
	drawn    []string
}

var scenarioBenches = []scenarioBench{
	{"storm-client", "../solutions/exercise-storm-client/bg", []string{"storm -seed 694101283", "storm-cost -seed 776642259", "outage -seed 904349346"}},
	{"chain-client", "../solutions/exercise-chain-client/bg", []string{"chain -seed 694101283", "chain-5 -seed 776642259", "chain-long -seed 904349346"}},
	{"metastable-client", "../solutions/exercise-metastable-client/bg", []string{"metastable -seed 694101283", "metastable-down -seed 776642259", "metastable-failover -seed 904349346"}},
}

// cases are the exercise's cases and three drawn ones, as a check makes them.
func (sb scenarioBench) cases(b testing.TB) []Case {
	cases, err := LoadCases(os.DirFS(".."), "exercises/exercise-"+sb.name+"/cases")
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
func BenchmarkScenarioCheckRerun(b *testing.B) {
	for _, sb := range scenarioBenches {
		b.Run(sb.name, func(b *testing.B) {
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
		})
	}
}

// BenchmarkScenarioByHand runs the same executable once per case, with no checker around it, and
// reports the CPU time the runs of one check used together (cpu-ms/check): what issue 37 bounds.
func BenchmarkScenarioByHand(b *testing.B) {
	for _, sb := range scenarioBenches {
		b.Run(sb.name, func(b *testing.B) {
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
		})
	}
}
