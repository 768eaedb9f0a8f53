// Програмата deadline повтаря плащане с експоненциално чакане, докато не изтече крайният срок.
//
// Употреба:
//
//	deadline [-deadline N] [ОТГОВОР ...]
//
// Опит 1 е на тик 0; след опит k чакането е 2^(k-1) тика. Опит k получава k-тия отговор, а когато
// отговорите свършат, доставчикът отговаря timeout. Повтарят се само timeout и 503.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	fs := flag.NewFlagSet("deadline", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	deadline := fs.Int("deadline", 5, "краен срок в тикове")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: deadline [-deadline N] [ОТГОВОР ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *deadline < 0 {
		fmt.Fprintln(os.Stderr, "крайният срок не може да е отрицателен")
		fs.Usage()
		os.Exit(2)
	}
	answers := fs.Args()
	if len(answers) == 0 {
		answers = []string{"timeout", "timeout", "timeout", "ok"}
	}
	fmt.Printf("резултат: %s\n", withDeadline(answers, *deadline))
}

// answerAt връща записания отговор за опит номер attempt (от 1). Когато записаните отговори
// свършат, доставчикът не отговаря: timeout.
func answerAt(answers []string, attempt int) string {
	if attempt <= len(answers) {
		return answers[attempt-1]
	}
	return "timeout"
}

// retryable казва дали грешката е временна и си струва нов опит.
func retryable(answer string) bool {
	return answer == "timeout" || answer == "503"
}

// withDeadline повтаря като withRetry, но без граница на опитите: спира, когато следващият опит би
// бил след крайния срок, и казва защо. Връща последния отговор.
func withDeadline(answers []string, deadline int) string {
	tick := 0
	for attempt := 1; ; attempt++ {
		answer := answerAt(answers, attempt)
		fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, answer)
		if !retryable(answer) {
			return answer
		}
		wait := uint64(1) << (attempt - 1) // 2^63 after attempt 64 does not fit in int
		if wait > uint64(deadline-tick) {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", attempt+1, uint64(tick)+wait, deadline)
			return answer
		}
		tick += int(wait)
	}
}
