// Програмата storm моделира буря от повторения: заявките на clients клиенти се провалят в тик 0,
// сървърът не работи down тика, а после отговаря по rate пъти на тик. Клиентите повтарят по правилото rule.
//
// Употреба:
//
//	storm [-rule now|fixed|double|full|equal|decorr] [-clients N] [-down N] [-rate N]
//	      [-cost N] [-base N] [-cap N] [-seed N] [-ticks N] [-attempts N]
//
// Без аргументи — сценарият от урока „Буря от повторения“ с пълен джитър. Всеки тик има своя опашка:
// клиентът, който е получил отказ, се нарежда в края на опашката на тика, в който ще почука пак, затова
// тикът струва толкова работа, колкото клиенти чукат в него, а не колкото са всички.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// rule е правилото, по което клиентът избира чакането след неуспех.
type rule int

const (
	now    rule = iota // веднага, в следващия тик
	fixed              // точно 10 тика
	double             // удвояване без джитър
	full               // пълен джитър
	equal              // равен джитър
	decorr             // декорелиран джитър
)

var flagNames = [...]string{"now", "fixed", "double", "full", "equal", "decorr"}

func (r rule) String() string {
	return [...]string{"веднага", "пауза 1 с", "удвояване", "пълен джитър", "равен джитър",
		"декорелиран джитър"}[r]
}

// params е сценарият на бурята.
type params struct {
	rule     rule
	clients  int // на колко клиенти заявката се е провалила в тик 0
	down     int // сървърът не работи в тиковете 0..down-1
	rate     int // после отговаря по rate пъти на тик
	cost     int // цената на отказа в проценти от отговора
	base     int // първото чакане при растящите правила, в тикове
	cap      int // таванът на чакането, в тикове
	seed     int // началната стойност на генератора
	ticks    int // колко тика да се моделират
	attempts int // граница на опитите на клиента; 0 — без граница
}

// generator е генераторът на курса с начална стойност.
type generator struct{ seed int }

// random прави стъпка seed = (seed*75 + 74) % 65537 и връща seed % bound.
func (g *generator) random(bound int) int {
	g.seed = (g.seed*75 + 74) % 65537
	return g.seed % bound
}

// growth е прозорецът след k-тия неуспех: min(cap, base·2^(k-1)).
func (p params) growth(k int) int {
	if k > 20 { // base·2^20 е над всеки допустим таван
		return p.cap
	}
	return min(p.cap, p.base<<(k-1))
}

// pause избира чакането след k-тия неуспех. prev е предишното чакане на клиента (отначало base);
// гледа го само декорелираният джитър.
func (p params) pause(gen *generator, k, prev int) int {
	switch p.rule {
	case now:
		return 1
	case fixed:
		return 10
	case double:
		return p.growth(k)
	case full:
		return 1 + gen.random(p.growth(k))
	case equal:
		g := p.growth(k)
		return g - g/2 + gen.random(g/2+1)
	default: // decorr
		return min(p.cap, p.base+gen.random(3*prev-p.base+1))
	}
}

// answered казва колко от n почукали в тик t сървърът обслужва: отговорът струва 100 единици работа,
// отказът — cost, а на тик сървърът има 100·rate единици.
func (p params) answered(t, n int) int {
	if t < p.down {
		return 0
	}
	left := 100*p.rate - p.cost*n // остава, ако откаже на всички
	if left <= 0 {
		return 0
	}
	return min(n, left/(100-p.cost))
}

// client е това, което клиентът помни, докато стои на опашката. Полетата са int32: милион
// клиенти заемат наполовина по-малко памет, а опашките се местят по-бързо.
type client struct {
	fails int32 // колко пъти вече му е отказано
	prev  int32 // предишното чакане
}

// result е резултатът от пускането.
type result struct {
	served    int // обслужени клиенти
	half, all int // тикът, в който са обслужени над половината и всички; -1 — не дочакаха
	requests  int // всички заявки, включително първите
	peak      int // най-много заявки в един тик от тик down нататък
	gaveUp    int // клиенти, на които опитите са свършили
}

// simulate разиграва бурята. lines е пръстен от опашки: тик t живее в клетка t % len(lines);
// чаканията не са по-дълги от max(cap, 10), така че клетките не се застъпват.
func simulate(p params) result {
	gen := &generator{seed: p.seed}
	lines := make([][]client, max(p.cap, 10)+1)
	first := make([]client, p.clients)
	for i := range first {
		first[i].prev = int32(p.base)
	}
	lines[0] = first
	res := result{half: -1, all: -1}
	var spare []client // паметта на вече обработена опашка, за да се ползва отново
	for t := range p.ticks {
		i := t % len(lines)
		line := lines[i]
		s := p.answered(t, len(line)) // първите s на опашката получават отговор
		for _, c := range line[s:] {
			c.fails++
			if int(c.fails) == p.attempts { // последният опит не е успял: клиентът се отказва и не тегли пауза
				res.gaveUp++
				continue
			}
			d := p.pause(gen, int(c.fails), int(c.prev))
			c.prev = int32(d)
			j := (t + d) % len(lines)
			if lines[j] == nil { // новата опашка започва в паметта на старата
				lines[j], spare = spare, nil
			}
			lines[j] = append(lines[j], c)
		}
		lines[i] = nil
		if cap(line) > cap(spare) {
			spare = line[:0]
		}
		res.requests += len(line)
		if t >= p.down {
			res.peak = max(res.peak, len(line))
		}
		res.served += s
		if res.half < 0 && 2*res.served > p.clients {
			res.half = t
		}
		if res.all < 0 && res.served == p.clients {
			res.all = t
		}
	}
	return res
}

