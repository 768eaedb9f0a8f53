// Программа timeout гоняет магазин из урока «Когда сосед тормозит»: пул потоков, в который каждый
// такт приходят один платёж и один запрос к каталогу, а платёжный провайдер отвечает медленно.
//
// Использование:
//
//	timeout [-threads N] [-ticks N] [-slow N] [-timeout N]
//
// Платёж занимает свободный поток и держит его -slow тактов, пока провайдер не ответит, или меньше,
// если раньше истечёт таймаут. Нулевой таймаут означает «без ограничения». Запрос к каталогу
// обслуживается мгновенно, если на этом такте есть свободный поток.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	fs := flag.NewFlagSet("timeout", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	threads := fs.Int("threads", 4, "потоков в пуле")
	ticks := fs.Int("ticks", 8, "сколько тактов наблюдаем")
	slow := fs.Int("slow", 30, "через сколько тактов отвечает провайдер")
	timeout := fs.Int("timeout", 0, "таймаут в тактах (0 — без ограничения)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: timeout [-threads N] [-ticks N] [-slow N] [-timeout N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "лишний аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if *threads < 1 || *ticks < 1 || *slow < 1 || *timeout < 0 {
		fmt.Fprintln(os.Stderr, "-threads, -ticks и -slow должны быть не меньше 1, а -timeout не может быть отрицательным")
		fs.Usage()
		os.Exit(2)
	}
	busy, refused := simulate(*threads, *ticks, *slow, *timeout)
	report(title(*timeout), busy, *threads, refused)
}

// title — заголовок строки: «без таймаута» или «таймаут 2 такта».
func title(timeout int) string {
	if timeout == 0 {
		return "без таймаута"
	}
	word := "тактов"
	switch n := timeout % 100; {
	case n%10 == 1 && n != 11:
		word = "такт"
	case n%10 >= 2 && n%10 <= 4 && (n < 12 || n > 14):
		word = "такта"
	}
	return fmt.Sprintf("таймаут %d %s", timeout, word)
}

// report печатает строку с результатом, как в уроке.
func report(title string, busy, threads, refused int) {
	fmt.Printf("%s — занято потоков: %d из %d, отказов каталога: %d\n", title, busy, threads, refused)
}

// freeThread возвращает номер первого потока, свободного на такте t, или -1, если заняты все.
func freeThread(busyUntil []int, t int) int {
	for i, until := range busyUntil {
		if until <= t {
			return i
		}
	}
	return -1
}

// simulate гоняет магазин ticks тактов. Возвращает, сколько потоков ещё работает на последнем
// такте и сколько запросов к каталогу получили отказ.
func simulate(threads, ticks, slow, timeout int) (busy, refused int) {
	busyUntil := make([]int, threads) // до какого такта занят каждый поток
	for t := range ticks {
		if i := freeThread(busyUntil, t); i >= 0 {
			hold := slow
			if timeout > 0 {
				hold = min(hold, timeout)
			}
			busyUntil[i] = t + hold
		}
		if freeThread(busyUntil, t) < 0 {
			refused++ // каталогу не досталось свободного потока
		}
	}
	for _, until := range busyUntil {
		if until >= ticks {
			busy++
		}
	}
	return busy, refused
}
