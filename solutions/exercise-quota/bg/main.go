// Програмата quota прекарва извикванията на клиент през квота за повторения (retry quota) по
// правилата на стандартния режим на AWS SDK for JavaScript v3 и печата колко жетона остават след
// всяко извикване.
//
// Употреба:
//
//	quota [-capacity N] [-attempts N] [-retry-cost N] [-timeout-cost N] [ИЗВИКВАНЕ ...]
//
// ИЗВИКВАНЕ е отговорите на опитите му, разделени със запетаи: 503,503,ok или timeout,ok. Когато
// записаните отговори свършат, услугата повтаря последния. Отговорът е ok, timeout или HTTP код от
// 400 до 599. Без извиквания програмата изиграва сценария от условието: две спокойни извиквания,
// авария, възстановяване.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// config описва правилата на квотата.
type config struct {
	capacity    int // жетони в пълната квота; клиентът започва с нея
	attempts    int // опити за извикване, заедно с първия
	retryCost   int // цена на повторение след грешка
	timeoutCost int // цена на повторение след таймаут
}

func main() {
	fs := flag.NewFlagSet("quota", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var c config
	fs.IntVar(&c.capacity, "capacity", 500, "жетони в пълната квота")
	fs.IntVar(&c.attempts, "attempts", 3, "опити за извикване")
	fs.IntVar(&c.retryCost, "retry-cost", 5, "цена на повторение след грешка")
	fs.IntVar(&c.timeoutCost, "timeout-cost", 10, "цена на повторение след таймаут")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: quota [-capacity N] [-attempts N] [-retry-cost N] [-timeout-cost N] [ИЗВИКВАНЕ ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if c.capacity < 0 || c.capacity > 1000000 {
		usageError(fs, "квотата е от 0 до 1000000 жетона")
	}
	if c.attempts < 1 || c.attempts > 100 {
		usageError(fs, "опитите за извикване са от 1 до 100")
	}
	if c.retryCost < 0 || c.retryCost > 10000 || c.timeoutCost < 0 || c.timeoutCost > 10000 {
		usageError(fs, "цената на повторение е от 0 до 10000 жетона")
	}
	calls := lessonCalls()
	if fs.NArg() > 0 {
		calls = nil
		for _, arg := range fs.Args() {
			answers := strings.Split(arg, ",")
			for _, a := range answers {
				if !valid(a) {
					usageError(fs, fmt.Sprintf("отговор %q: очаква се ok, timeout или HTTP код от 400 до 599", a))
				}
			}
			calls = append(calls, answers)
		}
	}
	play(c, calls)
}

// usageError казва какво не е наред с аргументите, показва употребата и спира програмата с код 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// valid казва дали отговорът е познат: ok, timeout или HTTP код от 400 до 599.
func valid(answer string) bool {
	if answer == "ok" || answer == "timeout" {
		return true
	}
	code, err := strconv.Atoi(answer)
	return err == nil && code >= 400 && code <= 599
}

// lessonCalls е сценарият по подразбиране: две спокойни извиквания, 24 извиквания по време на аварията
// (услугата мълчи), после услугата се оправя, но не веднага.
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

// answerAt връща отговора на опит номер attempt (от едно): когато записаните отговори свършат,
// услугата повтаря последния.
func answerAt(answers []string, attempt int) string {
	return answers[min(attempt, len(answers))-1]
}

// retryable казва дали има смисъл да се повтори след такъв отговор: таймаут, 429 (услугата моли да
// се забави) и грешките 500, 502, 503, 504. Другите грешки повторението няма да поправи.
func retryable(answer string) bool {
	switch answer {
	case "timeout", "429", "500", "502", "503", "504":
		return true
	}
	return false
}

// report печата реда на извикване номер n: получените отговори, изхода и жетоните в квотата след него.
func report(n int, got []string, outcome string, tokens int) {
	fmt.Printf("извикване %d: %s; %s; квота %d\n", n, strings.Join(got, ", "), outcome, tokens)
}

// bucket пази квотата за повторения и броячите на изиграването.
type bucket struct {
	config
	tokens                            int
	succeeded, sent, retries, refused int
}

// play прекарва извикванията през квотата и печата по ред за всяко, а накрая сбора.
func play(c config, calls [][]string) {
	b := &bucket{config: c, tokens: c.capacity}
	for i, answers := range calls {
		got, outcome := b.call(answers)
		report(i+1, got, outcome, b.tokens)
	}
	fmt.Printf("общо: извиквания %d, успешни %d, опити %d, повторения %d, отказани повторения %d, квота %d\n",
		len(calls), b.succeeded, b.sent, b.retries, b.refused, b.tokens)
}

// call прави опитите на едно извикване и връща получените отговори и изхода. Повторението взема от
// квотата своята цена и само ако тя е в квотата. Успешно извикване без повторения добавя в квотата
// един жетон, а след повторения връща цената на последното; квотата не расте над пълната.
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
			return got, "грешка " + answer + ", не се повтаря"
		case len(got) == b.attempts:
			return got, "грешка " + answer + ", опитите свършиха"
		}
		cost := b.retryCost
		if answer == "timeout" {
			cost = b.timeoutCost
		}
		if cost > b.tokens {
			b.refused++
			return got, fmt.Sprintf("грешка %s, повторението струва %d", answer, cost)
		}
		b.tokens -= cost
		b.retries++
		retried, lastCost = true, cost
	}
}
