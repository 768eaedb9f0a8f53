package scenario

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/workbook-course/workbook/internal/storm"
)

// pauser is a naive policy of the lesson: the pause after the k-th refusal.
type pauser struct {
	pause func(k int, rnd *rand.Rand) time.Duration
	rnd   *rand.Rand
}

func (p *pauser) Do(ctx context.Context, call func(context.Context) error) error {
	for k := 1; ; k++ {
		err := call(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		t := time.NewTimer(p.pause(k, p.rnd))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

func policy(pause func(k int, rnd *rand.Rand) time.Duration) func(*rand.Rand) Client {
	return func(rnd *rand.Rand) Client { return &pauser{pause: pause, rnd: rnd} }
}

var (
	now    = policy(func(int, *rand.Rand) time.Duration { return 0 })
	fixed  = policy(func(int, *rand.Rand) time.Duration { return time.Second })
	double = policy(func(k int, _ *rand.Rand) time.Duration { return min(Tick<<min(k-1, 20), 200*Tick) })
	// noBackoff is jitter without backoff: uniform in one second.
	noBackoff = policy(func(_ int, rnd *rand.Rand) time.Duration { return time.Duration(rnd.Int64N(int64(time.Second))) })
)

// deaf is the course's policy but for its context: its pause is a plain time.Sleep, and it goes on
// after the context has ended (for three more attempts, so that the test's bubble can end: the
// checker reports a program whose clients never stop as goroutines left blocked).
var deaf = func(rnd *rand.Rand) Client { return &deafClient{rnd: rnd} }

type deafClient struct{ rnd *rand.Rand }

func (c *deafClient) Do(ctx context.Context, call func(context.Context) error) error {
	window := Tick
	for late := 0; late < 3; {
		if call(ctx) == nil {
			return nil
		}
		if ctx.Err() != nil {
			late++
		}
		time.Sleep(time.Duration(c.rnd.Int64N(int64(window))))
		window = min(2*window, 200*Tick)
	}
	return ctx.Err()
}

func run(t *testing.T, s Scenario, seed uint64, c func(*rand.Rand) Client) (r Report) {
	synctest.Test(t, func(*testing.T) {
		r = Run(s, seed, c)
		time.Sleep(time.Hour) // the clients Run left behind (deaf) end
	})
	return r
}

// lesson is a rule of the lesson's model as a real client: its pauses are internal/storm's, in
// whole ticks, drawn from one course generator (storm.Rand) that every client of the run shares,
// as the model draws them. The harness hands refusals out one at a time in line order, so the
// draws come in the model's order and the run is the model's, tick by tick.
func lesson(p storm.Params) func(*rand.Rand) Client {
	g := storm.NewRand(p.Seed)
	return func(*rand.Rand) Client { return &lessonClient{p: p, g: g} }
}

type lessonClient struct {
	p storm.Params
	g *storm.Rand
}

func (c *lessonClient) Do(ctx context.Context, call func(context.Context) error) error {
	prev := c.p.Base
	for k := 1; ; k++ {
		err := call(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		t := time.NewTimer(time.Duration(c.p.Pause(c.g, k, &prev)) * Tick)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// TestStormFigures runs the lesson's six rules through the harness, as real Go clients, and
// compares what the service saw with internal/storm's model, tick by tick: the lesson's figures
// (immediate retries: everyone served at 13.9 s after 241,000 requests; doubling: the last one
// after 785.5 s; with the refusal cost none of the three unjittered rules served within a minute;
// the jittered ones everyone within 23.1 to 29.3 s, peaks of 37 to 92). The unjittered rules are
// run both as the model's client and as plain clients of their own generator (now, fixed, double).
func TestStormFigures(t *testing.T) {
	tests := []struct {
		name    string
		rule    storm.Rule
		c       func(*rand.Rand) Client // nil: lesson(the model's parameters)
		cost    int
		horizon int
	}{
		{"now", storm.Now, now, 0, 600},
		{"fixed", storm.Fixed, fixed, 0, 600},
		{"double", storm.Double, double, 0, 600},
		{"double-13min", storm.Double, double, 0, 8000},
		{"now-cost", storm.Now, now, 10, 600},
		{"fixed-cost", storm.Fixed, fixed, 10, 600},
		{"double-cost", storm.Double, double, 10, 600},
		{"model-now", storm.Now, nil, 0, 600},
		{"model-double-cost", storm.Double, nil, 10, 600},
		{"full", storm.Full, nil, 0, 600},
		{"equal", storm.Equal, nil, 0, 600},
		{"decorrelated", storm.Decorrelated, nil, 0, 600},
		{"full-cost", storm.Full, nil, 10, 600},
		{"equal-cost", storm.Equal, nil, 10, 600},
		{"decorrelated-cost", storm.Decorrelated, nil, 10, 600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := storm.Lesson()
			p.Rule, p.Cost, p.Ticks = tt.rule, tt.cost, tt.horizon
			s := scenarios["storm"]
			s.Cost, s.Horizon, s.MaxRequests = tt.cost, tt.horizon, 0
			c := tt.c
			if c == nil {
				c = lesson(p)
			}
			got := run(t, s, 1, c)
			want := storm.Run(p)
			if got.All != want.All || got.Requests != want.Requests || got.Peak != want.Peak {
				t.Errorf("all %d requests %d peak %d, storm model: all %d requests %d peak %d",
					got.All, got.Requests, got.Peak, want.All, want.Requests, want.Peak)
			}
			for i := range want.Load {
				if got.Load[i] != want.Load[i] {
					t.Fatalf("tick %d: load %d, storm model %d", i, got.Load[i], want.Load[i])
				}
			}
		})
	}
}

// TestIssueFigures proves the figures issue 37 quotes from seed 000, each run through the harness
// as real clients: immediate retries serve everyone in 13.9 s at about 120 requests each; doubling
// without jitter serves the last client after about 13 minutes; with refusals that cost a tenth of
// an answer none of the three unjittered rules serves anyone within a minute; with jitter the peak
// is 44 to 94 requests a tick against 50 and everyone is served in 23 to 30 s. The seed's peaks
// and times are a span over its three jittered rules (full jitter the lowest peak, decorrelated
// the highest; equal jitter the fastest), drawn from one course generator: course seed 6891 gives
// exactly 44 to 94 and full jitter's 14.9 s, 29.6 s and 9.2 requests a client (the lesson's seed 7
// gives 37 to 92). The course's policy, full jitter with a generator per client as the exercise
// runs it, stays within those spans on every seed.
func TestIssueFigures(t *testing.T) {
	figures := func(r Report) (peak, all, each float64) {
		peak, _ = r.Value(PeakLoad)
		all, _ = r.Value(AllServed)
		each, _ = r.Value(RequestsPerClient)
		return peak, all, each
	}
	modelRun := func(rule storm.Rule, cost, ticks, seed int) Report {
		p := storm.Lesson()
		p.Rule, p.Cost, p.Ticks, p.Seed = rule, cost, ticks, seed
		s := scenarios["storm"]
		s.Cost, s.Horizon, s.MaxRequests = cost, ticks, 0
		return run(t, s, 1, lesson(p))
	}
	t.Run("immediate", func(t *testing.T) {
		if _, all, each := figures(modelRun(storm.Now, 0, 600, 7)); all != 13.9 || each < 115 || each > 125 {
			t.Errorf("everyone served in %v s at %v requests each, want 13.9 s at about 120", all, each)
		}
	})
	t.Run("doubling", func(t *testing.T) {
		r := modelRun(storm.Double, 0, 8000, 7)
		if _, all, _ := figures(r); all < 12*60 || all > 14*60 {
			t.Errorf("the last client served after %v s, want about 13 minutes", all)
		}
	})
	for _, rule := range []storm.Rule{storm.Now, storm.Fixed, storm.Double} {
		t.Run("cost-"+rule.String(), func(t *testing.T) {
			r := modelRun(rule, 10, 600, 7)
			if served := slices.Max(r.Served); r.All >= 0 || served > 0 {
				t.Errorf("with the refusal cost: all served at tick %d, most answers a tick %d, want none within a minute", r.All, served)
			}
		})
	}
	for _, cost := range []int{0, 10} {
		t.Run(fmt.Sprintf("jitter-cost-%d", cost), func(t *testing.T) {
			low, high := math.Inf(1), 0.0
			for _, rule := range []storm.Rule{storm.Full, storm.Equal, storm.Decorrelated} {
				peak, all, each := figures(modelRun(rule, cost, 600, 6891))
				low, high = min(low, peak), max(high, peak)
				if all < 23 || all > 30 {
					t.Errorf("%v: everyone served in %v s, want 23 to 30", rule, all)
				}
				if rule == storm.Full && (all != 29.6 || each != 9.2) {
					t.Errorf("full jitter: everyone served in %v s at %v requests each, want the seed's 29.6 s at 9.2", all, each)
				}
			}
			if low != 44 || high != 94 {
				t.Errorf("peaks %v to %v a tick, want the seed's 44 to 94", low, high)
			}
		})
	}
	t.Run("course-policy", func(t *testing.T) {
		for _, seed := range []uint64{0, 1, 2, 7, 1000, 999_999_999, 1 << 40} {
			peak, all, each := figures(run(t, scenarios["storm"], seed, referenceClient))
			if peak > 94 || all < 23 || all > 30 || each > 10 {
				t.Errorf("seed %d: peak %v, everyone served in %v s, %v requests each; want a peak of at most 94, 23 to 30 s, about 9 requests",
					seed, peak, all, each)
			}
		}
	})
}

// within reports whether every figure of r is within its limit.
func within(r Report) bool {
	for _, l := range r.Scenario.Limits {
		if v, ok := r.Value(l.Metric); !ok || v > l.Max {
			return false
		}
	}
	return true
}

// TestLimits: the course's jittered policy (and equal jitter) stays within every scenario's limits
// on the seeds drawn cases use; the plausible wrong policies fail the scenarios made to catch them
// (doubling without jitter and deafness to the context each pass one: the storm does not need the
// context, the outage, which never recovers, does not need jitter).
func TestLimits(t *testing.T) {
	equal := policy(func(k int, rnd *rand.Rand) time.Duration {
		g := min(Tick<<min(k-1, 20), 200*Tick)
		return g/2 + time.Duration(rnd.Int64N(int64(g/2)+1))
	})
	tests := []struct {
		name  string
		c     func(*rand.Rand) Client
		seeds []uint64
		ok    map[string]bool // by scenario
	}{
		{"reference", referenceClient, []uint64{0, 1, 2, 7, 1000, 1 << 40}, map[string]bool{"storm": true, "storm-cost": true, "outage": true}},
		{"equal-jitter", equal, []uint64{0, 1}, map[string]bool{"storm": true, "storm-cost": true, "outage": true}},
		{"now", now, []uint64{1}, map[string]bool{}},
		{"fixed", fixed, []uint64{1}, map[string]bool{}},
		{"double", double, []uint64{1}, map[string]bool{"outage": true}},
		{"jitter-without-backoff", noBackoff, []uint64{1, 2}, map[string]bool{}},
		{"deaf-to-context", deaf, []uint64{1}, map[string]bool{"storm": true, "storm-cost": true}},
	}
	for _, name := range []string{"storm", "storm-cost", "outage"} {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				for _, seed := range tt.seeds {
					r := run(t, scenarios[name], seed, tt.c)
					if got := within(r); got != tt.ok[name] {
						peak, _ := r.Value(PeakLoad)
						all, _ := r.Value(AllServed)
						req, _ := r.Value(RequestsPerClient)
						t.Errorf("seed %d: within limits %v, want %v (peak %v, all served %v s, %v requests a client, stuck %d)",
							seed, got, tt.ok[name], peak, all, req, r.Stuck)
					}
				}
			})
		}
	}
}

// TestStoppedBound: every scenario stops a run at 40 times its unit, the figure the report's
// message says (internal/report.StoppedText): a storm's 40 requests a client, a call chain's 40
// database calls a user request, an open system's 40 attempts for every call of the run.
func TestStoppedBound(t *testing.T) {
	for name, s := range scenarios {
		unit := int64(s.Clients) // a storm's clients, a chain's user requests
		if s.Open != nil {
			unit = int64(s.Clients) * int64(s.Open.Calls) * int64(s.Horizon)
		}
		if s.MaxRequests != 40*unit {
			t.Errorf("%s: stops at %d requests, want 40 × %d", name, s.MaxRequests, unit)
		}
	}
}

// TestFirstOver: the first moment past a limit, by the rule of each figure (Report.FirstOver).
func TestFirstOver(t *testing.T) {
	tests := []struct {
		name string
		r    Report
		want int
	}{
		{"peak", Report{Scenario: Scenario{Down: 2, Limits: []Limit{{PeakLoad, 50}}}, Load: []int{500, 500, 10, 60, 70}}, 3},
		{"peak-within", Report{Scenario: Scenario{Down: 2, Limits: []Limit{{PeakLoad, 50}}}, Load: []int{500, 500, 50}}, -1},
		{"requests", Report{Scenario: Scenario{Clients: 2, Limits: []Limit{{RequestsPerClient, 2}}}, Load: []int{2, 2, 1, 0}, Requests: 5}, 2},
		{"requests-within", Report{Scenario: Scenario{Clients: 2, Limits: []Limit{{RequestsPerClient, 2}}}, Load: []int{2, 2}, Requests: 4}, -1},
		{"lost", Report{Scenario: Scenario{Limits: []Limit{{LostEnd, 1}}}, Load: make([]int, 10),
			Lost: []int{0, 0, 0, 1, 0, 1}, LostOf: 100}, 5},
		{"lost-within", Report{Scenario: Scenario{Limits: []Limit{{LostEnd, 1}}}, Load: make([]int, 10),
			Lost: []int{0, 1}, LostOf: 100}, -1},
		{"served-never", Report{Scenario: Scenario{Limits: []Limit{{AllServed, 3.2}}}, Load: make([]int, 60), All: -1}, 32},
		{"the-earliest", Report{Scenario: Scenario{Clients: 1, Down: 1, Limits: []Limit{{AllServed, 3}, {RequestsPerClient, 1}, {PeakLoad, 5}}},
			Load: []int{1, 1, 9}, All: -1}, 1},
	}
	for _, tt := range tests {
		if got := tt.r.FirstOver(); got != tt.want {
			t.Errorf("%s: first over at tick %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestFirstOverEveryKind: check names the first moment past a limit for every kind of scenario: a
// run of each kind past a limit other than clients_stuck reports one within the run, a run within
// its limits none.
func TestFirstOverEveryKind(t *testing.T) {
	tests := []struct {
		scenario string
		name     string
		c        func(*rand.Rand) Client
		runner   func(*testing.T, Scenario, uint64, func(*rand.Rand) Client) Report
		over     bool
	}{
		{"storm", "now", now, run, true},
		{"storm", "reference", referenceClient, run, false},
		{"outage", "fixed", fixed, run, true},
		{"outage", "reference", referenceClient, run, false},
		{"metastable", "lesson-rule", lessonRule, runOpen, true},
		{"metastable", "throttle", throttleClient, runOpen, false},
		{"chain", "three-tries", tries(3, false), runChain, true},
		{"chain", "reference", chainReference, runChain, false},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.name, func(t *testing.T) {
			r := tt.runner(t, scenarios[tt.scenario], 1, tt.c)
			at := r.FirstOver()
			if tt.over != !within(r) {
				t.Fatalf("within limits %v, want %v", within(r), !tt.over)
			}
			if !tt.over {
				if at != -1 {
					t.Errorf("within its limits, yet first over at tick %d", at)
				}
				return
			}
			if at < 0 || at >= len(r.Load) {
				t.Errorf("past a limit, first over at tick %d (the run has %d)", at, len(r.Load))
			}
		})
	}
}
