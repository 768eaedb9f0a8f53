// Програмата breaker пуска прекъсвача (circuit breaker) от урока „Когато съседът е бавен“ по записан
// сценарий на доставчика и след всеки тик печата какво е получила заявката и в какво състояние е
// прекъсвачът.
//
// Употреба:
//
//	breaker [-threshold N] [-cooldown N] [СЦЕНАРИЙ]
//
// СЦЕНАРИЙ има по един знак за всеки тик: x — доставчикът не работи, . — работи. Дължината му е броят
// на тиковете. По подразбиране прагът е 3 поредни грешки, изчакването е 4 тика, а сценарият е
// xxxxxxx..... (доставчикът се връща на тик 7).
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
	threshold := fs.Int("threshold", 3, "поредни грешки, след които прекъсвачът се отваря")
	cooldown := fs.Int("cooldown", 4, "тикове в отворено състояние преди пробата")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: breaker [-threshold N] [-cooldown N] [СЦЕНАРИЙ]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	timeline := "xxxxxxx....."
	switch {
	case fs.NArg() > 1:
		usageError(fs, "сценарият е един низ от x и .")
	case fs.NArg() == 1:
		timeline = fs.Arg(0)
	}
	if *threshold < 1 || *cooldown < 1 {
		usageError(fs, "прагът и изчакването трябва да са поне 1")
	}
	if timeline == "" || strings.Trim(timeline, "x.") != "" {
		usageError(fs, "сценарият може да съдържа само x (не работи) и . (работи)")
	}

	breaker := CircuitBreaker{threshold: *threshold, cooldown: *cooldown}
	for tick := range len(timeline) {
		up := timeline[tick] == '.'
		result := breaker.Call(tick, up)
		fmt.Printf("тик %d: %s → %s\n", tick, result, breaker.state)
	}
	fmt.Printf("викания към доставчика: %d от %d\n", breaker.calls, len(timeline))
}

// usageError казва какво не е наред с аргументите, показва употребата и спира с код 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
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

// Call трябва да пропусне едно извикване през прекъсвача в тик tick. providerUp казва дали доставчикът
// работи в този тик. Връща „ok“, „грешка“ или „отказ веднага“ и оставя в b.state новото състояние.
func (b *CircuitBreaker) Call(tick int, providerUp bool) string {
	// Твоят код е тук. Трите състояния и правилата за преминаване между тях са в условието (README.md):
	// затворен прекъсвач вика доставчика и брои поредните грешки; отворен отказва веднага, докато не
	// изтекат b.cooldown тика; после е полуотворен и пуска една проба. Не забравяй b.calls.
	return ""
}
