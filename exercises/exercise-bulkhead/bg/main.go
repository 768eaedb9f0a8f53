// Програмата bulkhead разделя пула на магазина от урока „Когато съседът е бавен“ на два: отделни
// нишки за плащанията и отделни за каталога. Бавният доставчик на плащания може да заеме само
// нишките на плащанията.
//
// Употреба:
//
//	bulkhead [-pay N] [-catalogue N] [-ticks N] [-slow N] [-lookup N] [-timeout N]
//
// Всеки тик идват едно плащане и една заявка за каталога. Плащането заема нишка от своя пул за
// -slow тика (с timeout — най-много за -timeout тика), заявката за каталога — нишка от своя пул за
// -lookup тика. Програмата пуска магазина два пъти: без timeout и с timeout.
package main

import (
	"flag"
	"fmt"
	"os"
)

// result е състоянието на един пул в края: колко нишки още работят и колко заявки са отказани.
type result struct {
	busy, refused int
}

func main() {
	fs := flag.NewFlagSet("bulkhead", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	pay := fs.Int("pay", 2, "нишки за плащанията")
	catalogue := fs.Int("catalogue", 2, "нишки за каталога")
	ticks := fs.Int("ticks", 8, "колко тика наблюдаваме")
	slow := fs.Int("slow", 30, "след колко тика отговаря доставчикът на плащания")
	lookup := fs.Int("lookup", 1, "колко тика отнема заявка за каталога")
	timeout := fs.Int("timeout", 2, "timeout на плащанията във второто пускане, в тикове")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: bulkhead [-pay N] [-catalogue N] [-ticks N] [-slow N] [-lookup N] [-timeout N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "неочакван аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if *pay < 1 || *catalogue < 1 || *ticks < 1 || *slow < 1 || *lookup < 1 || *timeout < 1 {
		fmt.Fprintln(os.Stderr, "всички стойности трябва да са поне 1")
		fs.Usage()
		os.Exit(2)
	}
	if *pay > 100 || *catalogue > 100 || *ticks > 100000 || *slow > 1000000 || *lookup > 1000000 || *timeout > 1000000 {
		fmt.Fprintln(os.Stderr, "нишките в пул са най-много 100, тиковете най-много 100000, а другите стойности най-много 1000000")
		fs.Usage()
		os.Exit(2)
	}
	for _, t := range []int{0, *timeout} {
		payments, catalog := simulate(*pay, *catalogue, *ticks, *slow, *lookup, t)
		fmt.Printf("%s:\n", title(t))
		report("плащания", payments, *pay)
		report("каталог", catalog, *catalogue)
	}
}

// title е заглавието на едно пускане: „без timeout“ или „timeout 2 тика“.
func title(timeout int) string {
	if timeout == 0 {
		return "без timeout"
	}
	if timeout == 1 {
		return "timeout 1 тик"
	}
	return fmt.Sprintf("timeout %d тика", timeout)
}

// report печата реда на един пул.
func report(name string, r result, threads int) {
	fmt.Printf("  %s — заети нишки: %d от %d, отказани заявки: %d\n", name, r.busy, threads, r.refused)
}

// simulate трябва да пусне магазина с два отделни пула за ticks тика и да върне резултата на всеки
// пул. Нулев timeout означава „без граница“.
func simulate(pay, catalogue, ticks, slow, lookup, timeout int) (payments, catalog result) {
	// Твоят код е тук. Всеки пул помни за всяка своя нишка до кой тик е заета. Във всеки тик t:
	//   - плащането заема свободна нишка от пула за плащания за slow тика (с timeout — най-много
	//     за timeout тика), а ако свободна няма, е отказано;
	//   - заявката за каталога заема свободна нишка от пула на каталога за lookup тика, а ако
	//     свободна няма, е отказана.
	// Накрая във всеки пул преброй нишките, които още работят в тик ticks-1. Правилата са в
	// условието (README.md).
	return payments, catalog
}
