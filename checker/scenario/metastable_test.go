package scenario

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func runOpen(t *testing.T, s Scenario, seed uint64, c func(*rand.Rand) Client) (r Report) {
	synctest.Test(t, func(*testing.T) { r = RunOpen(s, seed, c) })
	return r
}

// naive is the lesson's rule: a timeout of perTry an attempt, up to tries attempts, pause between
// two.
type naive struct {
	perTry, pause time.Duration
	tries         int
}

func (n naive) Do(ctx context.Context, call func(context.Context) error) error {
	var err error
	for try := 0; try < n.tries; try++ {
		if try > 0 && n.pause > 0 && !pauseCtx(ctx, n.pause) {
			return ctx.Err()
		}
		attempt, cancel := context.WithTimeout(ctx, n.perTry)
		err = call(attempt)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
	}
	return err
}

func pauseCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func naivePolicy(perTry, pause time.Duration, tries int) func(*rand.Rand) Client {
	return func(*rand.Rand) Client { return naive{perTry, pause, tries} }
}

// breaker opens after 5 failures in a row, refusing every attempt itself for a cooldown of 1 to 2
// s; then it lets one probe through, which closes it or opens it again. With never it stays open.
type breaker struct {
	mu      sync.Mutex
	rnd     *rand.Rand
	never   bool
	fails   int
	until   time.Time // open until then
	probing bool
}

func (b *breaker) allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fails < 5 {
		return true
	}
	if b.never || b.probing || time.Now().Before(b.until) {
		return false
	}
	b.probing = true
	return true
}

func (b *breaker) record(ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
	if ok {
		b.fails = 0
		return
	}
	b.fails++
	if b.fails >= 5 {
		b.until = time.Now().Add(time.Second + time.Duration(b.rnd.Int64N(int64(time.Second))))
	}
}

func (b *breaker) Do(ctx context.Context, call func(context.Context) error) error {
	err := ctx.Err()
	for try := 0; try < 3 && ctx.Err() == nil; try++ {
		if !b.allow() {
			return ErrBusy
		}
		attempt, cancel := context.WithTimeout(ctx, time.Second)
		err = call(attempt)
		cancel()
		b.record(err == nil)
		if err == nil {
			return nil
		}
	}
	return err
}

// bucket is gRPC's retry throttling (proposal A6): 10 tokens, a failure takes one, a success gives
// back ratio; a retry only while more than half are left. With ratio 0 the bucket never refills.
type bucket struct {
	mu            sync.Mutex
	tokens, ratio float64
}

func (b *bucket) Do(ctx context.Context, call func(context.Context) error) error {
	err := ctx.Err()
	for try := 0; try < 3 && ctx.Err() == nil; try++ {
		b.mu.Lock()
		ok := try == 0 || b.tokens > 5
		b.mu.Unlock()
		if !ok {
			return err
		}
		attempt, cancel := context.WithTimeout(ctx, time.Second)
		err = call(attempt)
		cancel()
		b.mu.Lock()
		if err == nil {
			b.tokens = min(10, b.tokens+b.ratio)
		} else {
			b.tokens = max(0, b.tokens-1)
		}
		b.mu.Unlock()
		if err == nil {
			return nil
		}
	}
	return err
}

// fixedThrottle is the course's throttle with its die loaded: it refuses when the probability is
// over one half, so once it refuses everything it never sends the attempt that would tell it the
// service is back.
type fixedThrottle struct{ throttle }

func (c *fixedThrottle) admit() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forget()
	p := (c.requests - 2*c.accepts) / (c.requests + 1)
	c.requests++
	return p <= 0.5
}

func (c *fixedThrottle) Do(ctx context.Context, call func(context.Context) error) error {
	err := ctx.Err()
	for try := 0; try < 3 && ctx.Err() == nil; try++ {
		if !c.admit() {
			return ErrBusy
		}
		attempt, cancel := context.WithTimeout(ctx, time.Second)
		err = call(attempt)
		cancel()
		if err == nil {
			c.accepted()
			return nil
		}
	}
	return err
}

var (
	lessonRule  = naivePolicy(time.Second, 0, 3)
	fixedPause  = naivePolicy(time.Second, 200*time.Millisecond, 3)
	single      = naivePolicy(3*time.Second, 0, 1)
	halfOpen    = func(rnd *rand.Rand) Client { return &breaker{rnd: rnd} }
	neverHalf   = func(rnd *rand.Rand) Client { return &breaker{rnd: rnd, never: true} }
	grpcBucket  = func(*rand.Rand) Client { return &bucket{tokens: 10, ratio: 0.1} }
	emptyBucket = func(*rand.Rand) Client { return &bucket{tokens: 10} }
	loadedDie   = func(rnd *rand.Rand) Client { return &fixedThrottle{throttle{rnd: rnd, since: time.Now()}} }
)

