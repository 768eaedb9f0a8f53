// Програмата breaker-retry слага прекъсвача (circuit breaker) от урока „Когато съседът е бавен“ пред
// повторенията на withRetry и прекарва през тях няколко плащания едно след друго.
//
// Употреба:
//
//	breaker-retry [-payments N] [-attempts N] [-threshold N] [-cooldown N] [СЦЕНАРИЙ]
//
// СЦЕНАРИЙ има по един знак за всеки тик: x — доставчикът не работи, . — работи; след края на
// сценария доставчикът работи. Плащане 1 започва на тик 0, всяко следващо — в тика след последния опит
// на предишното. След неуспешен опит k се чака 2^(k-1) тика. Повтаря се само грешката на доставчика;
// отказът веднага, който идва от отворения прекъсвач, не се повтаря.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	fs := flag.NewFlagSet("breaker-retry", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	payments := fs.Int("payments", 6, "колко плащания минават едно след друго")
	attempts := fs.Int("attempts", 3, "най-много опити за едно плащане")
	threshold := fs.Int("threshold", 3, "поредни грешки, след които прекъсвачът се отваря")
	cooldown := fs.Int("cooldown", 4, "тикове в отворено състояние преди пробата")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: breaker-retry [-payments N] [-attempts N] [-threshold N] [-cooldown N] [СЦЕНАРИЙ]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	timeline := "xxxxxxx"
	switch {
	case fs.NArg() > 1:
		usageError(fs, "сценарият е един низ от x и .")
	case fs.NArg() == 1:
		timeline = fs.Arg(0)
	}
	if *payments < 1 || *attempts < 1 || *threshold < 1 || *cooldown < 1 {
		usageError(fs, "броят на плащанията и опитите, прагът и изчакването трябва да са поне 1")
	}
	if *payments > 200 {
		usageError(fs, "плащанията са най-много 200")
	}
	if timeline == "" || strings.Trim(timeline, "x.") != "" {
		usageError(fs, "сценарият може да съдържа само x (не работи) и . (работи)")
	}

	// providerUp казва дали доставчикът работи в тик tick. След края на сценария той работи.
	providerUp := func(tick int) bool {
		return tick >= len(timeline) || timeline[tick] == '.'
	}
	breaker := CircuitBreaker{threshold: *threshold, cooldown: *cooldown}
	results := map[string]int{}
	tick := 0
	for payment := 1; payment <= *payments; payment++ {
		result, last := pay(&breaker, providerUp, payment, tick, *attempts)
		fmt.Printf("плащане %d: %s\n", payment, result)
		results[result]++
		tick = last + 1 // следващото плащане започва в следващия тик
	}
	fmt.Printf("ok: %d, грешка: %d, отказ веднага: %d; извиквания на доставчика: %d\n",
		results["ok"], results["грешка"], results["отказ веднага"], breaker.calls)
}

// usageError казва какво не е наред с аргументите, показва употребата и спира с код 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// retryable трябва да каже дали отговорът си струва нов опит. Кои отговори са временни и защо, пише в
// условието (README.md).
func retryable(result string) bool {
	// Твоят код е тук.
	return false
}

// pay трябва да прекара плащането с номер payment през прекъсвача b с повторения като withRetry от
// урока: опит 1 е в тик tick, след неуспешен опит k се чака 2^(k-1) тика, опитите са най-много
// maxAttempts. Всеки опит печата ред. Повторение, което би попаднало на отворен прекъсвач, не се
// чака. Връща последния отговор и тика на последния опит.
func pay(b *CircuitBreaker, providerUp func(tick int) bool, payment, tick, maxAttempts int) (string, int) {
	// Твоят код е тук. Всеки опит минава през b.Call и печата ред
	//	тик 0, плащане 1, опит 1: грешка → CLOSED
	// Примерите са в условието (README.md).
	return "", tick
}

// state е състоянието на прекъсвача. Нулевата стойност е closed.
type state int

const (
	closed   state = iota // заявките минават
	open                  // отказ веднага
	halfOpen              // една пробна заявка
)

func (s state) String() string {
	return [...]string{"CLOSED", "OPEN", "HALF_OPEN"}[s]
}

// CircuitBreaker е прекъсвачът от урока, с праг и изчакване, които идват от аргументите.
type CircuitBreaker struct {
	threshold int // поредни грешки, след които прекъсвачът се отваря
	cooldown  int // тикове в отворено състояние преди пробата

	state    state
	failures int // поредни грешки
	openedAt int // тикът, в който прекъсвачът се е отворил
	calls    int // колко пъти е извикан доставчикът
}

// Call пропуска едно извикване през прекъсвача в тик tick. providerUp казва дали доставчикът работи в
// този тик. Връща „ok“, „грешка“ или „отказ веднага“.
func (b *CircuitBreaker) Call(tick int, providerUp bool) string {
	if b.state == open {
		if tick-b.openedAt < b.cooldown {
			return "отказ веднага"
		}
		b.state = halfOpen // изчакването мина: една проба
	}
	b.calls++
	if providerUp {
		b.state = closed
		b.failures = 0
		return "ok"
	}
	b.failures++
	if b.state == halfOpen || b.failures >= b.threshold {
		b.state = open
		b.openedAt = tick
	}
	return "грешка"
}