// moment печата тика като време в секунди с десетична запетая: 293 -> „29,3 с“.
func moment(t int) string {
	if t < 0 {
		return "не дочакаха"
	}
	return fmt.Sprintf("%d,%d\u00a0с", t/10, t%10)
}

// report печата резултата от пускането.
func report(w io.Writer, p params, res result) {
	perClient := (20*res.requests + p.clients) / (2 * p.clients) // в десети, половинката — нагоре
	fmt.Fprintf(w, "правило: %s\n", p.rule)
	fmt.Fprintf(w, "обслужени: %d от %d\n", res.served, p.clients)
	fmt.Fprintf(w, "отказали се: %d\n", res.gaveUp)
	fmt.Fprintf(w, "над половината: %s\n", moment(res.half))
	fmt.Fprintf(w, "всички: %s\n", moment(res.all))
	fmt.Fprintf(w, "заявки: %d (%d,%d на клиент)\n", res.requests, perClient/10, perClient%10)
	fmt.Fprintf(w, "пик след вдигането: %d на тик\n", res.peak)
}

const usage = "употреба: storm [-rule now|fixed|double|full|equal|decorr] [-clients N] [-down N] " +
	"[-rate N] [-cost N] [-base N] [-cap N] [-seed N] [-ticks N] [-attempts N]"

// parse чете аргументите; грешка означава код на изход 2.
func parse(args []string) (params, error) {
	p := params{clients: 2000, down: 100, rate: 50, cost: 0, base: 1, cap: 200, seed: 7, ticks: 600}
	fs := flag.NewFlagSet("storm", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("rule", "full", "правило за повторение")
	fs.IntVar(&p.clients, "clients", p.clients, "клиенти")
	fs.IntVar(&p.down, "down", p.down, "тикове престой")
	fs.IntVar(&p.rate, "rate", p.rate, "отговори на тик")
	fs.IntVar(&p.cost, "cost", p.cost, "цена на отказа, % от отговора")
	fs.IntVar(&p.base, "base", p.base, "първо чакане, в тикове")
	fs.IntVar(&p.cap, "cap", p.cap, "таван на чакането, в тикове")
	fs.IntVar(&p.seed, "seed", p.seed, "начална стойност на генератора")
	fs.IntVar(&p.ticks, "ticks", p.ticks, "тикове за моделиране")
	fs.IntVar(&p.attempts, "attempts", p.attempts, "граница на опитите на клиента, 0 — без граница")
	if err := fs.Parse(args); err != nil {
		return p, err
	}
	if fs.NArg() > 0 {
		return p, fmt.Errorf("излишен аргумент %q", fs.Arg(0))
	}
	p.rule = -1
	for i, n := range flagNames {
		if *name == n {
			p.rule = rule(i)
		}
	}
	switch {
	case p.rule < 0:
		return p, fmt.Errorf("непознато правило %q", *name)
	case p.clients < 1 || p.clients > 10_000_000:
		return p, fmt.Errorf("клиентите трябва да са от 1 до 10000000")
	case p.down < 0 || p.rate < 0:
		return p, fmt.Errorf("престоят и скоростта на сървъра не могат да са отрицателни")
	case p.rate > 10_000_000:
		return p, fmt.Errorf("скоростта на сървъра е най-много 10000000 отговора за тик")
	case p.cost < 0 || p.cost > 99:
		return p, fmt.Errorf("цената на отказа е от 0 до 99 процента от отговора")
	case p.base < 1 || p.cap < p.base || p.cap > 10000:
		return p, fmt.Errorf("трябва 1 <= base <= cap <= 10000")
	case p.seed < 0 || p.seed > 65535:
		return p, fmt.Errorf("началната стойност е от 0 до 65535: при 65536 генераторът стои на място, (75·65536+74) mod 65537 = 65536")
	case p.ticks < 1 || p.ticks > 1_000_000:
		return p, fmt.Errorf("тиковете трябва да са от 1 до 1000000")
	case p.attempts < 0 || p.attempts > 1_000_000:
		return p, fmt.Errorf("границата на опитите е от 0 (без граница) до 1000000")
	}
	return p, nil
}

func main() {
	p, err := parse(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Println(usage)
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "storm:", err)
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	report(os.Stdout, p, simulate(p))
}
