package scenario

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing/synctest"
	"time"
)

// Chain makes a scenario a call chain, seed 001's retry amplification: a user request goes down
// Layers hops (a gateway, a service, a data layer, a connection pool, …) to the database, which is
// the scenario's service. The learner's client makes every hop's calls:
//
//   - NewClient is called once for each layer (the generator of layer k is drawn from the seed and
//     k), and that one client makes the calls of every request that passes through its layer, the
//     way a real service has one client library object for its dependency. Its Do is called by
//     many requests at once, so its state (a retry budget) is the layer's.
//   - The call a layer's Do is given runs the next layer's Do with the context the attempt was
//     given (a deadline goes down the chain) and returns what it returned, the learner's own error
//     included: a layer may tell the layers above what kind of failure it was. A Do that returns
//     nil without an attempt of its own that succeeded reads as ErrBusy above it. The last layer's
//     call is one call to the database. Do is not told its layer: a policy that works at every layer
//     is the point.
//   - Users arrive open loop: Arrivals new requests a tick, for the ticks 0 to Until-1, each evenly
//     spaced within its tick, each with a deadline of Deadline, each run in a goroutine of its own.
//   - The database is down (the failover) for the ticks 0 to Down-1: a call then is refused at once
//     (ErrBusy: the connection is refused). From tick Down on a call waits for the next tick's
//     instant and is answered there, as the storm's service answers (Rate a tick, the rest
//     refused), but Lost per mille of the answers fail all the same (a dropped connection, a
//     deadlock victim): a policy that never retries loses those requests.
//
// Every goroutine the harness wakes (an answer, a new request) runs alone until it waits again
// (synctest.Wait after each), so a client's shared state is touched in the same order on every
// run, and a seed gives the same figures on every machine, for every client whose own timers never
// fire at the same instant as another's (any client drawing its pauses from its generator).
//
// The figures: DeepPerRequest, the database calls made for the requests that met the failover (their
// first call in a tick before Down), per such request: the naive policy of the lesson, three
// attempts at each of four layers, gives 3⁴ = 81 (TestChainFigures); ServedAgain, the seconds from
// the failover's end until every later request is served; PeakLoad, the most calls the database got
// in a tick from the failover's end on; and Stuck, requests whose Do had not returned Grace after
// the horizon.
type Chain struct {
	Layers   int           // hops above the database, each making its calls with the learner's client
	Arrivals int           // new user requests a tick
	Until    int           // users arrive during the ticks 0 to Until-1
	Deadline time.Duration // a user request's deadline, in the context its Do is given
	Lost     int           // per mille of the database's answers that fail all the same
}

// The figures of a call chain.
const (
	DeepPerRequest = "deep_per_request" // database calls per user request that met the failover
	ServedAgain    = "served_again_s"   // seconds from the failover's end until every later request is served
)

// chainScenario is the course's call chain with layers hops and a failover of down ticks: 20 user
// requests a tick (200 a second) against a database that answers 50 a tick (500 a second) and loses
// one answer in a hundred, users arriving until 12 s after the failover, a deadline of 5 s. The
// limits: at most three database calls per request that met the failover (what one layer retrying
// three times would send; the course's policy, a budget of a tenth at every layer, sends about
// 1.1^layers: TestChainLimits), never more than the database's capacity in a tick after it, every
// request served again within 2 s of its end, none stuck.
func chainScenario(name string, layers, down int) Scenario {
	c := &Chain{Layers: layers, Arrivals: 20, Until: down + 120, Deadline: 5 * time.Second, Lost: 10}
	users := c.Arrivals * c.Until
	return Scenario{Name: name, Clients: users, Down: down, Rate: 50, Cost: 0, Horizon: c.Until + 100,
		MaxRequests: int64(40 * users), Chain: c,
		Limits: []Limit{{DeepPerRequest, 3}, {PeakLoad, 50}, {ServedAgain, 2}, {Stuck, 0}}}
}

// ChainReport is what a call chain's run measured besides Report's series.
type ChainReport struct {
	Layers   int
	Arrivals int
	Met      int     // user requests that met the failover (their first call in a tick before Down)
	Deep     float64 // database calls made for them, per request, to two decimals
	// Again is the tick from which every user request was served (Down when every request after
	// the failover was), -1 when the last ones were not or the run was stopped.
	Again int
	// DeepCalls are, per tick, the database calls made for the requests that met the failover, and
	// MetAt how many of those requests had arrived by the tick's end: FirstOver reads them.
	DeepCalls []int
	MetAt     []int
}

// value returns the chain's figure metric of r.
func (c *ChainReport) value(r Report, metric string) (float64, bool) {
	switch metric {
	case DeepPerRequest:
		return c.Deep, c.Met > 0
	case ServedAgain:
		return float64(c.Again-r.Scenario.Down) / 10, c.Again >= 0
	}
	return 0, false
}

