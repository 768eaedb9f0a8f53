// Програмата bulkhead избира как да се раздели пулът на магазина от урока „Когато съседът е бавен“ на
// две прегради (bulkheads): колко нишки да получат плащанията и колко каталогът. Тя пробва всяко
// разделяне и назовава онова, при което каталогът губи най-малко заявки.
//
// Употреба:
//
//	bulkhead [-threads N] [-ticks N] [-slow N] [-lookup N] [-timeout N]
//
// Всеки тик идват едно плащане и една заявка към каталога. Плащането заема нишка от своя пул за -slow
// тика (с таймаут не повече от -timeout тика), заявката към каталога заема нишка от своя пул за
// -lookup тика.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
)

func main() {
	fs := flag.NewFlagSet("bulkhead", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	threads := fs.Int("threads", 4, "нишки в магазина общо (от 2 до 12)")
	ticks := fs.Int("ticks", 8, "колко тика наблюдаваме (от 1 до 100000)")
	slow := fs.Int("slow", 30, "след колко тика отговаря доставчикът на плащания")
	lookup := fs.Int("lookup", 1, "колко тика заема заявка към каталога")
	timeout := fs.Int("timeout", 0, "таймаут на плащанията в тикове (0 значи без таймаут)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: bulkhead [-threads N] [-ticks N] [-slow N] [-lookup N] [-timeout N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "излишен аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if *threads < 2 || *threads > 12 || *ticks < 1 || *ticks > 100000 || *slow < 1 || *lookup < 1 || *timeout < 0 {
		fmt.Fprintln(os.Stderr, "нишките са от 2 до 12, тиковете от 1 до 100000, закъснението и заявката към каталога са поне 1, таймаутът е поне 0")
		fs.Usage()
		os.Exit(2)
	}
	choose(*threads, *ticks, *slow, *lookup, *timeout)
}

// take заема в тик t първата свободна нишка от пула за hold тика. Ако свободна нишка няма, връща
// false: заявката получава отказ.
func take(busyUntil []int, t, hold int) bool {
	for i, until := range busyUntil {
		if until <= t {
			busyUntil[i] = t + min(hold, math.MaxInt-t) // най-много math.MaxInt: всяко hold без препълване
			return true
		}
	}
	return false
}

// choose пробва всяко разделяне на threads нишки между плащанията и каталога, печата отказите при
// всяко и назовава най-доброто: най-малко откази на каталога, при равенство най-малко откази на
// плащанията, а при пълно равенство онова с по-малкия пул за плащания.
func choose(threads, ticks, slow, lookup, timeout int) {
	var bestPay, bestCatalog, bestPayments int // задава ги още първото разделяне
	for pay := 1; pay < threads; pay++ {
		payments, catalog := refusals(pay, threads-pay, ticks, slow, lookup, timeout)
		fmt.Printf("плащания %d, каталог %d — откази: на плащанията %d, на каталога %d\n", pay, threads-pay, payments, catalog)
		if pay == 1 || catalog < bestCatalog || catalog == bestCatalog && payments < bestPayments {
			bestPay, bestCatalog, bestPayments = pay, catalog, payments
		}
	}
	fmt.Printf("най-добре: плащания %d, каталог %d\n", bestPay, threads-bestPay)
}

// refusals върти магазина с пулове от pay и catalogue нишки ticks тика и брои отказите във всеки.
func refusals(pay, catalogue, ticks, slow, lookup, timeout int) (payments, catalog int) {
	payPool, catalogPool := make([]int, pay), make([]int, catalogue)
	hold := slow
	if timeout > 0 {
		hold = min(slow, timeout)
	}
	for t := range ticks {
		if !take(payPool, t, hold) {
			payments++
		}
		if !take(catalogPool, t, lookup) {
			catalog++
		}
	}
	return payments, catalog
}
