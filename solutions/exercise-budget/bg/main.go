// Програмата budget пуска клиент с бюджет за повторения (retry budget) през срив на базата и печата
// секунда по секунда колко опита стигат до нея.
//
// Употреба:
//
//	budget [-requests N] [-budget P] [-window W] [-tries T] [СЦЕНАРИЙ]
//
// СЦЕНАРИЙ има по един знак за всяка секунда: x — базата не работи, . — работи. Всяка секунда клиентът
// изпраща N нови заявки; в секунда на срив всяка заявка иска до T-1 повторения. В прозорец от W секунди
// повторенията са най-много P % от заявките в прозореца дотук. По подразбиране N = 60, P = 10, W = 1,
// T = 3, а сценарият е .....xxxxxxxx... (базата я няма от секунда 5 до секунда 12).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	fs := flag.NewFlagSet("budget", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	requests := fs.Int("requests", 60, "нови заявки в секунда")
	percent := fs.Int("budget", 10, "бюджет за повторения в проценти от заявките в прозореца")
	window := fs.Int("window", 1, "дължина на прозореца в секунди")
	tries := fs.Int("tries", 3, "най-много опити за една заявка")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: budget [-requests N] [-budget P] [-window W] [-tries T] [СЦЕНАРИЙ]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	timeline := ".....xxxxxxxx..."
	switch {
	case fs.NArg() > 1:
		usageError(fs, "сценарият е един низ от x и .")
	case fs.NArg() == 1:
		timeline = fs.Arg(0)
	}
	if *requests < 1 || *window < 1 || *tries < 1 {
		usageError(fs, "заявките, прозорецът и опитите трябва да са поне 1")
	}
	if *requests > 1000000 || *tries > 1000 {
		usageError(fs, "най-много 1000000 заявки в секунда и 1000 опита на заявка")
	}
	if *percent < 0 || *percent > 100 {
		usageError(fs, "бюджетът е процент от 0 до 100")
	}
	if timeline == "" || strings.Trim(timeline, "x.") != "" {
		usageError(fs, "сценарият може да съдържа само x (не работи) и . (работи)")
	}
	run(timeline, *requests, *percent, *window, *tries)
}

// usageError казва какво не е наред с аргументите, показва употребата и спира с код 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// run пуска клиента през сценария timeline: всяка секунда requests нови заявки, до tries опита за
// заявка и бюджет за повторения percent % в прозорци от по window секунди. Печата по ред за секунда и
// накрая общия сбор.
func run(timeline string, requests, percent, window, tries int) {
	var sent, retried int // заявки и повторения в текущия прозорец
	var allRequests, allRetries, withoutBudget int
	for second := range len(timeline) {
		if second%window == 0 {
			sent, retried = 0, 0 // нов прозорец: бюджетът започва отначало
		}
		down := timeline[second] == 'x'
		sent += requests
		allowed := sent * percent / 100 // най-много толкова повторения в прозореца дотук
		retries := 0
		wanted := 0
		if down {
			wanted = requests * (tries - 1) // базата не отговаря на нито един опит
			retries = min(wanted, allowed-retried)
		}
		retried += retries

		mark := ""
		if down {
			mark = " (срив)"
		}
		fmt.Printf("секунда %d%s — заявки: %d, повторения: %d, опити към базата: %d, бюджет: %d от %d\n",
			second, mark, requests, retries, requests+retries, retried, allowed)
		allRequests += requests
		allRetries += retries
		withoutBudget += requests + wanted
	}
	fmt.Printf("общо заявки: %d, повторения: %d, опити към базата: %d\n",
		allRequests, allRetries, allRequests+allRetries)
	fmt.Printf("без бюджет опитите биха били: %d\n", withoutBudget)
}
