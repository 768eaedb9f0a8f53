package checker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scenarioProgram is a scenario exercise's program: PAUSE is the pause after the k-th refusal.
const scenarioProgram = `package main

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/workbook-course/workbook/checker/scenario"
)

func main() { scenario.Main(NewClient) }

type client struct{ rnd *rand.Rand }

func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

func (c *client) Do(ctx context.Context, call func(context.Context) error) error {
	window := 100 * time.Millisecond
	for {
		err := call(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		t := time.NewTimer(PAUSE)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		window = min(2*window, 20*time.Second)
	}
}
`

// TestScenarioMetrics runs a scenario program's case: the jittered client's figures are within the
// storm's limits, a doubling one's peak is not; the figures, the seed and the series reach the
// case's result, and the same seed gives the same figures.
func TestScenarioMetrics(t *testing.T) {
	tests := []struct {
		name   string
		pause  string
		status Verdict
		failed string // the metric over its limit
	}{
		{"full-jitter", "time.Duration(c.rnd.Int64N(int64(window))) + 1", Pass, ""},
		{"no-jitter", "window", Fail, "peak_load"},
	}
	c, err := ParseCase("storm", []byte("run -scenario storm -seed 5\nmetrics\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := buildVirtual(t, strings.Replace(scenarioProgram, "PAUSE", tt.pause, 1))
			var first []Metric
			for range 2 {
				r := prog.RunCases(context.Background(), []Case{c}, Options{})[0]
				if r.Status != tt.status {
					t.Fatalf("status %s (%s), want %s; stderr:\n%s", r.Status, r.Message, tt.status, r.Stderr)
				}
				if r.Scenario == nil || r.Scenario.Name != "storm" || r.Scenario.Seed != 5 || r.Scenario.Rate != 50 || len(r.Scenario.Load) < 100 || r.Scenario.Load[0] != 2000 {
					t.Fatalf("scenario %+v", r.Scenario)
				}
				failed := ""
				for _, m := range r.Metrics {
					if !m.OK && failed == "" {
						failed = m.Name
					}
				}
				if failed != tt.failed || len(r.Metrics) != 4 {
					t.Errorf("metrics %+v: first over its limit %q, want %q", r.Metrics, failed, tt.failed)
				}
				if tt.failed != "" && (r.Message != MsgMetricLimit || r.Scenario.FirstOver < 100) {
					t.Errorf("message %q, first over %d", r.Message, r.Scenario.FirstOver)
				}
				if first != nil && !equalMetrics(first, r.Metrics) {
					t.Errorf("the same seed gave %+v, then %+v", first, r.Metrics)
				}
				first = r.Metrics
			}
		})
	}
}

func equalMetrics(a, b []Metric) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestScenarioRefusedImports: a scenario program may not reach stdout, a file or the runtime (the
// figures come from stdout), nor draw from the shared generator (the same seed must give the same
// figures).
func TestScenarioRefusedImports(t *testing.T) {
	const head = "package main\n\nimport (\n\t\"github.com/workbook-course/workbook/checker/scenario\"\n"
	tests := []struct {
		name, src, want string
	}{
		{"fmt", head + "\t\"fmt\"\n)\n\nfunc main() { fmt.Println(\"metric x 0 1\"); scenario.Main(nil) }\n", `main.go:5: import "fmt"`},
		{"os", head + "\t\"os\"\n)\n\nfunc main() { os.Stdout.WriteString(\"\"); scenario.Main(nil) }\n", `main.go:5: import "os"`},
		{"reflect", head + "\t\"reflect\"\n)\n\nvar _ = reflect.TypeOf\n\nfunc main() { scenario.Main(nil) }\n", `main.go:5: import "reflect"`},
		{"own package", head + "\t\"learner/out\"\n)\n\nfunc main() { out.Print(); scenario.Main(nil) }\n", `main.go:5: import "learner/out"`},
		{"shared rand", head + "\t\"math/rand/v2\"\n)\n\nvar x = rand.IntN(3)\n\nfunc main() { scenario.Main(nil) }\n", `main.go:8: rand.IntN draws`},
		{"renamed rand", head + "\tr \"math/rand/v2\"\n)\n\nvar x = r.Float64()\n\nfunc main() { scenario.Main(nil) }\n", `main.go:8: rand.Float64 draws`},
		{"dot rand", head + "\t. \"math/rand/v2\"\n)\n\nvar x = New(nil)\n\nfunc main() { scenario.Main(nil) }\n", `main.go:1: import . "math/rand/v2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "main.go"), []byte(tt.src), 0o644)
			_, err := Build(context.Background(), dir, Limits{Virtual: true})
			var bf *BuildFailure
			if !errors.As(err, &bf) || bf.Reason != "scenario_import" || !strings.Contains(bf.Log, tt.want) {
				t.Fatalf("got %v, want a scenario_import build failure with %q", err, tt.want)
			}
		})
	}
}
