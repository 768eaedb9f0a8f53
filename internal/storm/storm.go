// Package storm models a retry storm: many clients whose requests failed at the
// same moment retry against a server that is down for a while and then answers
// a fixed number of requests per tick. It is the model behind the retry-storm
// lesson and the reference for exercise-storm, whose solutions mirror it: TestReferenceAgrees runs
// those solutions, in both languages, on the lesson's scenarios and on drawn ones and compares every
// number they print with Run, and TestLessonFigures pins the figures the lesson quotes.
//
//	p := storm.Lesson()          // 2000 clients, 10 s down, 50 answers per 100 ms tick
//	p.Rule = storm.Full
//	r := storm.Run(p)
//	fmt.Println(r.Served, r.Half, r.All, r.Requests)
//
// Time runs in ticks of 100 ms. Every client knocks at tick 0 and fails (the
// server is down for ticks 0..Down-1). After its k-th failure a client picks a
// pause of at least one tick by its Rule and knocks again. Every tick has its
// own line: at tick 0 the clients stand in it by number, and a refused client
// joins the end of the line of the tick at which it will knock again. The
// server answers as many clients from the front of the line as its work budget
// allows and refuses the rest. An answer costs one unit of work, a refusal Cost
// percent of one; the budget is Rate units per tick. Jittered pauses draw from
// one generator, in the order in which the refused clients stand in the line.
// With an attempt limit (Attempts > 0) a client whose Attempts-th attempt is
// refused gives up: it draws no pause and knocks no more.
//
// Run keeps those lines in a ring of buckets indexed by tick, so a tick costs
// work only for the clients that knock in it. RunNaive loops over every client
// on every tick (and sorts the ones that knock by their place in line); it
// gives the same Result and is there for the tests and the benchmark.
package storm

import (
	"cmp"
	"fmt"
	"slices"
)

// Rule is how a client picks its pause after a failure.
type Rule int

// The six rules of the lesson.
const (
	Now          Rule = iota // knock again at the next tick
	Fixed                    // always wait FixedPause ticks
	Double                   // wait exactly g(k): doubling without jitter
	Full                     // full jitter: uniform in 1..g(k)
	Equal                    // equal jitter: g(k) - g(k)/2 plus uniform in 0..g(k)/2
	Decorrelated             // decorrelated jitter: uniform in Base..3*previous pause, at most Cap
)

// FixedPause is the pause of the Fixed rule: one second.
const FixedPause = 10

var ruleNames = []string{"now", "fixed", "double", "full", "equal", "decorr"}

// String returns the rule's command-line name.
func (r Rule) String() string {
	if r < 0 || int(r) >= len(ruleNames) {
		return fmt.Sprintf("Rule(%d)", int(r))
	}
	return ruleNames[r]
}

// Rules lists all rules in the lesson's order.
func Rules() []Rule { return []Rule{Now, Fixed, Double, Full, Equal, Decorrelated} }

