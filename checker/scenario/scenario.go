// Package scenario is the course's simulated service and the harness of its scenario exercises: the
// learner's own client, real Go with real time, context and math/rand/v2, is run as every one of
// many virtual clients (goroutines of one testing/synctest bubble) against a service with a
// capacity, a cost for refusing and a scripted trigger, and what the clients did is measured and
// printed, each figure against the limit the scenario states. A scenario exercise's program is
//
//	package main
//
//	func main() { scenario.Main(NewClient) }
//
//	// NewClient is called once for every virtual client, with the client's own generator.
//	func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }
//
//	// Do makes the request: it calls call (one attempt) until an attempt succeeds or it gives up.
//	func (c *client) Do(ctx context.Context, call func(context.Context) error) error { … }
//
// and a case runs it as `run -scenario storm -seed 17`, then `metrics`: every figure within its
// limit. The checker builds this package's files (its tests left out) into the program as a module
// of its own, as it does the flaky service, and refuses every import of the learner's but a few (context, errors, math,
// math/rand/v2, sync, sync/atomic, time and this package), so that only this package writes the
// program's stdout.
//
// # The service
//
// Time runs in ticks (Tick, 100 ms). The service takes the attempts that arrived since its last tick
// and, at the tick's instant, once every goroutine of the bubble has settled (synctest.Wait), answers
// them in one go, in line: who was answered earlier stands first (the service numbers its answers),
// then by client number. It answers as many as its work budget allows and refuses the rest (an
// error, ErrBusy): an answer costs one unit of work, a refusal Cost percent of one, the budget is
// Rate units a tick, and during the trigger (ticks 0 to Down-1: the service is down) it answers
// none. A client that calls again at once, or after a pause of one Tick, is in the next tick's
// line; after a pause of d·Tick (d a whole number) d ticks later. So a client's pause of k ticks is
// internal/storm's pause of k. The service hands a tick's answers out one at a time, in line order,
// and lets the client that got one run until it waits again before the next; the clients start
// the same way, one at a time by number, each making its first call at instant 0 (tick 0). So
// clients that share state touch it in the same order on every run, and the lesson's six rules,
// drawing from one course generator as its model does, give the model's figures tick by tick
// (TestStormFigures), the seed's too (TestIssueFigures).
//
// The peak (peak_load) is what the seed counts: the requests that reached the service in one
// 100 ms tick, refused ones included, from the trigger's end on. The seed's "peak of 44–94 a tick,
// everyone served in 23–30 s" spans its three jittered rules in one run (full jitter has the
// lowest peak, decorrelated the highest), not the seeds of one rule.
//
// The run ends when every client's Do has returned, once the clients have sent MaxRequests
// requests, or at the scenario's horizon: then every context
// the clients were given ends, calls fail with ErrClosed and are not counted, and Do has Grace of
// virtual time to return; a client still in Do after it is counted as stuck.
//
// # Output
//
// Main prints, for the checker to read (the learner's words never reach stdout):
//
//	scenario storm seed 17 clients 2000 rate 50 cost 0 down 100 tick 100ms
//	load 2000 0 0 … 1 0 3                      requests per tick, to the last tick with one
//	served 0 0 … 50 21 …                       answers per tick
//	reference 2000 0 …                         with -reference: the course's jittered policy's load
//	metric peak_load 88 100                    NAME VALUE LIMIT ("-" for a value never reached)
//	stopped 3.1                                the run was stopped there for MaxRequests
//	first_over 12.3                            the first instant past a limit, when there is one
//
// An open system's report (metastable.go) adds its parameters to the first line (from 20 slow 4
// calls 1 deadline 30 fail 5) and a line `wasted 0 0 … 10 10`: the answers a tick nobody waited for.
//
// Same scenario, same seed, same client: same figures on every machine.
//
// The storm is a closed system: a fixed crowd, one request each. Other service models live in files
// of their own and are picked by the Scenario's fields: metastable.go's open system (Scenario.Open:
// new calls every tick, a queue, work wasted on callers that left), whose report adds a wasted line
// and the figures recovered_s and lost_end_pct.
//
// # Call chains
//
// A scenario with a Chain (chain, chain-3, chain-5, chain-long; chain.go) is seed 001's retry
// amplification: the learner's client makes the calls of every layer of a call chain above the
// database, one client a layer shared by every request, users arrive steadily, and the figures are
// the database calls per request during the failover, the peak after it, and how soon every
// request is served again. Chain's documentation says how.
package scenario

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing/synctest"
	"time"
)

