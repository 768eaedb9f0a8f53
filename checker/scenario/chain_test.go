package scenario

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// attempts is the lesson's naive policy at every layer: up to n attempts a request, each at once
// after the last, or with pause (full jitter from a window of a tick, doubled every time) when
// jitter is set.
type attempts struct {
	n      int
	jitter bool
	mu     sync.Mutex
	rnd    *rand.Rand
}

func tries(n int, jitter bool) func(*rand.Rand) Client {
	return func(rnd *rand.Rand) Client { return &attempts{n: n, jitter: jitter, rnd: rnd} }
}

func (c *attempts) Do(ctx context.Context, call func(context.Context) error) error {
	window := Tick
	for k := 1; ; k++ {
		err := call(ctx)
		if err == nil || k == c.n || ctx.Err() != nil {
			return err
		}
		if c.jitter {
			c.mu.Lock()
			d := time.Duration(c.rnd.Int64N(int64(window)))
			c.mu.Unlock()
			if !pause(ctx, d) {
				return ctx.Err()
			}
			window *= 2
		}
	}
}

// pause waits d, false when ctx ends first.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// budgeted is a retry budget at every layer, as the course's policy (budgetClient), with the
// plausible variants: a pause with full jitter before a retry, a budget that starts full and is
// never earned again (refill false), and no limit a request (limit 0).
type budgeted struct {
	limit  int
	refill bool
	jitter bool
	mu     sync.Mutex
	rnd    *rand.Rand
	tokens float64
}

func (c *budgeted) Do(ctx context.Context, call func(context.Context) error) error {
	c.mu.Lock()
	if c.refill {
		c.tokens = min(c.tokens+0.1, 10)
	}
	c.mu.Unlock()
	window := Tick
	for k := 1; ; k++ {
		err := call(ctx)
		if err == nil || k == c.limit || ctx.Err() != nil || !c.take() {
			return err
		}
		if c.jitter {
			c.mu.Lock()
			d := time.Duration(c.rnd.Int64N(int64(window)))
			c.mu.Unlock()
			if !pause(ctx, d) {
				return ctx.Err()
			}
			window *= 2
		}
	}
}

func (c *budgeted) take() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens < 1 {
		return false
	}
	c.tokens--
	return true
}

// gaveUp is the error of a layer that has retried already: the layers above do not retry it (the
// Google SRE book's "overloaded; don't retry"), so that only the layer nearest the database
// retries.
type gaveUp struct{ err error }

func (g gaveUp) Error() string { return "gave up: " + g.err.Error() }

type oneLayer struct{}

func (oneLayer) Do(ctx context.Context, call func(context.Context) error) error {
	var err error
	for range 3 {
		if err = call(ctx); err == nil || errors.As(err, new(gaveUp)) || ctx.Err() != nil {
			return err
		}
	}
	return gaveUp{err}
}

// untilDeadline retries with full jitter and backoff until its context ends, at every layer.
type untilDeadline struct {
	mu  sync.Mutex
	rnd *rand.Rand
}