// firstOver returns the tick at which r first crossed the chain's limit l, or -1: the calls per
// request that met the failover, counted to each tick, past its limit; the requests not served
// again when its limit had passed.
func (c *ChainReport) firstOver(r Report, l Limit) int {
	switch l.Metric {
	case DeepPerRequest:
		calls := 0
		for t, n := range c.DeepCalls {
			calls += n
			if c.MetAt[t] > 0 && float64(calls) > l.Max*float64(c.MetAt[t]) {
				return t
			}
		}
	case ServedAgain:
		if v, ok := c.value(r, ServedAgain); !ok || v > l.Max {
			return r.Scenario.Down + int(l.Max*10)
		}
	}
	return -1
}

// chainRequest is one user request.
type chainRequest struct {
	id     int
	tick   int // the tick its first call belongs to
	calls  int // database calls made for it
	served bool
}

// chainAttempt is a database call waiting for its tick.
type chainAttempt struct {
	u      *chainRequest
	n      int // the request's database calls so far, this one included
	answer chan error
}

// chainService is the call chain of one run: the layers' clients and the database.
type chainService struct {
	s       Scenario
	c       Chain
	clients []Client
	r       *Report
	cancel  context.CancelFunc // ends every request's context
	mu      sync.Mutex
	next    int // the tick a database call made now belongs to
	line    []*chainAttempt
	closed  bool
	done    int   // requests whose Do returned
	deep    []int // per tick, database calls for requests that met the failover
}