// ParseRule turns a command-line name (now, fixed, double, full, equal, decorr) into a Rule.
func ParseRule(s string) (Rule, error) {
	for i, name := range ruleNames {
		if s == name {
			return Rule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rule %q (want one of now, fixed, double, full, equal, decorr)", s)
}

// Params is one scenario.
type Params struct {
	Rule    Rule
	Clients int // clients whose first request fails at tick 0
	Down    int // the server is down for ticks 0..Down-1
	Rate    int // answers per tick once the server is up
	Cost    int // price of a refusal, percent of an answer (0..99)
	Base    int // first pause of the growing rules, ticks
	Cap     int // longest pause of the growing rules, ticks
	Seed    int // seed of the generator (0..65536)
	Ticks   int // simulated ticks

	Attempts int // attempts a client makes before it gives up; 0 for no limit
}

// Lesson returns the lesson's scenario with the Now rule: 2000 clients, 10 s
// down, 50 answers per tick, free refusals, base 100 ms, cap 20 s, seed 7, one minute.
func Lesson() Params {
	return Params{Rule: Now, Clients: 2000, Down: 100, Rate: 50, Cost: 0, Base: 1, Cap: 200, Seed: 7, Ticks: 600}
}

// Limits that keep a run's memory bounded.
const (
	MaxClients = 10_000_000
	MaxTicks   = 1_000_000
)

// Validate reports the first parameter out of range.
func (p Params) Validate() error {
	switch {
	case p.Rule < Now || p.Rule > Decorrelated:
		return fmt.Errorf("unknown rule %d", int(p.Rule))
	case p.Clients < 1 || p.Clients > MaxClients:
		return fmt.Errorf("clients must be 1..%d", MaxClients)
	case p.Down < 0:
		return fmt.Errorf("down must not be negative")
	case p.Rate < 0:
		return fmt.Errorf("rate must not be negative")
	case p.Cost < 0 || p.Cost > 99:
		return fmt.Errorf("cost must be 0..99 (percent of an answer)")
	case p.Base < 1 || p.Cap < p.Base || p.Cap > 10000:
		return fmt.Errorf("want 1 <= base <= cap <= 10000")
	case p.Seed < 0 || p.Seed > 65536:
		return fmt.Errorf("seed must be 0..65536")
	case p.Ticks < 1 || p.Ticks > MaxTicks:
		return fmt.Errorf("ticks must be 1..%d", MaxTicks)
	case p.Attempts < 0 || p.Attempts > MaxTicks:
		return fmt.Errorf("attempts must be 0 (no limit) ..%d", MaxTicks)
	}
	return nil
}

// Result is what one run shows.
type Result struct {
	Served   int   // clients answered within Ticks
	Half     int   // tick at which more than half were answered, -1 if never
	All      int   // tick at which the last client was answered, -1 if never
	Requests int64 // requests sent, the first ones included
	Peak     int   // most requests in one tick from tick Down on
	GaveUp   int   // clients that ran out of attempts
	Load     []int // requests per tick
}

// Rand is the course's seeded generator: seed = (seed*75 + 74) % 65537.
type Rand struct{ seed int }

// NewRand returns a generator with the given seed (0..65536).
func NewRand(seed int) *Rand { return &Rand{seed: seed} }

// Intn steps the generator and returns seed % bound, a number in 0..bound-1.
func (r *Rand) Intn(bound int) int {
	r.seed = (r.seed*75 + 74) % 65537
	return r.seed % bound
}

// Growth is g(k) = min(Cap, Base*2^(k-1)), the window after the k-th failure.
func (p Params) Growth(k int) int {
	if k > 20 { // Base<<20 is past any Cap that Validate lets through
		return p.Cap
	}
	return min(p.Cap, p.Base<<(k-1))
}

// Pause returns the pause, in ticks, after a client's k-th failure, drawn from rnd by p.Rule;
// prev is the client's previous pause (Base before the first), which Decorrelated reads and
// updates. Run draws every client's pauses from one generator, in line order.
func (p Params) Pause(rnd *Rand, k int, prev *int) int {
	switch p.Rule {
	case Now:
		return 1
	case Fixed:
		return FixedPause
	case Double:
		return p.Growth(k)
	case Full:
		return 1 + rnd.Intn(p.Growth(k))
	case Equal:
		g := p.Growth(k)
		half := g / 2
		return g - half + rnd.Intn(half+1)
	default: // Decorrelated
		d := min(p.Cap, p.Base+rnd.Intn(3**prev-p.Base+1))
		*prev = d
		return d
	}
}

// answered is how many of n knocking clients the server answers at tick t:
// the most s with s answers and n-s refusals within the budget.
func (p Params) answered(t, n int) int {
	if t < p.Down {
		return 0
	}
	left := 100*p.Rate - p.Cost*n
	if left <= 0 {
		return 0
	}
	return min(n, left/(100-p.Cost))
}

// tally records one tick in r.
type tally struct {
	p Params
	r Result
}

func (a *tally) tick(t, n, served int) {
	a.r.Load[t] = n
	a.r.Requests += int64(n)
	if t >= a.p.Down {
		a.r.Peak = max(a.r.Peak, n)
	}
	a.r.Served += served
	if a.r.Half < 0 && 2*a.r.Served > a.p.Clients {
		a.r.Half = t
	}
	if a.r.All < 0 && a.r.Served == a.p.Clients {
		a.r.All = t
	}
}

func newTally(p Params) *tally {
	return &tally{p: p, r: Result{Half: -1, All: -1, Load: make([]int, p.Ticks)}}
}

// Run simulates p with clients kept in buckets by the tick of their next knock.
// A bucket is the line for its tick: a refused client joins the end of the
// line of the tick at which it will knock again. It panics if p is not valid.
//
// A line is a list of fixed-size chunks taken from a free list and given back
// once its tick has passed, so that memory grows with the clients in flight
// (plus a chunk per line), not with how the lines happened to grow.
func Run(p Params) Result {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	rnd := NewRand(p.Seed)
	size := max(p.Cap, FixedPause) + 1 // no pause is longer than size-1
	lines := make([]line, size)
	var free *chunk
	for range p.Clients {
		lines[0].push(waiting{prev: int32(p.Base)}, &free)
	}
	a := newTally(p)
	for t := 0; t < p.Ticks; t++ {
		cur := lines[t%size]
		lines[t%size] = line{}
		s := p.answered(t, cur.n)
		skip := s // the first s of the line are answered
		for ch := cur.head; ch != nil; {
			from := min(skip, ch.n)
			skip -= from
			for _, c := range ch.w[from:ch.n] {
				c.fails++
				if int(c.fails) == p.Attempts {
					a.r.GaveUp++
					continue
				}
				prev := int(c.prev)
				d := p.Pause(rnd, int(c.fails), &prev)
				c.prev = int32(prev)
				lines[(t+d)%size].push(c, &free)
			}
			next := ch.next
			ch.n, ch.next, free = 0, free, ch
			ch = next
		}
		a.tick(t, cur.n, s)
	}
	return a.r
}

// chunkLen is how many clients a chunk of a line holds (8 KiB).
const chunkLen = 1024

type chunk struct {
	w    [chunkLen]waiting
	n    int
	next *chunk
}

// line is the clients that knock at one tick, in the order they joined it.
type line struct {
	head, tail *chunk
	n          int
}

// push adds c at the end of l, taking a chunk from *free (or a new one) when the last is full.
func (l *line) push(c waiting, free **chunk) {
	if tl := l.tail; tl != nil && tl.n < chunkLen {
		tl.w[tl.n] = c
		tl.n++
		l.n++
		return
	}
	l.grow(free)
	l.tail.w[0] = c
	l.tail.n = 1
	l.n++
}

// grow adds an empty chunk at the end of l.
func (l *line) grow(free **chunk) {
	{
		ch := *free
		if ch != nil {
			*free = ch.next
			ch.next = nil
		} else {
			ch = new(chunk)
		}
		if l.tail == nil {
			l.head = ch
		} else {
			l.tail.next = ch
		}
		l.tail = ch
	}
}

// waiting is a client in a line, with all it remembers.
type waiting struct {
	fails int32 // failures so far
	prev  int32 // its last pause (Decorrelated)
}

// RunNaive simulates p by looking at every client on every tick. It gives the
// same Result as Run, in time proportional to Clients*Ticks.
func RunNaive(p Params) Result {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	type client struct {
		next  int // tick of the next knock; -1 once answered
		place int // place in line: who was refused earlier goes first
		fails int
		prev  int
	}
	rnd := NewRand(p.Seed)
	clients := make([]client, p.Clients)
	for i := range clients {
		clients[i] = client{place: i, prev: p.Base}
	}
	places := p.Clients
	a := newTally(p)
	var line []int
	for t := 0; t < p.Ticks; t++ {
		line = line[:0]
		for i := range clients {
			if clients[i].next == t {
				line = append(line, i)
			}
		}
		slices.SortFunc(line, func(x, y int) int { return cmp.Compare(clients[x].place, clients[y].place) })
		s := p.answered(t, len(line))
		for i, id := range line {
			c := &clients[id]
			if i < s {
				c.next = -1
				continue
			}
			c.fails++
			if c.fails == p.Attempts {
				c.next = -1
				a.r.GaveUp++
				continue
			}
			c.next = t + p.Pause(rnd, c.fails, &c.prev)
			c.place = places
			places++
		}
		a.tick(t, len(line), s)
	}
	return a.r
}
