// Программа timeout выбирает таймаут по замерам задержки соседа: самый короткий, при котором ложных
// таймаутов (оборванных запросов, которые бы ещё ответили) не больше допустимой доли, и проверяет,
// укладывается ли он в бюджет задержки вызывающего.
//
// Использование:
//
//	timeout [-miss P] [-budget B] [ЗАДЕРЖКА ...]
//
// Задержки — в миллисекундах, по одной на успешный ответ. P — допустимая доля ложных таймаутов в
// процентах (от 0 до 50), B — бюджет в миллисекундах (0 — без бюджета).
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
)

func main() {
	fs := flag.NewFlagSet("timeout", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	miss := fs.Int("miss", 5, "допустимая доля ложных таймаутов, % (от 0 до 50)")
	budget := fs.Int("budget", 0, "бюджет задержки в мс (0 — без бюджета)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: timeout [-miss P] [-budget B] [ЗАДЕРЖКА ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *miss < 0 || *miss > 50 || *budget < 0 {
		fmt.Fprintln(os.Stderr, "доля — от 0 до 50 %, бюджет не может быть отрицательным")
		fs.Usage()
		os.Exit(2)
	}
	// Замеры по умолчанию: обычно сосед отвечает за 100 мс с небольшим, изредка за сотни и больше.
	latencies := []int{120, 95, 101, 99, 430, 110, 97, 105, 250, 98, 102, 115, 96, 108, 1200, 100, 103, 99, 180, 104}
	if fs.NArg() > 0 {
		latencies = latencies[:0]
		for _, arg := range fs.Args() {
			ms, err := strconv.Atoi(arg)
			if err != nil || ms < 1 || ms > 1000000 {
				fmt.Fprintf(os.Stderr, "задержка %q — не целое число миллисекунд от 1 до 1000000\n", arg)
				fs.Usage()
				os.Exit(2)
			}
			latencies = append(latencies, ms)
		}
	}
	report(latencies, *miss, *budget)
}

// report печатает, какой таймаут дают замеры latencies при доле ложных таймаутов miss % и что с ним
// делает бюджет budget.
func report(latencies []int, miss, budget int) {
	sorted := slices.Clone(latencies)
	slices.Sort(sorted)
	n := len(sorted)
	fmt.Print("по порядку:")
	for _, ms := range sorted {
		fmt.Printf(" %d", ms)
	}
	fmt.Println()
	fmt.Printf("замеров: %d, медиана: %d мс, максимум: %d мс\n", n, sorted[(n-1)/2], sorted[n-1])
	allowed := n * miss / 100
	fmt.Printf("допустимо ложных таймаутов: %d из %d\n", allowed, n)
	timeout := sorted[n-1-allowed]
	fmt.Printf("таймаут: %d мс, ложных таймаутов: %d из %d\n", timeout, longer(sorted, timeout), n)
	switch {
	case budget == 0:
	case timeout <= budget:
		fmt.Printf("в бюджет %d мс укладывается\n", budget)
	default:
		fmt.Printf("бюджет %d мс меньше: таймаут %d мс, ложных таймаутов станет %d из %d\n", budget, budget, longer(sorted, budget), n)
	}
}

// longer считает замеры, которые дольше limit: их оборвал бы таймаут limit.
func longer(latencies []int, limit int) int {
	n := 0
	for _, ms := range latencies {
		if ms > limit {
			n++
		}
	}
	return n
}
