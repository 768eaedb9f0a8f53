// Программа breaker-retry ставит предохранитель (circuit breaker) из урока «Когда сосед тормозит» перед
// повторами withRetry и пропускает через них несколько платежей один за другим.
//
// Использование:
//
//	breaker-retry [-payments N] [-attempts N] [-threshold N] [-cooldown N] [СЦЕНАРИЙ]
//
// В СЦЕНАРИИ по одному знаку на такт: x — провайдер не работает, . — работает; после конца сценария
// провайдер работает. Платёж 1 начинается на такте 0, каждый следующий — на такте после последней
// попытки предыдущего. После неудачной попытки k пауза равна 2^(k-1) тактов. Повторяется только ошибка
// провайдера; ответ «сразу отказ» от открытого предохранителя не повторяется.
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
	payments := fs.Int("payments", 6, "сколько платежей проходит один за другим")
	attempts := fs.Int("attempts", 3, "предел попыток на один платёж")
	threshold := fs.Int("threshold", 3, "ошибок подряд, после которых предохранитель открывается")
	cooldown := fs.Int("cooldown", 4, "тактов остывания до пробы")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: breaker-retry [-payments N] [-attempts N] [-threshold N] [-cooldown N] [СЦЕНАРИЙ]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	timeline := "xxxxxxx"
	switch {
	case fs.NArg() > 1:
		usageError(fs, "сценарий — одна строка из x и .")
	case fs.NArg() == 1:
		timeline = fs.Arg(0)
	}
	if *payments < 1 || *attempts < 1 || *threshold < 1 || *cooldown < 1 {
		usageError(fs, "число платежей и попыток, порог и остывание должны быть не меньше 1")
	}
	if *payments > 200 {
		usageError(fs, "платежей не больше 200")
	}
	if timeline == "" || strings.Trim(timeline, "x.") != "" {
		usageError(fs, "в сценарии допустимы только x (не работает) и . (работает)")
	}

	// providerUp говорит, работает ли провайдер на такте tick. После конца сценария он работает.
	providerUp := func(tick int) bool {
		return tick >= len(timeline) || timeline[tick] == '.'
	}
	breaker := CircuitBreaker{threshold: *threshold, cooldown: *cooldown}
	results := map[string]int{}
	tick := 0
	for payment := 1; payment <= *payments; payment++ {
		result, last := pay(&breaker, providerUp, payment, tick, *attempts)
		fmt.Printf("платёж %d: %s\n", payment, result)
		results[result]++
		tick = last + 1 // следующий платёж начинается на следующем такте
	}
	fmt.Printf("ok: %d, ошибка: %d, сразу отказ: %d; вызовов провайдера: %d\n",
		results["ok"], results["ошибка"], results["сразу отказ"], breaker.calls)
}

// usageError объясняет, что не так с аргументами, показывает использование и завершает программу с
// кодом 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// retryable должна решить, стоит ли ответ новой попытки. Какие ответы временные и почему — в условии
// (README.md).
func retryable(result string) bool {
	// Ваш код здесь.
	return false
}

// pay должна провести платёж номер payment через предохранитель b с повторами, как withRetry из урока:
// попытка 1 — на такте tick, после неудачной попытки k пауза 2^(k-1) тактов, попыток не больше
// maxAttempts. Каждая попытка печатает строку. Повтора, который попал бы в открытый предохранитель, не
// ждут. Возвращает последний ответ и такт последней попытки.
func pay(b *CircuitBreaker, providerUp func(tick int) bool, payment, tick, maxAttempts int) (string, int) {
	// Ваш код здесь. Каждая попытка идёт через b.Call и печатает строку
	//	такт 0, платёж 1, попытка 1: ошибка → CLOSED
	// Примеры — в условии (README.md).
	return "", tick
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
	cooldown  int // тактов остывания до пробы

	state    state
	failures int // ошибок подряд
	openedAt int // такт, на котором предохранитель открылся
	calls    int // сколько раз вызван провайдер
}

// Call пропускает один вызов через предохранитель на такте tick. providerUp говорит, работает ли
// провайдер на этом такте. Возвращает «ok», «ошибка» или «сразу отказ».
func (b *CircuitBreaker) Call(tick int, providerUp bool) string {
	if b.state == open {
		if tick-b.openedAt < b.cooldown {
			return "сразу отказ"
		}
		b.state = halfOpen // остывание прошло: одна проба
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
	return "ошибка"
}