func (c *untilDeadline) Do(ctx context.Context, call func(context.Context) error) error {
	for window := Tick; ; window = min(2*window, 20*Tick) {
		err := call(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		c.mu.Lock()
		d := time.Duration(c.rnd.Int64N(int64(window)))
		c.mu.Unlock()
		if !pause(ctx, d) {
			return ctx.Err()
		}
	}
}

// liar says every request was served without calling anything.
type liar struct{}

func (liar) Do(context.Context, func(context.Context) error) error { return nil }

func runChain(t *testing.T, s Scenario, seed uint64, c func(*rand.Rand) Client) (r Report) {
	synctest.Test(t, func(*testing.T) {
		r = RunChain(s, seed, c)
		time.Sleep(time.Hour)
	})
	return r
}

// TestChainFigures runs the lesson's naive rule, the same number of attempts at every layer, through
// the call chain and finds seed 001's figures exactly: three attempts at each of four layers send 81
// calls to the database for every user request that meets the failover, 3⁵ = 243 with five layers,
// and the Google SRE book's three layers of four attempts 4³ = 64; each failover tick the database
// gets that many calls for each of the 20 requests a tick.
func TestChainFigures(t *testing.T) {
	tests := []struct {
		scenario string
		layers   int
		tries    int
		want     float64
	}{
		{"chain", 4, 3, 81},
		{"chain-3", 3, 4, 64},
		{"chain-5", 5, 3, 243},
		{"chain", 2, 3, 9},
		{"chain", 1, 3, 3},
		{"chain-long", 4, 3, 81},
		{"chain", 4, 1, 1},
	}
	for _, tt := range tests {
		s := scenarios[tt.scenario]
		c := *s.Chain
		c.Layers = tt.layers
		s.Chain, s.MaxRequests = &c, 0
		r := runChain(t, s, 1, tries(tt.tries, false))
		if got, _ := r.Value(DeepPerRequest); got != tt.want {
			t.Errorf("%s, %d layers of %d attempts: %v calls per request, want %v", tt.scenario, tt.layers, tt.tries, got, tt.want)
		}
		if want := int(tt.want) * c.Arrivals; r.Load[1] != want || r.Load[s.Down-1] != want {
			t.Errorf("%s, %d layers of %d attempts: load %d in tick 1, %d in tick %d, want %d", tt.scenario, tt.layers, tt.tries, r.Load[1], r.Load[s.Down-1], s.Down-1, want)
		}
		if got := r.Chain.Met; got != (s.Down-1)*c.Arrivals {
			t.Errorf("%s: %d requests met the failover, want %d", tt.scenario, got, (s.Down-1)*c.Arrivals)
		}
	}
}

// TestChainLimits: the course's policy (a budget of a tenth at every layer) and the other fixes the
// lesson names (a budget with a pause, retrying at the layer nearest the database only) stay within
// every chain's limits on the seeds drawn cases use; the plausible wrong policies fail.
func TestChainLimits(t *testing.T) {
	tests := []struct {
		name  string
		c     func(*rand.Rand) Client
		seeds []uint64
		ok    bool
		fails string // a figure past its limit when !ok
	}{
		{"reference", chainReference, []uint64{0, 1, 2, 7, 1000, 1 << 40}, true, ""},
		{"budget-with-jitter", func(rnd *rand.Rand) Client { return &budgeted{limit: 3, refill: true, jitter: true, rnd: rnd} }, []uint64{1, 2}, true, ""},
		{"budget-without-limit", func(rnd *rand.Rand) Client { return &budgeted{refill: true, rnd: rnd} }, []uint64{1}, true, ""},
		{"one-layer-retries", func(*rand.Rand) Client { return oneLayer{} }, []uint64{1, 2}, true, ""},
		{"three-at-every-layer", tries(3, false), []uint64{1}, false, DeepPerRequest},
		{"three-with-jitter-at-every-layer", tries(3, true), []uint64{1, 2}, false, DeepPerRequest},
		{"two-at-every-layer", tries(2, true), []uint64{1}, false, DeepPerRequest},
		{"never-retries", tries(1, false), []uint64{1, 2}, false, ServedAgain},
		{"budget-never-refills", func(rnd *rand.Rand) Client { return &budgeted{limit: 3, tokens: 10, rnd: rnd} }, []uint64{1, 2}, false, ServedAgain},
		{"until-deadline", func(rnd *rand.Rand) Client { return &untilDeadline{rnd: rnd} }, []uint64{1}, false, DeepPerRequest},
		{"liar", func(*rand.Rand) Client { return liar{} }, []uint64{1}, false, ServedAgain},
	}
	for _, name := range []string{"chain", "chain-3", "chain-5", "chain-long"} {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				for _, seed := range tt.seeds {
					r := runChain(t, scenarios[name], seed, tt.c)
					deep, _ := r.Value(DeepPerRequest)
					again, _ := r.Value(ServedAgain)
					if got := within(r); got != tt.ok {
						t.Errorf("seed %d: within limits %v, want %v (deep %v, peak %d, served again %v s, stuck %d)",
							seed, got, tt.ok, deep, r.Peak, again, r.Stuck)
					}
					if !tt.ok {
						for _, l := range r.Scenario.Limits {
							if v, ok := r.Value(l.Metric); l.Metric == tt.fails && ok && v <= l.Max {
								t.Errorf("seed %d: %s is %v, within its limit %v", seed, l.Metric, v, l.Max)
							}
						}
					}
					t.Logf("seed %d: deep %v, peak %d, served again %v s, stuck %d, requests %d", seed, deep, r.Peak, again, r.Stuck, r.Requests)
				}
			})
		}
	}
}

// TestChainSameFigures: a seed gives the same series and figures run after run, for the course's
// policy and for one that pauses with jitter (the clients' shared state is touched in one order).
func TestChainSameFigures(t *testing.T) {
	for _, c := range []func(*rand.Rand) Client{
		chainReference,
		func(rnd *rand.Rand) Client { return &budgeted{limit: 3, refill: true, jitter: true, rnd: rnd} },
		tries(3, true),
	} {
		a := runChain(t, scenarios["chain"], 5, c)
		for range 2 {
			b := runChain(t, scenarios["chain"], 5, c)
			if !slices.Equal(a.Load, b.Load) || !slices.Equal(a.Served, b.Served) || a.Chain.Deep != b.Chain.Deep || a.Chain.Again != b.Chain.Again {
				t.Fatalf("two runs of seed 5 differ: deep %v and %v, served again from tick %d and %d", a.Chain.Deep, b.Chain.Deep, a.Chain.Again, b.Chain.Again)
			}
		}
	}
}
