// Программа breaker гоняет предохранитель (circuit breaker) из урока «Когда сосед тормозит» по
// записанному сценарию провайдера и после каждого такта печатает, что получил запрос и в каком
// состоянии предохранитель.
//
// Использование:
//
//	breaker [-threshold N] [-cooldown N] [СЦЕНАРИЙ]
//
// В СЦЕНАРИИ по одному знаку на такт: x — провайдер не работает, . — работает. Длина сценария — число
// тактов. По умолчанию порог — 3 ошибки подряд, остывание — 4 такта, сценарий — xxxxxxx..... (провайдер
// оживает на такте 7).
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
	threshold := fs.Int("threshold", 3, "ошибок подряд, после которых предохранитель открывается")
	cooldown := fs.Int("cooldown", 4, "тактов остывания до пробы")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: breaker [-threshold N] [-cooldown N] [СЦЕНАРИЙ]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	timeline := "xxxxxxx....."
	switch {
	case fs.NArg() > 1:
		usageError(fs, "сценарий — одна строка из x и .")
	case fs.NArg() == 1:
		timeline = fs.Arg(0)
	}
	if *threshold < 1 || *cooldown < 1 {
		usageError(fs, "порог и остывание должны быть не меньше 1")
	}
	if timeline == "" || strings.Trim(timeline, "x.") != "" {
		usageError(fs, "в сценарии допустимы только x (не работает) и . (работает)")
	}

	breaker := CircuitBreaker{threshold: *threshold, cooldown: *cooldown}
	for tick := range len(timeline) {
		up := timeline[tick] == '.'
		result := breaker.Call(tick, up)
		fmt.Printf("такт %d: %s → %s\n", tick, result, breaker.state)
	}
	fmt.Printf("вызовов провайдера: %d из %d\n", breaker.calls, len(timeline))
}

// usageError объясняет, что не так с аргументами, показывает использование и завершает программу с
// кодом 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
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

// CircuitBreaker — предохранитель из урока, только порог и остывание приходят из аргументов.
type CircuitBreaker struct {
	threshold int // ошибок подряд, после которых предохранитель открывается
	cooldown  int // тактов в открытом состоянии до пробы

	state    state
	failures int // ошибок подряд
	openedAt int // такт, на котором предохранитель открылся
	calls    int // сколько раз вызван провайдер
}

// Call должна пропустить один вызов через предохранитель на такте tick. providerUp говорит, работает ли
// провайдер на этом такте. Возвращает «ok», «ошибка» или «сразу отказ» и оставляет в b.state новое
// состояние.
func (b *CircuitBreaker) Call(tick int, providerUp bool) string {
	// Ваш код здесь. Три состояния и правила переходов между ними — в условии (README.md): закрытый
	// предохранитель вызывает провайдера и считает ошибки подряд; открытый сразу отказывает, пока не
	// пройдут b.cooldown тактов; потом он полуоткрыт и пропускает одну пробу. Не забудьте про b.calls.
	return ""
}
