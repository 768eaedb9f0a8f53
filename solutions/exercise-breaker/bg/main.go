// Програмата breaker върти прекъсвач (circuit breaker), който се отваря не след N поредни грешки, както
// в урока „Когато съседът е бавен“, а според дела на грешките сред последните извиквания. В един тик
// може да има няколко заявки, а отговорът на пробата идва чак в края на тика: докато тя е на път,
// другите заявки получават отказ. Изчакването не е постоянно: всяка неуспешна проба го удвоява, докато
// не опре в тавана, а успешната го връща към началното.
//
// Употреба:
//
//	breaker [-window W] [-rate P] [-min M] [-cooldown C] [-cap X] [ТИК ...]
//
// Всеки ТИК е низ от x и . със знак за всяка заявка в този тик: x значи, че доставчикът ще сбърка,
// . значи, че ще отговори. Без тикове се играе сценарият по подразбиране.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	fs := flag.NewFlagSet("breaker", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	window := fs.Int("window", 4, "колко последни извиквания помни прозорецът (от 1 до 20)")
	rate := fs.Int("rate", 50, "дял на грешките в прозореца, %, при който прекъсвачът се отваря (от 1 до 100)")
	least := fs.Int("min", 4, "колко извиквания трябват в прозореца, за да се съди по дела (от 1 до window)")
	cooldown := fs.Int("cooldown", 2, "тикове изчакване до първата проба (от 1 до 10)")
	longest := fs.Int("cap", 6, "таван на изчакването в тикове (от cooldown до 40)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: breaker [-window W] [-rate P] [-min M] [-cooldown C] [-cap X] [ТИК ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	ticks := []string{"x.x", "xx", "..", "x..", "...", ".x.", "....", "x.", ".", "..", "x", ".", "..", ".x", "xx.x", "..", "..."}
	if fs.NArg() > 0 {
		ticks = fs.Args()
	}
	bad := *window < 1 || *window > 20 || *rate < 1 || *rate > 100 || *least < 1 || *least > *window ||
		*cooldown < 1 || *cooldown > 10 || *longest < *cooldown || *longest > 40 || len(ticks) > 40
	for _, t := range ticks {
		bad = bad || t == "" || len(t) > 5 || strings.Trim(t, "x.") != ""
	}
	if bad {
		fmt.Fprintln(os.Stderr, "window е от 1 до 20, rate от 1 до 100, min от 1 до window, cooldown от 1 до 10, cap от cooldown до 40; до 40 тика, във всеки от 1 до 5 знака x и .")
		fs.Usage()
		os.Exit(2)
	}

	b := &CircuitBreaker{window: *window, rate: *rate, least: *least, cooldown: *cooldown, longest: *longest}
	requests := 0
	for tick, t := range ticks {
		var results []string
		for _, c := range t {
			results = append(results, b.Call(tick, c == '.'))
			requests++
		}
		b.EndTick(tick)
		failures, calls := b.Window()
		shown := b.state.String()
		if b.state == open {
			shown = fmt.Sprintf("%s (изчакване %d)", shown, b.wait)
		}
		fmt.Printf("тик %d: %s → %s, грешки в прозореца: %d от %d\n", tick, strings.Join(results, " "), shown, failures, calls)
	}
	fmt.Printf("извиквания на доставчика: %d от %d\n", b.calls, requests)
}

// state е състоянието на прекъсвача. Нулевата стойност е closed.
type state int

const (
	closed   state = iota // заявките минават
	open                  // веднага отказ
	halfOpen              // една пробна заявка
)

func (s state) String() string {
	return [...]string{"CLOSED", "OPEN", "HALF_OPEN"}[s]
}

// CircuitBreaker е прекъсвач, който съди по дела на грешките сред последните извиквания.
type CircuitBreaker struct {
	window   int // колко последни извиквания помни прозорецът
	rate     int // дял на грешките в прозореца (в проценти), при който прекъсвачът се отваря
	least    int // при по-малко извиквания в прозореца е рано да се съди по дела
	cooldown int // изчакване след отваряне от затворено състояние, тикове
	longest  int // таван на изчакването: неуспешните проби не го разтягат повече

	state    state
	openedAt int // тикът, в който прекъсвачът се е отворил
	wait     int // изчакването, което тече сега: толкова тика от openedAt до пробата
	calls    int // колко пъти е извикан доставчикът

	probeOK bool   // дали доставчикът ще отговори на пробата, която е на път
	recent  []bool // изходите от последните извиквания в затворено състояние, старите първи: true е грешка
}

// Call пуска една заявка през прекъсвача в тик tick. providerUp казва дали доставчикът ще отговори на
// тази заявка. Връща „ok“, „грешка“ или „отказ“.
func (b *CircuitBreaker) Call(tick int, providerUp bool) string {
	switch b.state {
	case open:
		if tick-b.openedAt < b.wait {
			return "отказ"
		}
		// Изчакването мина: тази заявка е пробата и отговорът ѝ ще дойде чак в края на тика.
		b.state = halfOpen
		b.probeOK = providerUp
	case halfOpen:
		return "отказ" // пробата на този тик още е на път
	default:
		b.recent = append(b.recent, !providerUp)
		if len(b.recent) > b.window {
			b.recent = b.recent[1:]
		}
		if failures, calls := b.Window(); calls >= b.least && failures*100 >= b.rate*calls {
			b.wait = b.cooldown // отваряне от затворено: изчакването започва отначало
			b.trip(tick)
		}
	}
	b.calls++
	return answer(providerUp)
}

// EndTick завършва тик tick: отговорът на пробата, ако е имало такава, решава дали да се затвори, или пак да се отвори.
func (b *CircuitBreaker) EndTick(tick int) {
	if b.state != halfOpen {
		return
	}
	if b.probeOK {
		b.state = closed
	} else {
		b.wait = min(2*b.wait, b.longest) // доставчикът още е болен: следващата проба е двойно по-далеч
		b.trip(tick)
	}
}

// answer е онова, което получава заявка, стигнала до доставчика.
func answer(providerUp bool) string {
	if providerUp {
		return "ok"
	}
	return "грешка"
}

// trip отваря прекъсвача в тик tick и започва прозореца отначало.
func (b *CircuitBreaker) trip(tick int) {
	b.state = open
	b.openedAt = tick
	b.recent = b.recent[:0]
}

// Window връща колко грешки и колко извиквания общо има сега в прозореца.
func (b *CircuitBreaker) Window() (failures, calls int) {
	for _, failed := range b.recent {
		if failed {
			failures++
		}
	}
	return failures, len(b.recent)
}
