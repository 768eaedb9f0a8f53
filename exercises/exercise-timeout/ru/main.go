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

// simulate должна прогнать магазин ticks тактов и вернуть, сколько потоков ещё работает на последнем
// такте и сколько запросов к каталогу получили отказ.
func simulate(threads, ticks, slow, timeout int) (busy, refused int) {
	// Ваш код здесь. Каждый поток помнит, до какого такта он занят. На каждом такте t:
	//   - платёж занимает первый свободный поток на slow тактов (или на timeout тактов, если он короче);
	//   - если после этого свободных потоков не осталось, запрос к каталогу получает отказ.
	// В конце сосчитайте потоки, которые ещё работают на такте ticks-1. Правила — в условии (README.md).
	return 0, 0
}