// Client is what the learner writes: one virtual client, made by the learner's NewClient.
type Client interface {
	// Do makes one request of the client: it calls call, one attempt each time, until an attempt
	// returns nil or it gives up, and returns the last attempt's error (nil once served).
	Do(ctx context.Context, call func(context.Context) error) error
}

// The errors an attempt returns (errors.Is tells them; the harness answers with its own copies, so
// that a program that reassigns these changes nothing but its own view).
var (
	ErrBusy   = errBusy   // refused: down, or over its budget
	ErrClosed = errClosed // called after the horizon
)

var (
	errBusy   = errors.New("503 Service Unavailable")
	errClosed = errors.New("the scenario is over")
)

// Tick is the service's tick.
const Tick = 100 * time.Millisecond

// Grace is how long a client's Do may run on after the horizon ended its context.
const Grace = 10 * time.Second

// Scenario is one incident.
type Scenario struct {
	Name    string
	Clients int // clients, each making one request at instant 0
	Down    int // the trigger: the service answers none for ticks 0..Down-1
	Rate    int // answers per tick once it is up
	Cost    int // price of a refusal, percent of an answer (0..99)
	Horizon int // ticks measured
	// MaxRequests stops the run once the clients have sent that many requests (0: no bound), so
	// that a storm a client sets off costs the check a fraction of a second, not its time limit.
	MaxRequests int64
	Limits      []Limit
	// Open makes the scenario an open system (metastable.go): nil for the storm.
	Open *Open
	// Chain makes the scenario a call chain (chain.go), nil for one service and its clients.
	Chain *Chain
}

// Limit is the most a figure may be.
type Limit struct {
	Metric string
	Max    float64
}

// The figures a run is judged by.
const (
	PeakLoad          = "peak_load"           // most requests in one tick from the end of the trigger on
	RequestsPerClient = "requests_per_client" // requests sent, on average per client
	AllServed         = "all_served_s"        // seconds until the last client was answered
	Stuck             = "clients_stuck"       // clients still in Do Grace after the horizon
)

// scenarios are the course's incidents, by name.
var scenarios = map[string]Scenario{
	// storm is seed 000's retry storm: 2000 clients, down 10 s, then 500 answers a second,
	// refusals free.
	"storm": {Name: "storm", Clients: 2000, Down: 100, Rate: 50, Cost: 0, Horizon: 600,
		MaxRequests: 40 * 2000, Limits: stormLimits},
	// storm-cost is the same with refusals that cost a tenth of an answer.
	"storm-cost": {Name: "storm-cost", Clients: 2000, Down: 100, Rate: 50, Cost: 10, Horizon: 600,
		MaxRequests: 40 * 2000, Limits: stormLimits},
	// outage is a trigger that outlasts the run: the service stays down for the whole minute. A
	// client that keeps to its context stops when the run ends and, backing off, sends a dozen
	// requests; the course's policy sends 13 to 14 (TestLimits).
	"outage": {Name: "outage", Clients: 2000, Down: 600, Rate: 50, Cost: 0, Horizon: 600,
		MaxRequests: 40 * 2000, Limits: []Limit{{RequestsPerClient, 20}, {Stuck, 0}}},
	// metastable is the overload lesson's slow disk (4 answers a tick for 3 s from 2 s on);
	// metastable-down an outage of 2 s; metastable-failover seed 001's failover of 8 s, 10 s into
	// the run (metastable.go).
	"metastable":          metastable("metastable", 20, 50, 4),
	"metastable-down":     metastable("metastable-down", 20, 40, 0),
	"metastable-failover": metastable("metastable-failover", 100, 180, 0),
	// chain is seed 001's call chain: four layers above a database that fails over for 8 s;
	// chain-3 and chain-5 have three and five layers, chain-long a failover of 20 s (chain.go).
	"chain":      chainScenario("chain", 4, 80),
	"chain-3":    chainScenario("chain-3", 3, 80),
	"chain-5":    chainScenario("chain-5", 5, 80),
	"chain-long": chainScenario("chain-long", 4, 200),
}

