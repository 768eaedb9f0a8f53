// Програмата timeout избира таймаут по измерванията на закъснението на съседа: най-краткия, при който
// фалшивите таймаути (прекъснати заявки, които още биха получили отговор) не са повече от допустимия
// дял, и проверява дали той се вмества в бюджета за закъснение на извикващия.
//
// Употреба:
//
//	timeout [-miss P] [-budget B] [ЗАКЪСНЕНИЕ ...]
//
// Закъсненията са в милисекунди, по едно за успешен отговор. P е допустимият дял фалшиви таймаути в
// проценти (от 0 до 50), B е бюджетът в милисекунди (0 значи без бюджет).
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
	miss := fs.Int("miss", 5, "допустим дял фалшиви таймаути, % (от 0 до 50)")
	budget := fs.Int("budget", 0, "бюджет за закъснение в мс (0 значи без бюджет)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: timeout [-miss P] [-budget B] [ЗАКЪСНЕНИЕ ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *miss < 0 || *miss > 50 || *budget < 0 {
		fmt.Fprintln(os.Stderr, "делът е от 0 до 50 %, бюджетът не може да е отрицателен")
		fs.Usage()
		os.Exit(2)
	}
	// Измерванията по подразбиране: обикновено съседът отговаря за малко над 100 мс, рядко за стотици и повече.
	latencies := []int{120, 95, 101, 99, 430, 110, 97, 105, 250, 98, 102, 115, 96, 108, 1200, 100, 103, 99, 180, 104}
	if fs.NArg() > 0 {
		latencies = latencies[:0]
		for _, arg := range fs.Args() {
			ms, err := strconv.Atoi(arg)
			if err != nil || ms < 1 || ms > 1000000 {
				fmt.Fprintf(os.Stderr, "закъснението %q не е цяло число милисекунди от 1 до 1000000\n", arg)
				fs.Usage()
				os.Exit(2)
			}
			latencies = append(latencies, ms)
		}
	}
	report(latencies, *miss, *budget)
}

// report печата какъв таймаут дават измерванията latencies при дял фалшиви таймаути miss % и какво
// прави с него бюджетът budget.
func report(latencies []int, miss, budget int) {
	sorted := slices.Clone(latencies)
	slices.Sort(sorted)
	n := len(sorted)
	fmt.Print("подредени:")
	for _, ms := range sorted {
		fmt.Printf(" %d", ms)
	}
	fmt.Println()
	fmt.Printf("измервания: %d, медиана: %d мс, максимум: %d мс\n", n, sorted[(n-1)/2], sorted[n-1])
	allowed := n * miss / 100
	fmt.Printf("допустими фалшиви таймаути: %d от %d\n", allowed, n)
	timeout := sorted[n-1-allowed]
	fmt.Printf("таймаут: %d мс, фалшиви таймаути: %d от %d\n", timeout, longer(sorted, timeout), n)
	switch {
	case budget == 0:
	case timeout <= budget:
		fmt.Printf("вмества се в бюджета от %d мс\n", budget)
	default:
		fmt.Printf("бюджетът от %d мс е по-малък: таймаут %d мс, фалшивите таймаути стават %d от %d\n", budget, budget, longer(sorted, budget), n)
	}
}

// longer брои измерванията, по-дълги от limit: тях би ги прекъснал таймаут limit.
func longer(latencies []int, limit int) int {
	n := 0
	for _, ms := range latencies {
		if ms > limit {
			n++
		}
	}
	return n
}
