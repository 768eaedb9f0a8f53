// Программа jitter сравнивает такты, на которых клиенты повторяют свой запрос, без джиттера и с
// джиттером. Случайные числа даёт генератор с зерном из урока «Когда сосед тормозит».
//
// Использование:
//
//	jitter [-seed N] [-clients N] [-attempts N]
//
// Каждый клиент делает -attempts повторов. Без джиттера пауза перед повтором номер k (с нуля) равна
// 2^k тактов; с джиттером — 1 + random(2·2^k). Генератор один на всех клиентов: зерно задаётся
// однажды, в начале программы.
package main

import (
	"flag"
	"fmt"
	"os"
)

// seed — состояние генератора, общее для всех клиентов.
var seed = 7

func main() {
	fs := flag.NewFlagSet("jitter", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	start := fs.Int("seed", 7, "зерно генератора (от 0 до 65535)")
	clients := fs.Int("clients", 3, "число клиентов (от 1 до 26)")
	attempts := fs.Int("attempts", 4, "повторов у каждого клиента (от 1 до 16)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: jitter [-seed N] [-clients N] [-attempts N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "лишний аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	if *start < 0 || *start > 65535 || *clients < 1 || *clients > 26 || *attempts < 1 || *attempts > 16 {
		fmt.Fprintln(os.Stderr, "зерно должно быть от 0 до 65535 (при 65536 генератор стоит на месте), клиентов — от 1 до 26, повторов — от 1 до 16")
		fs.Usage()
		os.Exit(2)
	}
	seed = *start
	names := make([]string, *clients) // клиентов зовут A, B, C…
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	for _, name := range names {
		fmt.Printf("%s без джиттера: %s\n", name, retryTicks(*attempts, false))
	}
	for _, name := range names {
		fmt.Printf("%s с джиттером : %s\n", name, retryTicks(*attempts, true))
	}
}

// random должна возвращать число от 0 до bound-1. Каждый вызов сдвигает зерно на один шаг.
func random(bound int) int {
	// Ваш код здесь: шаг генератора — seed = (seed*75 + 74) % 65537, а число — остаток от деления
	// нового зерна на bound.
	return 0
}

// retryTicks должна возвращать такты, на которых клиент делает свои повторы, через пробел.
func retryTicks(attempts int, jitter bool) string {
	// Ваш код здесь. Без джиттера пауза перед повтором k (с нуля) — 1 << k тактов, с джиттером —
	// 1 + random(2*(1<<k)). Такт повтора — сумма всех пауз до него, например
	//	1 3 7 15
	// Примеры — в условии (README.md).
	return ""
}
