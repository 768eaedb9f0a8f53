package scenario

// Metastable failures: an open system (new calls every tick, whatever the service does) near its
// capacity, a short trigger, and a sustaining effect that outlives it (Bronson, Aghayev, Charapko,
// Zhu, "Metastable Failures in Distributed Systems", HotOS 2021; Huang et al., "Metastable Failures
// in the Wild", OSDI 2022; the overload lesson's slow disk).
//
// # The open service
//
// Every client (Scenario.Clients, each made once by the learner's NewClient and shared by all its
// calls, which may run at once) starts Open.Calls new calls a tick, at the tick's instant, each in a
// goroutine of its own: Do gets a context that ends Open.Deadline ticks later (the user has left by
// then) or at the horizon. An attempt joins the tick's batch; at the tick's instant, once every
// goroutine of the bubble has settled, the batch, in order of the calls' age (then client, call and
// attempt), joins the end of the service's queue, which has no bound. Then the service takes Rate
// attempts from the head of the queue (Open.Slow during the trigger, ticks Open.From to Down-1: 0
// is an outage) and answers each. It does not know whether the caller still waits: an attempt whose
// context ended before the tick (a per-attempt timeout, the call's deadline) costs its work like any
// other, and its answer is lost: that work is wasted. Open.Fail percent of the answers are a 503
// (ErrBusy) by chance, drawn from the seed in queue order: retries have a reason to exist.
//
// An attempt sent at instant t·Tick with a timeout of d·Tick is answered at tick t if the queue is
// short, and is wasted from tick t+d on; a retry sent when it times out is in tick t+d's batch,
// ahead of that tick's new calls. So the lesson's rule (wait 1 s, then retry, 3 attempts) run as a
// real client gives the lesson's figures to the answer (TestMetastableLesson).
//
// # Figures
//
//	recovered_s   whole seconds from the trigger's end until every following second, to the
//	              horizon, serves at least 90 % of the calls a second the clients make ("-": never)
//	lost_end_pct  percent of the calls of the run's last 30 s (those whose deadline falls within it)
//	              that were not served before their deadline
//	peak_load     most attempts in one tick from the trigger's end on
//	clients_stuck clients with a Do still running Grace after the horizon
//
// A call is served when an attempt of it is answered with nil before the call's deadline; the
// served line of the report counts calls served a tick (goodput), the wasted line the answers
// nobody waited for.

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing/synctest"
	"time"
)

// Open is an open system's parameters (Scenario.Open).
type Open struct {
	Calls    int // new calls a tick from each client
	Deadline int // ticks a call may take
	From     int // the trigger's first tick; it lasts to Scenario.Down-1
	Slow     int // answers a tick during the trigger (0: the service is down)
	Fail     int // percent of answers that are a 503 by chance
}

// The figures of an open system.
const (
	Recovered = "recovered_s"  // seconds from the trigger's end until the service stays healthy
	LostEnd   = "lost_end_pct" // percent of the last 30 s's calls not served
)

// Thresholds of the figures.
const (
	healthyPct = 90  // a healthy second serves at least this percent of the calls of a second
	endTicks   = 300 // the run's last 30 s, whose calls lost_end_pct counts
)

// metastableLimits: the course's throttling client (throttleClient) stays within them on every
// seed (TestMetastableLimits), the lesson's naive rules fail recovered_s on every seed.
var metastableLimits = []Limit{{Recovered, 10}, {LostEnd, 1}, {PeakLoad, 16}, {Stuck, 0}}

// metastable makes an open scenario of 8 clients, one call a tick each, against 10 answers a
// tick (80 % of its capacity), 3 s a call, 5 % of answers a 503: the overload lesson's service.
func metastable(name string, from, to, slow int) Scenario {
	return Scenario{Name: name, Clients: 8, Down: to, Rate: 10, Horizon: 600,
		MaxRequests: 40 * 8 * 600, Limits: metastableLimits,
		Open: &Open{Calls: 1, Deadline: 30, From: from, Slow: slow, Fail: 5}}
}

// job is one attempt in the service's queue.
type job struct {
	call   *openCall
	try    int
	gone   bool // the attempt's context ended before it was answered
	answer chan error
}

// openCall is one call of a client.
type openCall struct {
	client   int
	seq      int       // the client's calls before this one
	born     int       // the tick it was made
	deadline time.Time // its answer comes too late from then on
	tries    int
	served   bool
}

// openService is the queue of one open run.
type openService struct {
	s       Scenario
	mu      sync.Mutex
	batch   []*job
	queue   []*job
	closed  bool
	running []int // calls of each client whose Do has not returned
	fail    *rand.Rand
	wasted  []int
	calls   []*openCall
}

