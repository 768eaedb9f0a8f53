// Програмата jitter разпръсква повторенията на клиентите по тиковете с едно от правилата за джитър
// от статията на Марк Брукър „Exponential Backoff And Jitter“: пълен, равен или декорелиран, и
// брои колко повторения все пак са попаднали на тик, на който повтаря и някой друг.
//
// Употреба:
//
//	jitter [-rule none|full|equal|decorrelated] [-seed N] [-clients N] [-attempts N] [-base N] [-cap N]
//
// Паузата преди повторение k (от нула) се строи от v = min(cap, base·2^k); случайните числа идват от
// генератора с начална стойност от урока „Когато съседът е бавен“, един за всички клиенти.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// seed е състоянието на генератора, общо за всички клиенти.
var seed = 7

func main() {
	fs := flag.NewFlagSet("jitter", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	rule := fs.String("rule", "full", "правило: none, full, equal или decorrelated")
	start := fs.Int("seed", 7, "начална стойност на генератора (от 0 до 65535)")
	clients := fs.Int("clients", 3, "брой клиенти (от 1 до 26)")
	attempts := fs.Int("attempts", 4, "повторения за всеки клиент (от 1 до 16)")
	base := fs.Int("base", 1, "начална пауза в тикове (от 1 до 100)")
	limit := fs.Int("cap", 1000, "таван на паузата в тикове (от base до 100000)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: jitter [-rule none|full|equal|decorrelated] [-seed N] [-clients N] [-attempts N] [-base N] [-cap N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "излишен аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	switch {
	case *rule != "none" && *rule != "full" && *rule != "equal" && *rule != "decorrelated",
		*start < 0 || *start > 65535, *clients < 1 || *clients > 26, *attempts < 1 || *attempts > 16,
		*base < 1 || *base > 100, *limit < *base || *limit > 100000:
		fmt.Fprintln(os.Stderr, "правилото е none, full, equal или decorrelated; началната стойност е от 0 до 65535, клиентите от 1 до 26, повторенията от 1 до 16, base от 1 до 100, cap от base до 100000")
		fs.Usage()
		os.Exit(2)
	}
	seed = *start
	fmt.Printf("правило %s, base %d, cap %d\n", *rule, *base, *limit)
	all := make([][]int, *clients)
	for i := range all {
		all[i] = retryTicks(*rule, *attempts, *base, *limit)
		fmt.Printf("%c: %s\n", 'A'+i, join(all[i]))
	}
	fmt.Printf("повторения в общ тик: %d от %d\n", shared(all), *clients**attempts)
}

// random връща число от 0 до bound-1. Всяко извикване прави една стъпка на генератора.
func random(bound int) int {
	seed = (seed*75 + 74) % 65537
	return seed % bound
}

// join записва тиковете, разделени с интервал.
func join(ticks []int) string {
	parts := make([]string, len(ticks))
	for i, t := range ticks {
		parts[i] = strconv.Itoa(t)
	}
	return strings.Join(parts, " ")
}

// retryTicks трябва да върне тиковете, на които един клиент повтаря по правилото rule.
func retryTicks(rule string, attempts, base, limit int) []int {
	// Твоят код е тук: паузата преди повторение k се строи от v = min(limit, base·2^k) според rule
	// (none, full, equal, decorrelated, виж условието), а тикът на повторението е сборът от паузите.
	return nil
}

// shared трябва да преброи повторенията, чийто тик го има и у друг клиент.
func shared(all [][]int) int {
	// Твоят код е тук.
	return 0
}
