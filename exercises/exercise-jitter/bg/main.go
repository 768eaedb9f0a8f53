// Програмата jitter сравнява тиковете, в които клиентите повтарят заявката си, без jitter и с
// jitter. Случайните числа идват от генератора със семе от урока „Когато съседът е бавен“.
//
// Употреба:
//
//	jitter [-seed N] [-clients N] [-attempts N]
//
// Всеки клиент прави -attempts повторения. Без jitter чакането преди повторение номер k (от 0) е
// 2^k тика; с jitter е 1 + random(2·2^k). Генераторът е един за всички клиенти: семето се задава
// веднъж, в началото на програмата.
package main

import (
	"flag"
	"fmt"
	"os"
)

// seed е състоянието на генератора, общо за всички клиенти.
var seed = 7

func main() {
	fs := flag.NewFlagSet("jitter", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	start := fs.Int("seed", 7, "семе на генератора (от 0 до 65535)")
	clients := fs.Int("clients", 3, "брой клиенти (от 1 до 26)")
	attempts := fs.Int("attempts", 4, "повторения на всеки клиент (от 1 до 16)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: jitter [-seed N] [-clients N] [-attempts N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "неочакван аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if *start < 0 || *start > 65535 || *clients < 1 || *clients > 26 || *attempts < 1 || *attempts > 16 {
		fmt.Fprintln(os.Stderr, "семето трябва да е от 0 до 65535 (при 65536 генераторът стои на място), клиентите — от 1 до 26, повторенията — от 1 до 16")
		fs.Usage()
		os.Exit(2)
	}
	seed = *start
	names := make([]string, *clients) // клиентите се казват A, B, C…
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	for _, name := range names {
		fmt.Printf("%s без jitter: %s\n", name, retryTicks(*attempts, false))
	}
	for _, name := range names {
		fmt.Printf("%s с jitter  : %s\n", name, retryTicks(*attempts, true))
	}
}

// random трябва да връща число от 0 до bound-1. Всяко извикване премества семето с една стъпка.
func random(bound int) int {
	// Твоят код е тук: стъпката на генератора е seed = (seed*75 + 74) % 65537, а числото е
	// остатъкът на новото семе при деление на bound.
	return 0
}

// retryTicks трябва да връща тиковете, в които клиентът прави повторенията си, разделени с интервал.
func retryTicks(attempts int, jitter bool) string {
	// Твоят код е тук. Без jitter чакането преди повторение k (от 0) е 1 << k тика, с jitter е
	// 1 + random(2*(1<<k)). Тикът на повторението е сборът от всички чакания дотук, например
	//	1 3 7 15
	// Примерите са в условието (README.md).
	return ""
}