// attempt is one attempt of cl, given to the learner's Do as call.
func (sv *openService) attempt(cl *openCall) func(context.Context) error {
	return func(ctx context.Context) error {
		if ctx == nil {
			ctx = context.Background()
		}
		if err := ctx.Err(); err != nil {
			return err // an attempt whose context has ended is never sent
		}
		sv.mu.Lock()
		if sv.closed {
			sv.mu.Unlock()
			return errClosed
		}
		cl.tries++
		j := &job{call: cl, try: cl.tries, answer: make(chan error, 1)}
		sv.batch = append(sv.batch, j)
		sv.mu.Unlock()
		select {
		case err := <-j.answer:
			return err
		case <-ctx.Done():
			sv.mu.Lock()
			j.gone = true
			sv.mu.Unlock()
			return ctx.Err()
		}
	}
}

// capacity is how many attempts the service answers at tick t.
func (s Scenario) capacity(t int) int {
	if t >= s.Open.From && t < s.Down {
		return s.Open.Slow
	}
	return s.Rate
}

// take queues tick t's batch and takes from the head of the queue the attempts the tick's capacity
// allows: the service's work of the tick.
func (sv *openService) take(t int, r *Report) []*job {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	batch := sv.batch
	sv.batch = nil
	slices.SortFunc(batch, func(a, b *job) int {
		return cmp.Or(cmp.Compare(a.call.born, b.call.born), cmp.Compare(a.call.client, b.call.client),
			cmp.Compare(a.call.seq, b.call.seq), cmp.Compare(a.try, b.try))
	})
	sv.queue = append(sv.queue, batch...)
	n := min(sv.s.capacity(t), len(sv.queue))
	work := slices.Clone(sv.queue[:n])
	clear(sv.queue[:n])
	sv.queue = sv.queue[n:]
	r.Load[t] = len(batch)
	r.Requests += int64(len(batch))
	if t >= sv.s.Down {
		r.Peak = max(r.Peak, len(batch))
	}
	return work
}

// answer answers j at tick t: wasted when its attempt was abandoned, else nil or, by chance, a 503.
func (sv *openService) answer(t int, j *job, r *Report) {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if j.gone {
		sv.wasted[t]++
		return
	}
	if sv.fail.IntN(100) < sv.s.Open.Fail {
		j.answer <- errBusy
		return
	}
	j.answer <- nil
	if c := j.call; !c.served && time.Now().Before(c.deadline) {
		c.served = true
		r.Served[t]++
	}
}

// sleepUntil sleeps until the instant at.
func sleepUntil(at time.Time) {
	if d := time.Until(at); d > 0 {
		time.Sleep(d)
	}
}

// RunOpen runs the open scenario s (s.Open set) with seed: the clients made by newClient (each
// with a generator of its own, drawn from seed and its number) make their calls every tick until
// the horizon. It must be called inside a testing/synctest bubble, by one goroutine at a time.
func RunOpen(s Scenario, seed uint64, newClient func(*rand.Rand) Client) Report {
	o := s.Open
	r := Report{Scenario: s, Seed: seed, All: -1, Stopped: -1, Load: make([]int, s.Horizon),
		Served: make([]int, s.Horizon), Wasted: make([]int, s.Horizon)}
	sv := &openService{s: s, running: make([]int, s.Clients), fail: rand.New(rand.NewPCG(seed, math.MaxUint64)),
		wasted: r.Wasted}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients := make([]Client, s.Clients)
	for i := range clients {
		clients[i] = newClient(rand.New(rand.NewPCG(seed, uint64(i))))
	}
	// Every event the service makes has an instant of its own, so that no two goroutines of one
	// client wake at once and the clients' draws from their generators come in one order on
	// every machine: the n-th call is made n+1 ns after its tick, the service works at mid-tick
	// and gives its a-th answer a+1 ns after the last call's offset (all within 11 µs).
	start := time.Now()
	answerBase := time.Duration(s.Clients*o.Calls*s.Horizon) + 1
	answers := 0
	for t := 0; t < s.Horizon; t++ {
		tick := start.Add(time.Duration(t) * Tick)
		for i, c := range clients {
			for range o.Calls {
				sv.mu.Lock()
				n := len(sv.calls)
				cl := &openCall{client: i, seq: n, born: t, deadline: tick.Add(time.Duration(n+1) + time.Duration(o.Deadline)*Tick)}
				sv.calls = append(sv.calls, cl)
				sv.running[i]++
				sv.mu.Unlock()
				sleepUntil(tick.Add(time.Duration(n + 1)))
				go sv.do(ctx, c, cl)
			}
		}
		mid := tick.Add(Tick / 2)
		sleepUntil(mid)
		synctest.Wait()
		for _, j := range sv.take(t, &r) {
			sleepUntil(mid.Add(answerBase + time.Duration(answers)))
			answers++
			sv.answer(t, j, &r)
		}
		if s.MaxRequests > 0 && r.Requests >= s.MaxRequests {
			r.Stopped = t
			break
		}
		sleepUntil(tick.Add(Tick))
	}
	sv.mu.Lock()
	sv.closed = true
	for _, j := range append(sv.queue, sv.batch...) {
		j.answer <- errClosed
	}
	sv.queue, sv.batch = nil, nil
	sv.mu.Unlock()
	cancel()
	for waited := time.Duration(0); ; waited += Tick {
		synctest.Wait()
		sv.mu.Lock()
		r.Stuck = 0
		for _, n := range sv.running {
			if n > 0 {
				r.Stuck++
			}
		}
		sv.mu.Unlock()
		if r.Stuck == 0 || waited >= Grace {
			break
		}
		time.Sleep(Tick)
	}
	r.Extra, r.Lost, r.LostOf = openFigures(s, sv.calls, r.Served)
	return r
}

