// Программа breaker гоняет предохранитель (circuit breaker), который открывается не после N ошибок
// подряд, как в уроке «Когда сосед тормозит», а по доле ошибок среди последних вызовов. Запросов на
// такте бывает несколько, а ответ пробы приходит только к концу такта: пока она в пути, остальные
// запросы получают отказ. Остывание не постоянное: каждая неудачная проба удваивает его, пока оно
// не упрётся в потолок, а удачная возвращает к исходному.
//
// Использование:
//
//	breaker [-window W] [-rate P] [-min M] [-cooldown C] [-cap X] [ТАКТ ...]
//
// Каждый ТАКТ — строка из x и . по знаку на запрос этого такта: x — провайдер на нём ошибётся,
// . — ответит. Без тактов играется сценарий по умолчанию.
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
	window := fs.Int("window", 4, "сколько последних вызовов помнит окно (от 1 до 20)")
	rate := fs.Int("rate", 50, "доля ошибок в окне, %, при которой предохранитель открывается (от 1 до 100)")
	least := fs.Int("min", 4, "сколько вызовов должно быть в окне, чтобы судить о доле (от 1 до window)")
	cooldown := fs.Int("cooldown", 2, "тактов остывания до первой пробы (от 1 до 10)")
	longest := fs.Int("cap", 6, "потолок остывания в тактах (от cooldown до 40)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: breaker [-window W] [-rate P] [-min M] [-cooldown C] [-cap X] [ТАКТ ...]")
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
		fmt.Fprintln(os.Stderr, "window от 1 до 20, rate от 1 до 100, min от 1 до window, cooldown от 1 до 10, cap от cooldown до 40; до 40 тактов, в такте от 1 до 5 знаков x и .")
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
			shown = fmt.Sprintf("%s (остывание %d)", shown, b.wait)
		}
		fmt.Printf("такт %d: %s → %s, ошибок в окне: %d из %d\n", tick, strings.Join(results, " "), shown, failures, calls)
	}
	fmt.Printf("вызовов провайдера: %d из %d\n", b.calls, requests)
}

// state — состояние предохранителя. Нулевое значение — closed.
type state int

const (
	closed   state = iota // запросы проходят
	open                  // сразу отказ
	halfOpen              // один пробный запрос
)

func (s state) String() string {
	return [...]string{"CLOSED", "OPEN", "HALF_OPEN"}[s]
}

// CircuitBreaker — предохранитель, который судит по доле ошибок среди последних вызовов.
type CircuitBreaker struct {
	window   int // сколько последних вызовов помнит окно
	rate     int // доля ошибок в окне (в процентах), при которой предохранитель открывается
	least    int // меньше вызовов в окне — о доле судить рано
	cooldown int // остывание после открытия из закрытого состояния, тактов
	longest  int // потолок остывания: дольше неудачные пробы его не растянут

	state    state
	openedAt int // такт, на котором предохранитель открылся
	wait     int // остывание, которое идёт сейчас: столько тактов с openedAt до пробы
	calls    int // сколько раз вызван провайдер

	recent []bool // исходы последних вызовов в закрытом состоянии, старые первыми: true — ошибка
	// Ваш код: что ещё предохранителю нужно помнить?
}

// Call должна пропустить один запрос через предохранитель на такте tick. providerUp говорит, ответит
// ли провайдер на этот запрос. Возвращает «ok», «ошибка» или «отказ». Правила — в условии (README.md).
func (b *CircuitBreaker) Call(tick int, providerUp bool) string {
	// Ваш код здесь.
	return ""
}

// EndTick должна закончить такт tick: ответ пробы, если она была, решает, закрыться или открыться
// снова.
func (b *CircuitBreaker) EndTick(tick int) {
	// Ваш код здесь.
}

// answer — то, что получает запрос, дошедший до провайдера.
func answer(providerUp bool) string {
	if providerUp {
		return "ok"
	}
	return "ошибка"
}

// trip открывает предохранитель на такте tick и начинает окно заново.
func (b *CircuitBreaker) trip(tick int) {
	b.state = open
	b.openedAt = tick
	b.recent = b.recent[:0]
}

// Window должна вернуть, сколько ошибок и сколько всего вызовов сейчас в окне.
func (b *CircuitBreaker) Window() (failures, calls int) {
	// Ваш код здесь.
	return 0, 0
}
