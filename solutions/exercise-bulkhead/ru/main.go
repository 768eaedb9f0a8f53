// Программа bulkhead выбирает, как поделить пул магазина из урока «Когда сосед тормозит» на две
// переборки (bulkheads): сколько потоков отдать платежам, а сколько каталогу. Она пробует каждое
// деление и называет то, при котором каталог теряет меньше всего запросов.
//
// Использование:
//
//	bulkhead [-threads N] [-ticks N] [-slow N] [-lookup N] [-timeout N]
//
// Каждый такт приходят один платёж и один запрос к каталогу. Платёж занимает поток своего пула на
// -slow тактов (с таймаутом — не дольше -timeout тактов), запрос к каталогу — поток своего пула на
// -lookup тактов.
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
	threads := fs.Int("threads", 4, "потоков в магазине всего (от 2 до 12)")
	ticks := fs.Int("ticks", 8, "сколько тактов наблюдаем (от 1 до 100000)")
	slow := fs.Int("slow", 30, "через сколько тактов отвечает платёжный провайдер")
	lookup := fs.Int("lookup", 1, "сколько тактов занимает запрос к каталогу")
	timeout := fs.Int("timeout", 0, "таймаут платежей в тактах (0 — без таймаута)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: bulkhead [-threads N] [-ticks N] [-slow N] [-lookup N] [-timeout N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "лишний аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if *threads < 2 || *threads > 12 || *ticks < 1 || *ticks > 100000 || *slow < 1 || *lookup < 1 || *timeout < 0 {
		fmt.Fprintln(os.Stderr, "потоков от 2 до 12, тактов от 1 до 100000, задержка и запрос к каталогу — не меньше 1, таймаут — не меньше 0")
		fs.Usage()
		os.Exit(2)
	}
	choose(*threads, *ticks, *slow, *lookup, *timeout)
}

// take занимает на такте t первый свободный поток пула на hold тактов. Если свободного потока нет,
// возвращает false: запрос получил отказ.
func take(busyUntil []int, t, hold int) bool {
	for i, until := range busyUntil {
		if until <= t {
			busyUntil[i] = t + min(hold, math.MaxInt-t) // не дальше math.MaxInt: любое hold без переполнения
			return true
		}
	}
	return false
}

// choose пробует каждое деление threads потоков между платежами и каталогом, печатает отказы при
// каждом и называет лучшее: меньше всего отказов каталога, при равенстве — меньше всего отказов
// платежей, а при полном равенстве — с меньшим платёжным пулом.
func choose(threads, ticks, slow, lookup, timeout int) {
	var bestPay, bestCatalog, bestPayments int // их задаёт первое же деление
	for pay := 1; pay < threads; pay++ {
		payments, catalog := refusals(pay, threads-pay, ticks, slow, lookup, timeout)
		fmt.Printf("платежам %d, каталогу %d — отказов: платежей %d, каталога %d\n", pay, threads-pay, payments, catalog)
		if pay == 1 || catalog < bestCatalog || catalog == bestCatalog && payments < bestPayments {
			bestPay, bestCatalog, bestPayments = pay, catalog, payments
		}
	}
	fmt.Printf("лучше всего: платежам %d, каталогу %d\n", bestPay, threads-bestPay)
}

// refusals гоняет магазин с пулами из pay и catalogue потоков ticks тактов и считает отказы в каждом.
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