// lessonModel is the overload lesson's queue model (program queue, policy fifo) with one change,
// the one exercise-shed makes too: a retry joins the tail of the queue like any new call (in the
// lesson it stands right behind its original). It returns, a tick, the answers somebody still
// waited for and the wasted ones.
func lessonModel(rate, wait, tries, slowAt, slowTo, high, low, ticks int) (useful, wasted []int) {
	type request struct{ deadline, try int }
	var queue []request
	useful, wasted = make([]int, ticks), make([]int, ticks)
	for t := range ticks {
		var retries []request
		for _, r := range queue {
			if r.deadline == t && r.try < tries {
				retries = append(retries, request{t + wait, r.try + 1})
			}
		}
		queue = append(queue, retries...)
		for range rate {
			queue = append(queue, request{t + wait, 1})
		}
		n := high
		if t >= slowAt && t < slowTo {
			n = low
		}
		for ; n > 0 && len(queue) > 0; n-- {
			if queue[0].deadline > t {
				useful[t]++
			} else {
				wasted[t]++
			}
			queue = queue[1:]
		}
	}
	return useful, wasted
}

// TestMetastableLesson runs the overload lesson's rule (wait 1 s, then retry, 3 attempts) as a
// real client through the open service with the lesson's slow disk and no 503 by chance, and
// compares it, tick by tick, with the lesson's model (lessonModel): 180/0 56/44 0/250 … in
// windows of 25 ticks, useful answers / wasted ones.
func TestMetastableLesson(t *testing.T) {
	s := scenarios["metastable"]
	o := *s.Open
	o.Fail = 0
	s.Open, s.Horizon = &o, 200
	r := runOpen(t, s, 1, lessonRule)
	useful, wasted := lessonModel(8, 10, 3, 20, 50, 10, 4, 200)
	for i := range useful {
		if r.Served[i] != useful[i] || r.Wasted[i] != wasted[i] {
			t.Fatalf("tick %d: %d useful, %d wasted; the lesson's model %d, %d", i, r.Served[i], r.Wasted[i], useful[i], wasted[i])
		}
	}
	var got []string
	for w := 0; w < 200; w += 25 {
		u, x := 0, 0
		for i := w; i < w+25; i++ {
			u += r.Served[i]
			x += r.Wasted[i]
		}
		got = append(got, fmt.Sprint(u, "/", x))
	}
	if want := "180/0 56/44 0/250 0/250 0/250 0/250 0/250 0/250"; strings.Join(got, " ") != want {
		t.Errorf("windows %s, want %s", strings.Join(got, " "), want)
	}
}

// figures says the figures of r in one line.
func figures(r Report) string {
	var b strings.Builder
	for _, l := range r.Scenario.Limits {
		v, ok := r.Value(l.Metric)
		if ok {
			fmt.Fprintf(&b, " %s=%v", l.Metric, v)
		} else {
			fmt.Fprintf(&b, " %s=-", l.Metric)
		}
	}
	return strings.TrimSpace(b.String())
}

// TestMetastableLimits: the course's throttle, a breaker that half-opens and gRPC's token bucket
// let the service recover within the limits on every seed drawn cases use; the lesson's rules,
// with or without a pause, keep it down to the end of the run; the plausible wrong throttles fail.
func TestMetastableLimits(t *testing.T) {
	seeds := []uint64{0, 1, 2, 7, 1000, 1 << 40}
	all := map[string]bool{"metastable": true, "metastable-down": true, "metastable-failover": true}
	tests := []struct {
		name string
		c    func(*rand.Rand) Client
		ok   map[string]bool // by scenario
	}{
		{"throttle", throttleClient, all},
		{"breaker", halfOpen, all},
		// A budget bounds the retries, not the first attempts: in the 8 s failover those alone
		// fill the queue with 640 attempts, which take half a minute to drain at 2 a tick.
		{"bucket", grpcBucket, map[string]bool{"metastable": true, "metastable-down": true}},
		{"lesson-rule", lessonRule, nil},
		{"fixed-pause", fixedPause, nil},
		{"single-attempt", single, nil},
		{"breaker-never-half-opens", neverHalf, nil},
		{"bucket-never-refills", emptyBucket, nil},
		{"throttle-without-chance", loadedDie, nil},
	}
	for _, name := range []string{"metastable", "metastable-down", "metastable-failover"} {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				for _, seed := range seeds {
					r := runOpen(t, scenarios[name], seed, tt.c)
					t.Logf("seed %d: %s", seed, figures(r))
					if got := within(r); got != tt.ok[name] {
						t.Errorf("seed %d: within limits %v, want %v (%s)", seed, got, tt.ok[name], figures(r))
					}
				}
			})
		}
	}
}

// TestMetastableSameSeed: the same client and seed give the same series, although every client's
// calls run at once in many goroutines that share its generator (RunOpen gives every event an
// instant of its own).
func TestMetastableSameSeed(t *testing.T) {
	for _, name := range []string{"metastable", "metastable-down", "metastable-failover"} {
		for seed := uint64(0); seed < 4; seed++ {
			a := runOpen(t, scenarios[name], seed, throttleClient)
			b := runOpen(t, scenarios[name], seed, throttleClient)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s seed %d: two runs differ: %s / %s", name, seed, figures(a), figures(b))
			}
		}
	}
}