// stormLimits: the course's jittered policy (referenceClient) stays within them on every seed
// (TestLimits: on seeds 0 to 39 everyone is served in 29.2 to 29.9 s, the peak is 28 to 49, 9.2 to
// 9.3 requests a client; the lesson's model, one generator for all, gives full jitter 37 at its
// seed 7 and 44 at the seed's): a peak of at most twice the capacity, everyone served within
// 32 s, at most 12 requests a client.
var stormLimits = []Limit{{PeakLoad, 100}, {AllServed, 32}, {RequestsPerClient, 12}, {Stuck, 0}}

// Report is what one run measured.
type Report struct {
	Scenario Scenario
	Seed     uint64
	Load     []int // requests per tick
	Served   []int // answers per tick
	Requests int64 // requests in all
	Peak     int   // most requests in one tick from tick Down on
	All      int   // tick at which the last client was answered, -1 if never
	Stuck    int   // clients whose Do had not returned Grace after the horizon
	// Stopped is the tick after which the run was stopped for MaxRequests, -1 when it was not.
	Stopped int
	// Wasted is the answers a tick nobody waited for any more (an open system's, else nil).
	Wasted []int
	// Extra are the figures a service model measures besides the storm's, by name; a figure
	// never reached is left out.
	Extra map[string]float64
	// Chain is what a call chain's run measured besides (Scenario.Chain set), nil otherwise.
	Chain *ChainReport
	// Lost is an open system's calls that lost_end_pct counts and that were lost, by the tick of
	// their deadline (a tick past the horizon for the last), and LostOf how many calls it counts:
	// FirstOver reads them.
	Lost   []int
	LostOf int
}

// Value returns the figure metric of r and whether it was reached at all.
func (r Report) Value(metric string) (float64, bool) {
	switch metric {
	case PeakLoad:
		return float64(r.Peak), true
	case RequestsPerClient:
		return math.Round(float64(r.Requests)/float64(r.Scenario.Clients)*10) / 10, true
	case AllServed:
		return float64(r.All) / 10, r.All >= 0
	case Stuck:
		return float64(r.Stuck), true
	}
	if r.Chain != nil {
		return r.Chain.value(r, metric)
	}
	v, ok := r.Extra[metric]
	return v, ok
}

// FirstOver returns the tick at which the run first crossed a limit, or -1: the peak's limit by a
// tick's load; the serving time's and the recovery's at the limit when someone was not served, or
// the service had not recovered, by then; the requests a client's when the requests sent so far
// passed it; the calls lost at the end when the calls lost so far had passed it; a call chain's
// limits as ChainReport says. Clients stuck after the horizon have no moment of their own.
func (r Report) FirstOver() int {
	first := -1
	for _, l := range r.Scenario.Limits {
		at := -1
		switch l.Metric {
		case PeakLoad:
			for t := r.Scenario.Down; t < len(r.Load); t++ {
				if float64(r.Load[t]) > l.Max {
					at = t
					break
				}
			}
		case AllServed:
			if v, ok := r.Value(AllServed); !ok || v > l.Max {
				at = int(l.Max * 10)
			}
		case Recovered:
			if v, ok := r.Value(Recovered); !ok || v > l.Max {
				at = min(r.Scenario.Down+int(l.Max*10), len(r.Load)-1)
			}
		case RequestsPerClient:
			sent := 0
			for t, n := range r.Load {
				sent += n
				if math.Round(float64(sent)/float64(r.Scenario.Clients)*10)/10 > l.Max {
					at = t
					break
				}
			}
		case LostEnd:
			lost := 0
			for t, n := range r.Lost {
				lost += n
				if r.LostOf > 0 && lostPct(lost, r.LostOf) > l.Max {
					at = min(t, len(r.Load)-1)
					break
				}
			}
		default:
			if r.Chain != nil {
				at = r.Chain.firstOver(r, l)
			}
		}
		if at >= 0 && (first < 0 || at < first) {
			first = at
		}
	}
	return first
}

// attempt is one call waiting in a tick's line.
type attempt struct {
	c      *client
	seq    uint64 // the client's place: the number of its last answer
	n      uint64 // the client's calls so far, this one included
	answer chan error
}

// client is the harness's record of one virtual client.
type client struct {
	id     int
	seq    uint64
	calls  uint64
	served bool
}

// service is the simulated service of one run.
type service struct {
	s       Scenario
	mu      sync.Mutex
	line    []*attempt
	answers uint64
	closed  bool
	done    int // clients whose Do returned
}

