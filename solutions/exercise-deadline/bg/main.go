// Програмата deadline повтаря плащане с експоненциално чакане, докато не изтече крайният срок, и
// се вслушва в сървъра, когато той моли да почака (503 с Retry-After).
//
// Употреба:
//
//	deadline [-deadline N] [ОТГОВОР ...]
//
// Опит 1 е на тик 0; след опит k паузата е 2^(k-1) тика, а след отговор 503:N — по-голямото
// от 2^(k-1) и N. Опит k получава k-тия отговор, а когато отговорите свършат, доставчикът отговаря
// timeout. Повтарят се timeout, 503 и 503:N.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
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

// retryable казва дали грешката е временна и си струва нов опит. Отговорите 503:N не ги познава.
func retryable(answer string) bool {
	return answer == "timeout" || answer == "503"
}

// withDeadline повтаря без граница на опитите: спира, когато следващият опит би бил след крайния
// срок, и казва защо. Връща последния отговор.
func withDeadline(answers []string, deadline int) string {
	tick := 0
	for attempt := 1; ; attempt++ {
		answer := answerAt(answers, attempt)
		fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, answer)
		asked, again := serverPause(answer)
		if !again {
			return answer
		}
		// Опит 64 е най-рано на тик 2^63−1 и по-нататък срокът не пуска: изместването не излиза от uint64.
		pause := max(uint64(1)<<(attempt-1), asked)
		if pause > uint64(deadline-tick) {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", attempt+1, uint64(tick)+pause, deadline)
			return answer
		}
		tick += int(pause)
	}
}

// serverPause казва дали отговорът си струва нов опит и колко тика моли сървърът да се чака: N за
// 503:N, 0 за timeout и 503.
func serverPause(answer string) (uint64, bool) {
	if retryable(answer) {
		return 0, true
	}
	text, ok := strings.CutPrefix(answer, "503:")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(text, 10, 63)
	return n, err == nil
}
