// Програмата timeout пуска магазина от урока „Когато съседът е бавен“: пул от нишки, в който всеки
// тик идват едно плащане и една заявка за каталога, а доставчикът на плащания отговаря бавно.
//
// Употреба:
//
//	timeout [-threads N] [-ticks N] [-slow N] [-timeout N]
//
// Плащането заема свободна нишка и я държи -slow тика, докато доставчикът отговори, или по-малко,
// ако timeout-ът изтече по-рано. Нулев timeout означава „без граница“. Заявката за каталога се
// обслужва мигновено, стига в този тик да има свободна нишка.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	fs := flag.NewFlagSet("timeout", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	threads := fs.Int("threads", 4, "нишки в пула")
	ticks := fs.Int("ticks", 8, "колко тика наблюдаваме")
	slow := fs.Int("slow", 30, "след колко тика отговаря доставчикът")
	timeout := fs.Int("timeout", 0, "timeout в тикове (0 значи без граница)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: timeout [-threads N] [-ticks N] [-slow N] [-timeout N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "неочакван аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if *threads < 1 || *ticks < 1 || *slow < 1 || *timeout < 0 {
		fmt.Fprintln(os.Stderr, "-threads, -ticks и -slow трябва да са поне 1, а -timeout не може да е отрицателен")
		fs.Usage()
		os.Exit(2)
	}
	busy, refused := simulate(*threads, *ticks, *slow, *timeout)
	report(title(*timeout), busy, *threads, refused)
}

// title е заглавието на реда: „без timeout“ или „timeout 2 тика“.
func title(timeout int) string {
	if timeout == 0 {
		return "без timeout"
	}
	if timeout == 1 {
		return "timeout 1 тик"
	}
	return fmt.Sprintf("timeout %d тика", timeout)
}

// report печата реда с резултата, както в урока.
func report(title string, busy, threads, refused int) {
	requests := "заявки"
	if refused == 1 {
		requests = "заявка"
	}
	fmt.Printf("%s: заети нишки %d от %d, каталогът отказа %d %s\n", title, busy, threads, refused, requests)
}

// simulate трябва да пусне магазина за ticks тика и да върне колко нишки още работят в последния
// тик и колко заявки за каталога са отказани.
func simulate(threads, ticks, slow, timeout int) (busy, refused int) {
	// Твоят код е тук. Всяка нишка помни до кой тик е заета. Във всеки тик t:
	//   - плащането заема първата свободна нишка за slow тика (или за timeout тика, ако е по-кратък);
	//   - ако след това не е останала свободна нишка, заявката за каталога е отказана.
	// Накрая преброй нишките, които още работят в тик ticks-1. Правилата са в условието (README.md).
	return 0, 0
}
