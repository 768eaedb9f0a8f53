// Программа jitter разводит повторы клиентов по тактам одним из правил джиттера, которые называет
// статья Марка Брукера «Exponential Backoff And Jitter»: полным, равным или декоррелированным, — и
// считает, сколько повторов всё равно пришлось на такт, где повторяет и кто-то ещё.
//
// Использование:
//
//	jitter [-rule none|full|equal|decorrelated] [-seed N] [-clients N] [-attempts N] [-base N] [-cap N]
//
// Пауза перед повтором k (с нуля) строится из v = min(cap, base·2^k); случайные числа даёт генератор
// с зерном из урока «Когда сосед тормозит», один на всех клиентов.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// seed — состояние генератора, общее для всех клиентов.
var seed = 7

func main() {
	fs := flag.NewFlagSet("jitter", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	rule := fs.String("rule", "full", "правило: none, full, equal или decorrelated")
	start := fs.Int("seed", 7, "зерно генератора (от 0 до 65535)")
	clients := fs.Int("clients", 3, "число клиентов (от 1 до 26)")
	attempts := fs.Int("attempts", 4, "повторов у каждого клиента (от 1 до 16)")
	base := fs.Int("base", 1, "начальная пауза в тактах (от 1 до 100)")
	limit := fs.Int("cap", 1000, "потолок паузы в тактах (от base до 100000)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: jitter [-rule none|full|equal|decorrelated] [-seed N] [-clients N] [-attempts N] [-base N] [-cap N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "лишний аргумент: %s\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	switch {
	case *rule != "none" && *rule != "full" && *rule != "equal" && *rule != "decorrelated",
		*start < 0 || *start > 65535, *clients < 1 || *clients > 26, *attempts < 1 || *attempts > 16,
		*base < 1 || *base > 100, *limit < *base || *limit > 100000:
		fmt.Fprintln(os.Stderr, "правило — none, full, equal или decorrelated; зерно от 0 до 65535, клиентов от 1 до 26, повторов от 1 до 16, base от 1 до 100, cap от base до 100000")
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
	fmt.Printf("повторов в общий такт: %d из %d\n", shared(all), *clients**attempts)
}

// random возвращает число от 0 до bound-1. Каждый вызов сдвигает зерно на один шаг.
func random(bound int) int {
	seed = (seed*75 + 74) % 65537
	return seed % bound
}

// join записывает такты через пробел.
func join(ticks []int) string {
	parts := make([]string, len(ticks))
	for i, t := range ticks {
		parts[i] = strconv.Itoa(t)
	}
	return strings.Join(parts, " ")
}

// retryTicks возвращает такты, на которых один клиент делает свои повторы по правилу rule.
func retryTicks(rule string, attempts, base, limit int) []int {
	ticks := make([]int, 0, attempts)
	tick, prev := 0, base
	for k := range attempts {
		v := min(limit, base<<k)
		wait := v
		switch rule {
		case "full":
			wait = 1 + random(v)
		case "equal":
			wait = (v+1)/2 + random(v/2+1)
		case "decorrelated":
			wait = min(limit, base+random(3*prev-base+1))
			prev = wait
		}
		tick += wait
		ticks = append(ticks, tick)
	}
	return ticks
}

// shared считает повторы, такт которых есть и у другого клиента.
func shared(all [][]int) int {
	clients := map[int]int{} // такт -> сколько раз на нём повторяют; у одного клиента такты растут
	for _, ticks := range all {
		for _, t := range ticks {
			clients[t]++
		}
	}
	n := 0
	for _, ticks := range all {
		for _, t := range ticks {
			if clients[t] > 1 {
				n++
			}
		}
	}
	return n
}
