// Программа bulkhead делит пул магазина из урока «Когда сосед тормозит» на два: отдельные потоки
// для платежей и отдельные для каталога. Медленный платёжный провайдер может занять только
// платёжные потоки.
//
// Использование:
//
//	bulkhead [-pay N] [-catalogue N] [-ticks N] [-slow N] [-lookup N] [-timeout N]
//
// Каждый такт приходят один платёж и один запрос к каталогу. Платёж занимает поток своего пула на
// -slow тактов (с таймаутом — не дольше -timeout тактов), запрос к каталогу — поток своего пула на
// -lookup тактов. Программа гоняет магазин дважды: без таймаута и с таймаутом.
package main

import (
	"flag"
	"fmt"
	"os"
)

// result — состояние одного пула в конце: сколько потоков ещё работает и сколько запросов получили
// отказ.
type result struct {
	busy, refused int
}

func main() {
	fs := flag.NewFlagSet("bulkhead", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	pay := fs.Int("pay", 2, "потоков для платежей")
	catalogue := fs.Int("catalogue", 2, "потоков для каталога")
	ticks := fs.Int("ticks", 8, "сколько тактов наблюдаем")
	slow := fs.Int("slow", 30, "через сколько тактов отвечает платёжный провайдер")
	lookup := fs.Int("lookup", 1, "сколько тактов занимает запрос к каталогу")
	timeout := fs.Int("timeout", 2, "таймаут платежей во втором запуске, в тактах")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: bulkhead [-pay N] [-catalogue N] [-ticks N] [-slow N] [-lookup N] [-timeout N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "лишний аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if *pay < 1 || *catalogue < 1 || *ticks < 1 || *slow < 1 || *lookup < 1 || *timeout < 1 {
		fmt.Fprintln(os.Stderr, "все значения должны быть не меньше 1")
		fs.Usage()
		os.Exit(2)
	}
	if *pay > 100 || *catalogue > 100 || *ticks > 100000 || *slow > 1000000 || *lookup > 1000000 || *timeout > 1000000 {
		fmt.Fprintln(os.Stderr, "потоков в пуле не больше 100, тактов не больше 100000, остальные значения не больше 1000000")
		fs.Usage()
		os.Exit(2)
	}
	for _, t := range []int{0, *timeout} {
		payments, catalog := simulate(*pay, *catalogue, *ticks, *slow, *lookup, t)
		fmt.Printf("%s:\n", title(t))
		report("платежи", payments, *pay)
		report("каталог", catalog, *catalogue)
	}
}

// title — заголовок одного запуска: «без таймаута» или «таймаут 2 такта».
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

// report печатает строку одного пула.
func report(name string, r result, threads int) {
	fmt.Printf("  %s — занято потоков: %d из %d, отказов: %d\n", name, r.busy, threads, r.refused)
}

// simulate должна прогнать магазин с двумя отдельными пулами ticks тактов и вернуть результат
// каждого пула. Нулевой таймаут означает «без ограничения».
func simulate(pay, catalogue, ticks, slow, lookup, timeout int) (payments, catalog result) {
	// Ваш код здесь. Каждый пул помнит для каждого своего потока, до какого такта тот занят. На
	// каждом такте t:
	//   - платёж занимает свободный поток платёжного пула на slow тактов (с таймаутом — не дольше
	//     timeout тактов), а если свободного нет, получает отказ;
	//   - запрос к каталогу занимает свободный поток пула каталога на lookup тактов, а если
	//     свободного нет, получает отказ.
	// В конце в каждом пуле сосчитайте потоки, которые ещё работают на такте ticks-1. Правила — в
	// условии (README.md).
	return payments, catalog
}
