package checker

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// Scenario exercises (package checker/scenario): the program's stdout is the harness's report, not
// a transcript, and a case judges its figures with the command
//
//	metrics         every figure the last run reported is within its limit
//
// The learner's code cannot write stdout (checkScenarioFiles refuses every import that could), so
// what the report says is what the harness measured. CaseResult.Metrics carries the figures,
// CaseResult.Scenario the series a chart draws; a failed case has Message metric_limit, or
// no_metrics when the run reported none.

// Metric is one figure of a scenario run against its limit: ok when Value is at most Limit.
// Reached is false when the figure was never reached (everyone served: not within the horizon);
// Value is then 0 and the figure is not ok.
type Metric struct {
	Name    string  `json:"name"`
	Value   float64 `json:"value"`
	Reached bool    `json:"reached"`
	Limit   float64 `json:"limit"`
	OK      bool    `json:"ok"`
}

// ScenarioRun is what a scenario run reported besides its figures: which scenario, the seed it was
// run with (`run -scenario NAME -seed N` runs it again), the service's capacity and trigger, and
// the series, one number a tick.
type ScenarioRun struct {
	Name      string `json:"name"`
	Seed      uint64 `json:"seed"`
	Clients   int    `json:"clients"`
	Rate      int    `json:"rate"`      // answers a tick
	Cost      int    `json:"cost"`      // price of a refusal, percent of an answer
	Down      int    `json:"down"`      // ticks of the trigger
	TickMs    int    `json:"tick_ms"`   // a tick, in milliseconds
	Load      []int  `json:"load"`      // requests a tick
	Served    []int  `json:"served"`    // answers a tick
	Reference []int  `json:"reference"` // the course's jittered policy's load, when the case asked for it
	// FirstOver is the first tick at which the client crossed a limit, -1 for none.
	FirstOver int `json:"first_over"`
	// Stopped is the tick after which the run was stopped for the requests the clients had sent
	// (the scenario's bound on a storm), -1 when it was not.
	Stopped int `json:"stopped"`
	// Layers is a call chain's hops above the database (chain.go), 0 for one service.
	Layers int `json:"layers,omitempty"`
	// Arrivals is a call chain's new user requests a tick.
	Arrivals int `json:"arrivals,omitempty"`
	// Calls is an open system's new calls a tick from each client (metastable.go), 0 otherwise.
	Calls int `json:"calls,omitempty"`
	// From is an open system's first tick of the trigger, which lasts to Down-1.
	From int `json:"from,omitempty"`
	// Slow is an open system's answers a tick during the trigger (0: down).
	Slow int `json:"slow,omitempty"`
}

// Messages of a failed metrics line.
const (
	MsgMetricLimit = "metric_limit" // a figure past its limit
	MsgNoMetrics   = "no_metrics"   // the run reported no figure
)

// ParseScenario reads a scenario run's report (see package checker/scenario): the run and its
// figures. ok is false when stdout holds no report.
func ParseScenario(stdout string) (run *ScenarioRun, metrics []Metric, ok bool) {
	run = &ScenarioRun{FirstOver: -1, Stopped: -1}
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "scenario":
			ok = true
			for i := 2; i+1 < len(f); i += 2 {
				v := f[i+1]
				switch f[i] {
				case "seed":
					run.Seed, _ = strconv.ParseUint(v, 10, 64)
				case "clients":
					run.Clients, _ = strconv.Atoi(v)
				case "rate":
					run.Rate, _ = strconv.Atoi(v)
				case "cost":
					run.Cost, _ = strconv.Atoi(v)
				case "down":
					run.Down, _ = strconv.Atoi(v)
				case "layers":
					run.Layers, _ = strconv.Atoi(v)
				case "arrivals":
					run.Arrivals, _ = strconv.Atoi(v)
				case "calls":
					run.Calls, _ = strconv.Atoi(v)
				case "from":
					run.From, _ = strconv.Atoi(v)
				case "slow":
					run.Slow, _ = strconv.Atoi(v)
				case "tick":
					if d, err := parseDurationMs(v); err == nil {
						run.TickMs = d
					}
				}
			}
			if len(f) > 1 {
				run.Name = f[1]
			}
		case "load":
			run.Load = ints(f[1:])
		case "served":
			run.Served = ints(f[1:])
		case "reference":
			run.Reference = ints(f[1:])
		case "first_over", "stopped":
			if len(f) == 2 {
				if v, err := strconv.ParseFloat(f[1], 64); err == nil && run.TickMs > 0 {
					tick := int(v*1000/float64(run.TickMs) + 0.5)
					if f[0] == "stopped" {
						run.Stopped = tick
					} else {
						run.FirstOver = tick
					}
				}
			}
		case "metric":
			if len(f) != 4 {
				continue
			}
			m := Metric{Name: f[1]}
			lim, err := strconv.ParseFloat(f[3], 64)
			if err != nil {
				continue
			}
			m.Limit = lim
			if v, err := strconv.ParseFloat(f[2], 64); err == nil {
				m.Value, m.Reached = v, true
			}
			m.OK = m.Reached && m.Value <= m.Limit
			metrics = append(metrics, m)
		}
	}
	if !ok {
		return nil, nil, false
	}
	return run, metrics, true
}

// parseDurationMs reads "100ms" as 100.
func parseDurationMs(s string) (int, error) {
	n, ok := strings.CutSuffix(s, "ms")
	if !ok {
		return 0, fmt.Errorf("not in milliseconds: %q", s)
	}
	return strconv.Atoi(n)
}

// ints reads numbers, 0 for one that is not.
func ints(words []string) []int {
	out := make([]int, len(words))
	for i, w := range words {
		out[i], _ = strconv.Atoi(w)
	}
	return out
}

// cmdMetrics judges the last run's figures: metrics.
func cmdMetrics(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: metrics")
	}
	if fail := state(ts).metrics(); fail != "" {
		ts.Fatalf("%s", fail)
	}
}

// metrics judges the last run's figures, records them in the case, and returns why the case
// fails, or "".
func (st *caseState) metrics() string {
	if st.lastRun == nil {
		return "metrics before run"
	}
	run, ms, ok := ParseScenario(Normalize(st.lastRun.Stdout))
	if !ok || len(ms) == 0 {
		st.rec.Status, st.rec.Message = Fail, MsgNoMetrics
		return "the run reported no figures"
	}
	st.rec.Scenario, st.rec.Metrics = run, ms
	for _, m := range ms {
		if !m.OK {
			st.rec.Status, st.rec.Message = Fail, MsgMetricLimit
			if !m.Reached {
				return fmt.Sprintf("%s was never reached (limit %s)", m.Name, formatFloat(m.Limit))
			}
			return fmt.Sprintf("%s is %s, over its limit %s", m.Name, formatFloat(m.Value), formatFloat(m.Limit))
		}
	}
	return ""
}