// do runs one call cl of client c: Do with a context that ends at the call's deadline.
func (sv *openService) do(ctx context.Context, c Client, cl *openCall) {
	ctx, cancel := context.WithDeadline(ctx, cl.deadline)
	defer func() {
		cancel()
		sv.mu.Lock()
		sv.running[cl.client]--
		sv.mu.Unlock()
	}()
	c.Do(ctx, sv.attempt(cl))
}

// openFigures measures recovered_s and lost_end_pct (see Figures); recovered_s is left out when
// the service never recovered. It returns besides the calls lost_end_pct counts: those lost, by
// the tick of their deadline, and how many there were.
func openFigures(s Scenario, calls []*openCall, served []int) (fig map[string]float64, lostAt []int, made int) {
	fig = map[string]float64{}
	perSecond := int(time.Second / Tick)
	offered := s.Clients * s.Open.Calls * perSecond
	recovered := -1
	for k := (s.Horizon-s.Down)/perSecond - 1; k >= 0; k-- {
		sum := 0
		for _, n := range served[s.Down+k*perSecond : s.Down+(k+1)*perSecond] {
			sum += n
		}
		if 100*sum < healthyPct*offered {
			break
		}
		recovered = k
	}
	if recovered >= 0 {
		fig[Recovered] = float64(recovered)
	}
	lost := 0
	lostAt = make([]int, s.Horizon+1)
	for _, c := range calls {
		if c.born >= s.Horizon-endTicks && c.born+s.Open.Deadline <= s.Horizon {
			made++
			if !c.served {
				lost++
				lostAt[c.born+s.Open.Deadline]++
			}
		}
	}
	if made > 0 {
		fig[LostEnd] = lostPct(lost, made)
	}
	return fig, lostAt, made
}

// lostPct is lost of made in percent, to a tenth.
func lostPct(lost, made int) float64 { return math.Round(float64(lost)/float64(made)*1000) / 10 }

// throttleClient is the course's client for the metastable scenarios, run beside the learner's
// for the chart: a timeout of 1 s an attempt, up to 3 attempts, each through Google SRE's adaptive
// throttling with K = 2: an attempt is refused by the client itself, never sent, with probability
// max(0, (requests − K·accepts)/(requests + 1)), and a call so refused ends. Both counts are
// halved every half second (throttleHalf), so that they weigh the last second or so.
func throttleClient(rnd *rand.Rand) Client { return &throttle{rnd: rnd, since: time.Now()} }

// throttleHalf is how often the throttle halves its counts. Halved every second, they remember
// so much of the trigger that the throttle needs up to 15 s to open up again after it.
const throttleHalf = 500 * time.Millisecond

type throttle struct {
	mu                sync.Mutex
	rnd               *rand.Rand
	requests, accepts float64
	since             time.Time // the counts were last halved then
}

// forget halves the counts for every throttleHalf since they were last halved.
func (c *throttle) forget() {
	for time.Since(c.since) >= throttleHalf {
		c.requests /= 2
		c.accepts /= 2
		c.since = c.since.Add(throttleHalf)
	}
}

// admit counts an attempt and says whether to send it.
func (c *throttle) admit() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forget()
	p := (c.requests - 2*c.accepts) / (c.requests + 1)
	c.requests++
	return c.rnd.Float64() >= p
}

// accepted counts an attempt the service answered.
func (c *throttle) accepted() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forget()
	c.accepts++
}

func (c *throttle) Do(ctx context.Context, call func(context.Context) error) error {
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
