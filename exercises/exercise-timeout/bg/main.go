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

// report трябва да отпечата какъв таймаут дават измерванията latencies при дял фалшиви таймаути
// miss % и какво прави с него бюджетът budget (0 значи без бюджет). Редовете и правилата са в
// условието (README.md).
func report(latencies []int, miss, budget int) {
	// Твоят код е тук. Първият ред например:
	//	измервания: 20, медиана: 103 мс, максимум: 1200 мс
}