// database is one call to the database for u.
func (cs *chainService) database(u *chainRequest) func(context.Context) error {
	return func(ctx context.Context) error {
		if ctx == nil {
			ctx = context.Background()
		}
		if err := ctx.Err(); err != nil {
			return err // a call whose context has ended is never sent
		}
		cs.mu.Lock()
		if cs.closed {
			cs.mu.Unlock()
			return errClosed
		}
		t := cs.next
		u.calls++
		cs.r.Requests++
		if t < len(cs.r.Load) {
			cs.r.Load[t]++
			if u.tick < cs.s.Down {
				cs.deep[t]++
			}
		}
		if m := cs.s.MaxRequests; m > 0 && cs.r.Requests >= m {
			cs.closed, cs.r.Stopped = true, t
			cs.mu.Unlock()
			cs.cancel() // a client that retries at once, deaf to errors, still sees its context end
			return errClosed
		}
		if t < cs.s.Down {
			cs.mu.Unlock()
			return errBusy // the failover: the connection is refused at once
		}
		a := &chainAttempt{u: u, n: u.calls, answer: make(chan error, 1)}
		cs.line = append(cs.line, a)
		cs.mu.Unlock()
		select {
		case err := <-a.answer:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// call is the call layer k's client is given for u: the next layer's Do, or the database.
func (cs *chainService) call(k int, u *chainRequest) func(context.Context) error {
	if k == len(cs.clients)-1 {
		return cs.database(u)
	}
	return func(ctx context.Context) error {
		if ctx == nil {
			ctx = context.Background()
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		cs.mu.Lock()
		closed := cs.closed
		cs.mu.Unlock()
		if closed {
			return errClosed
		}
		return cs.do(ctx, k+1, u)
	}
}

// do runs layer k's Do for u: its error, or ErrBusy when it returned nil without an attempt of its
// own that succeeded (a layer cannot make up an answer).
func (cs *chainService) do(ctx context.Context, k int, u *chainRequest) error {
	var ok atomic.Bool
	inner := cs.call(k, u)
	err := cs.clients[k].Do(ctx, func(ctx context.Context) error {
		err := inner(ctx)
		if err == nil {
			ok.Store(true)
		}
		return err
	})
	if err == nil && !ok.Load() {
		return errBusy
	}
	return err
}

// answer answers the line of tick t, one call at a time, each woken goroutine running alone until
// it waits again.
func (cs *chainService) answer(t int, line []*chainAttempt, lost *rand.Rand) {
	slices.SortFunc(line, func(a, b *chainAttempt) int {
		return cmp.Or(cmp.Compare(a.u.id, b.u.id), cmp.Compare(a.n, b.n))
	})
	n := cs.s.answered(t, len(line))
	for i, a := range line {
		err := errBusy
		if i < n && lost.IntN(1000) >= cs.c.Lost {
			err = nil
			cs.r.Served[t]++
		}
		a.answer <- err
		synctest.Wait()
	}
}

// RunChain runs the call chain s (s.Chain set) with seed: one client a layer made by newClient,
// users arriving as Chain says. It must be called inside a testing/synctest bubble, by one goroutine
// at a time.
func RunChain(s Scenario, seed uint64, newClient func(*rand.Rand) Client) Report {
	c := *s.Chain
	r := Report{Scenario: s, Seed: seed, All: -1, Stopped: -1, Load: make([]int, s.Horizon), Served: make([]int, s.Horizon)}
	root, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs := &chainService{s: s, c: c, r: &r, cancel: cancel, deep: make([]int, s.Horizon)}
	for k := range c.Layers {
		cs.clients = append(cs.clients, newClient(rand.New(rand.NewPCG(seed, uint64(k)))))
	}
	lost := rand.New(rand.NewPCG(seed, math.MaxUint64))
	start := time.Now()
	var users []*chainRequest
	for t := 0; t < s.Horizon; t++ {
		time.Sleep(time.Until(start.Add(time.Duration(t) * Tick)))
		synctest.Wait()
		cs.mu.Lock()
		over := cs.closed || t >= c.Until && cs.done == len(users) && len(cs.line) == 0
		line := cs.line
		cs.line, cs.next = nil, t+1
		cs.mu.Unlock()
		if over {
			break
		}
		cs.answer(t, line, lost)
		for i := range c.Arrivals {
			if t >= c.Until {
				break
			}
			time.Sleep(time.Until(start.Add(time.Duration(t)*Tick + time.Duration(i+1)*Tick/time.Duration(c.Arrivals+1))))
			synctest.Wait()
			cs.mu.Lock()
			closed := cs.closed
			cs.mu.Unlock()
			if closed {
				break
			}
			u := &chainRequest{id: len(users), tick: t + 1}
			users = append(users, u)
			ctx, cancelU := context.WithTimeout(root, c.Deadline)
			go func() {
				defer cancelU()
				err := cs.do(ctx, 0, u)
				cs.mu.Lock()
				u.served = err == nil
				cs.done++
				cs.mu.Unlock()
			}()
			synctest.Wait()
		}
	}
	cs.mu.Lock()
	cs.closed = true
	for _, a := range cs.line {
		a.answer <- errClosed
	}
	cs.line = nil
	cs.mu.Unlock()
	cancel()
	for waited := time.Duration(0); ; waited += Tick {
		synctest.Wait()
		cs.mu.Lock()
		r.Stuck = len(users) - cs.done
		cs.mu.Unlock()
		if r.Stuck == 0 || waited >= Grace {
			break
		}
		time.Sleep(Tick)
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	r.Chain = chainFigures(s, users, cs.deep, r.Stopped >= 0)
	for t := s.Down; t < len(r.Load); t++ {
		r.Peak = max(r.Peak, r.Load[t])
	}
	return r
}

// chainFigures measures the requests of a run: how many met the failover and the database calls
// they cost, and from when on every request was served.
func chainFigures(s Scenario, users []*chainRequest, deep []int, stopped bool) *ChainReport {
	c := &ChainReport{Layers: s.Chain.Layers, Arrivals: s.Chain.Arrivals, Again: s.Down, DeepCalls: deep, MetAt: make([]int, len(deep))}
	calls, last := 0, -1
	for _, u := range users {
		if u.tick < s.Down {
			c.Met++
			calls += u.calls
			if u.tick < len(c.MetAt) {
				c.MetAt[u.tick]++
			}
			continue
		}
		if !u.served {
			last = max(last, u.tick)
		}
	}
	for t := 1; t < len(c.MetAt); t++ {
		c.MetAt[t] += c.MetAt[t-1]
	}
	if c.Met > 0 {
		c.Deep = math.Round(float64(calls)/float64(c.Met)*100) / 100
	}
	switch {
	case stopped || last >= s.Chain.Until:
		c.Again = -1
	case last >= 0:
		c.Again = last + 1
	}
	return c
}

// chainReference is the course's policy in a call chain, run beside the learner's for the chart: at
// most three attempts a request, a retry only while the client's budget holds one (every request
// earns a tenth of a retry, at most ten are kept), no pause (a retry waits for the database's next
// tick anyway).
func chainReference(*rand.Rand) Client { return &budgetClient{} }

type budgetClient struct {
	mu     sync.Mutex
	tokens float64
}

func (c *budgetClient) Do(ctx context.Context, call func(context.Context) error) error {
	c.mu.Lock()
	c.tokens = min(c.tokens+0.1, 10)
	c.mu.Unlock()
	err := call(ctx)
	for attempt := 1; err != nil && attempt < 3 && ctx.Err() == nil && c.take(); attempt++ {
		err = call(ctx)
	}
	return err
}

// take spends a retry of the budget, if it holds one.
func (c *budgetClient) take() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens < 1 {
		return false
	}
	c.tokens--
	return true
}
