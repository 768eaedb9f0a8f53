// Программа quota прогоняет вызовы клиента через квоту повторов (retry quota) по правилам
// стандартного режима AWS SDK for JavaScript v3 и печатает, сколько маркеров остаётся после каждого.
//
// Использование:
//
//	quota [-capacity N] [-attempts N] [-retry-cost N] [-timeout-cost N] [ВЫЗОВ ...]
//
// ВЫЗОВ — ответы на его попытки через запятую: 503,503,ok или timeout,ok. Когда записанные ответы
// кончаются, сервис повторяет последний. Ответ — ok, timeout или код HTTP от 400 до 599.
// Без вызовов программа играет сценарий из условия: два спокойных вызова, авария, восстановление.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// config — правила квоты.
type config struct {
	capacity    int // маркеров в полной квоте, с неё клиент и начинает
	attempts    int // попыток на вызов, первая тоже считается
	retryCost   int // цена повтора после ошибки
	timeoutCost int // цена повтора после таймаута
}

func main() {
	fs := flag.NewFlagSet("quota", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var c config
	fs.IntVar(&c.capacity, "capacity", 500, "маркеров в полной квоте")
	fs.IntVar(&c.attempts, "attempts", 3, "попыток на вызов")
	fs.IntVar(&c.retryCost, "retry-cost", 5, "цена повтора после ошибки")
	fs.IntVar(&c.timeoutCost, "timeout-cost", 10, "цена повтора после таймаута")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: quota [-capacity N] [-attempts N] [-retry-cost N] [-timeout-cost N] [ВЫЗОВ ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if c.capacity < 0 || c.capacity > 1000000 {
		usageError(fs, "квота — от 0 до 1000000 маркеров")
	}
	if c.attempts < 1 || c.attempts > 100 {
		usageError(fs, "попыток на вызов — от 1 до 100")
	}
	if c.retryCost < 0 || c.retryCost > 10000 || c.timeoutCost < 0 || c.timeoutCost > 10000 {
		usageError(fs, "цена повтора — от 0 до 10000 маркеров")
	}
	calls := lessonCalls()
	if fs.NArg() > 0 {
		calls = nil
		for _, arg := range fs.Args() {
			answers := strings.Split(arg, ",")
			for _, a := range answers {
				if !valid(a) {
					usageError(fs, fmt.Sprintf("ответ %q: ожидается ok, timeout или код HTTP от 400 до 599", a))
				}
			}
			calls = append(calls, answers)
		}
	}
	play(c, calls)
}

// usageError объясняет, что не так с аргументами, показывает использование и завершает программу с
// кодом 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// valid сообщает, понятен ли ответ: ok, timeout или код HTTP от 400 до 599.
func valid(answer string) bool {
	if answer == "ok" || answer == "timeout" {
		return true
	}
	code, err := strconv.Atoi(answer)
	return err == nil && code >= 400 && code <= 599
}

// lessonCalls — сценарий по умолчанию: два спокойных вызова, 24 вызова во время аварии (сервис
// молчит), потом сервис поправляется, но не сразу.
func lessonCalls() [][]string {
	calls := [][]string{{"ok"}, {"ok"}}
	for range 24 {
		calls = append(calls, []string{"timeout"})
	}
	for _, c := range []string{"timeout,503,ok", "timeout", "503,ok", "ok", "ok", "ok", "503,ok",
		"ok", "ok", "503,ok", "400", "ok"} {
		calls = append(calls, strings.Split(c, ","))
	}
	return calls
}

// answerAt возвращает ответ на попытку номер attempt (с единицы): когда записанные ответы кончаются,
// сервис повторяет последний.
func answerAt(answers []string, attempt int) string {
	return answers[min(attempt, len(answers))-1]
}

// retryable сообщает, стоит ли повторять после такого ответа: таймаут, 429 (сервис просит сбавить
// темп) и ошибки 500, 502, 503, 504. Остальные ошибки повтор не исправит.
func retryable(answer string) bool {
	switch answer {
	case "timeout", "429", "500", "502", "503", "504":
		return true
	}
	return false
}

// report печатает строку вызова номер n: полученные ответы, исход и маркеры в квоте после вызова.
func report(n int, got []string, outcome string, tokens int) {
	fmt.Printf("вызов %d: %s; %s; квота %d\n", n, strings.Join(got, ", "), outcome, tokens)
}

// bucket — квота повторов и счётчики прогона.
type bucket struct {
	config
	tokens                            int
	succeeded, sent, retries, refused int
}

// play прогоняет вызовы через квоту и печатает строку на каждый вызов, а в конце итог.
func play(c config, calls [][]string) {
	b := &bucket{config: c, tokens: c.capacity}
	for i, answers := range calls {
		got, outcome := b.call(answers)
		report(i+1, got, outcome, b.tokens)
	}
	fmt.Printf("итого: вызовов %d, успешных %d, попыток %d, повторов %d, в повторе отказано %d, квота %d\n",
		len(calls), b.succeeded, b.sent, b.retries, b.refused, b.tokens)
}

// call делает попытки одного вызова и возвращает полученные ответы и исход. Повтор берёт из квоты
// свою цену и только если она в квоте есть. Удачный вызов без повторов добавляет в квоту один маркер,
// а после повторов возвращает цену последнего; квота не растёт выше полной.
func (b *bucket) call(answers []string) ([]string, string) {
	var got []string
	var retried bool
	var lastCost int
	for {
		answer := answerAt(answers, len(got)+1)
		got = append(got, answer)
		b.sent++
		switch {
		case answer == "ok":
			refund := 1
			if retried {
				refund = lastCost
			}
			b.tokens = min(b.capacity, b.tokens+refund)
			b.succeeded++
			return got, "успех"
		case !retryable(answer):
			return got, "ошибка " + answer + ", не повторяется"
		case len(got) == b.attempts:
			return got, "ошибка " + answer + ", попытки кончились"
		}
		cost := b.retryCost
		if answer == "timeout" {
			cost = b.timeoutCost
		}
		if cost > b.tokens {
			b.refused++
			return got, fmt.Sprintf("ошибка %s, на повтор нужно %d", answer, cost)
		}
		b.tokens -= cost
		b.retries++
		retried, lastCost = true, cost
	}
}