// call is one attempt of c, given to the learner's Do.
func (sv *service) call(c *client) func(context.Context) error {
	return func(ctx context.Context) error {
		if ctx == nil {
			ctx = context.Background()
		}
		if err := ctx.Err(); err != nil {
			return err // a request whose context has ended is never sent
		}
		sv.mu.Lock()
		if sv.closed {
			sv.mu.Unlock()
			return errClosed
		}
		c.calls++
		a := &attempt{c: c, seq: c.seq, n: c.calls, answer: make(chan error, 1)}
		sv.line = append(sv.line, a)
		sv.mu.Unlock()
		select {
		case err := <-a.answer:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// answered is how many of n attempts the service answers at tick t: the most s with s answers and
// n-s refusals within the budget (internal/storm's rule).
func (s Scenario) answered(t, n int) int {
	if t < s.Down {
		return 0
	}
	left := 100*s.Rate - s.Cost*n
	if left <= 0 {
		return 0
	}
	return min(n, left/(100-s.Cost))
}

// tick answers the line of tick t and records it in r. It hands the answers out one at a time, in
// line order, and lets the client that got one run until it waits again (synctest.Wait) before the
// next: clients that share state (one generator drawn in line order, as the lesson's model draws
// it; a budget of the learner's) touch it in the same order on every run.
func (sv *service) tick(t int, r *Report) {
	sv.mu.Lock()
	line := sv.line
	sv.line = nil
	slices.SortFunc(line, func(a, b *attempt) int {
		return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(a.c.id, b.c.id), cmp.Compare(a.n, b.n))
	})
	s := sv.s.answered(t, len(line))
	for i, a := range line {
		sv.answers++
		a.c.seq = sv.answers
		if i < s && !a.c.served {
			a.c.served = true
			r.All = t // the last first answer so far
		}
	}
	r.Load[t], r.Served[t] = len(line), s
	r.Requests += int64(len(line))
	if t >= sv.s.Down {
		r.Peak = max(r.Peak, len(line))
	}
	sv.mu.Unlock()
	for i, a := range line {
		if i < s {
			a.answer <- nil
		} else {
			a.answer <- errBusy
		}
		synctest.Wait()
	}
}

// Run runs s with seed: every client made by newClient (with a generator of its own, drawn from
// seed and its number) makes one request at instant 0. It must be called inside a testing/synctest
// bubble, by one goroutine at a time.
func Run(s Scenario, seed uint64, newClient func(*rand.Rand) Client) Report {
	r := Report{Scenario: s, Seed: seed, All: -1, Stopped: -1, Load: make([]int, s.Horizon), Served: make([]int, s.Horizon)}
	sv := &service{s: s}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients := make([]*client, s.Clients)
	for i := range clients {
		clients[i] = &client{id: i}
		c := newClient(rand.New(rand.NewPCG(seed, uint64(i))))
		go func(me *client) {
			defer func() {
				sv.mu.Lock()
				sv.done++
				sv.mu.Unlock()
			}()
			c.Do(ctx, sv.call(me))
		}(clients[i])
		synctest.Wait() // one client at a time, by number, as tick hands out answers
	}
	for t := 0; t < s.Horizon; t++ {
		if t > 0 {
			time.Sleep(Tick)
		}
		synctest.Wait()
		sv.mu.Lock()
		over := sv.done == s.Clients && len(sv.line) == 0
		sv.mu.Unlock()
		if over {
			break
		}
		sv.tick(t, &r)
		if s.MaxRequests > 0 && r.Requests >= s.MaxRequests {
			r.Stopped = t
			break
		}
	}
	sv.mu.Lock()
	sv.closed = true
	for _, a := range sv.line {
		a.answer <- errClosed
	}
	sv.line = nil
	sv.mu.Unlock()
	cancel()
	for waited := time.Duration(0); ; waited += Tick {
		synctest.Wait()
		sv.mu.Lock()
		r.Stuck = s.Clients - sv.done
		sv.mu.Unlock()
		if r.Stuck == 0 || waited >= Grace {
			break
		}
		time.Sleep(Tick)
	}
	for _, c := range clients {
		if !c.served {
			r.All = -1
		}
	}
	return r
}

// referenceClient is the course's jittered policy, run beside the learner's for the chart: full
// jitter, a window of one tick doubled after every refusal up to 20 s.
func referenceClient(rnd *rand.Rand) Client { return &reference{rnd: rnd} }

type reference struct{ rnd *rand.Rand }

func (c *reference) Do(ctx context.Context, call func(context.Context) error) error {
	window := Tick
	for {
		err := call(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		t := time.NewTimer(time.Duration(c.rnd.Int64N(int64(window))) + 1)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		window = min(2*window, 200*Tick)
	}
}

// Main runs the scenario the arguments name (-scenario NAME -seed N) with the learner's clients,
// and with -reference also with referenceClient, and prints the report (see Output). Bad
// arguments: a usage line on stderr and exit code 2. It must be called inside a testing/synctest bubble, as the checker's
// virtual-time harness calls main; only its first call runs.
func Main(newClient func(*rand.Rand) Client) {
	mainOnce.Do(func() {
		s, seed, withRef, err := parseArgs(os.Args[1:])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			fmt.Fprintln(os.Stderr, "usage: prog -scenario NAME -seed N")
			os.Exit(2)
		}
		run, reference := Run, referenceClient
		if s.Open != nil {
			run, reference = RunOpen, throttleClient
		}
		if s.Chain != nil {
			run, reference = RunChain, chainReference
		}
		r := run(s, seed, newClient)
		var ref *Report
		if withRef {
			rr := run(s, seed, reference)
			ref = &rr
		}
		printReport(os.Stdout, r, ref)
	})
}

var mainOnce sync.Once

// parseArgs reads -scenario and -seed.
func parseArgs(args []string) (s Scenario, seed uint64, withRef bool, err error) {
	fs := flag.NewFlagSet("scenario", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("scenario", "storm", "")
	fs.Uint64Var(&seed, "seed", 1, "")
	fs.BoolVar(&withRef, "reference", false, "")
	if err := fs.Parse(args); err != nil {
		return Scenario{}, 0, false, err
	}
	if fs.NArg() > 0 {
		return Scenario{}, 0, false, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	sc, ok := scenarios[*name]
	if !ok {
		names := make([]string, 0, len(scenarios))
		for n := range scenarios {
			names = append(names, n)
		}
		slices.Sort(names)
		return Scenario{}, 0, false, fmt.Errorf("unknown scenario %q (want one of %s)", *name, strings.Join(names, ", "))
	}
	return sc, seed, withRef, nil
}

// printReport writes r, with ref's load beside it when there is one, in the form the checker reads (see
// Output).
func printReport(w io.Writer, r Report, ref *Report) {
	s := r.Scenario
	fmt.Fprintf(w, "scenario %s seed %d clients %d rate %d cost %d down %d tick %s",
		s.Name, r.Seed, s.Clients, s.Rate, s.Cost, s.Down, Tick)
	if o := s.Open; o != nil {
		fmt.Fprintf(w, " from %d slow %d calls %d deadline %d fail %d", o.From, o.Slow, o.Calls, o.Deadline, o.Fail)
	}
	if r.Chain != nil {
		fmt.Fprintf(w, " layers %d arrivals %d", r.Chain.Layers, r.Chain.Arrivals)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "load %s\n", series(r.Load))
	fmt.Fprintf(w, "served %s\n", series(r.Served))
	if r.Wasted != nil {
		fmt.Fprintf(w, "wasted %s\n", series(r.Wasted))
	}
	if ref != nil {
		fmt.Fprintf(w, "reference %s\n", series(ref.Load))
	}
	for _, l := range s.Limits {
		v, ok := r.Value(l.Metric)
		val := "-"
		if ok {
			val = strconv.FormatFloat(v, 'f', -1, 64)
		}
		fmt.Fprintf(w, "metric %s %s %s\n", l.Metric, val, strconv.FormatFloat(l.Max, 'f', -1, 64))
	}
	if r.Stopped >= 0 {
		fmt.Fprintf(w, "stopped %s\n", strconv.FormatFloat(float64(r.Stopped)/10, 'f', -1, 64))
	}
	if t := r.FirstOver(); t >= 0 {
		fmt.Fprintf(w, "first_over %s\n", strconv.FormatFloat(float64(t)/10, 'f', -1, 64))
	}
}

// series writes the numbers up to the last that is not 0, separated by spaces.
func series(xs []int) string {
	end := len(xs)
	for end > 0 && xs[end-1] == 0 {
		end--
	}
	var b strings.Builder
	for i, x := range xs[:end] {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}
