// Програмата deadline повтаря плащане с експоненциално чакане, докато не изтече крайният срок, и
// се съобразява със сървъра, когато той моли да почака (503 с Retry-After), и в двата вида на
// заглавката: след колко тика да дойдеш и от кой тик нататък.
//
// Употреба:
//
//	deadline [-deadline N] [ОТГОВОР ...]
//
// Опит 1 е на тик 0; след опит k следващият е 2^(k-1) тика по-късно, след отговор 503:N — не по-рано
// от N тика, а след 503@T — не по-рано от тик T. Опит k получава k-тия отговор, а когато отговорите
// свършат, доставчикът отговаря timeout. Повтарят се timeout, 503, 503:N и 503@T.
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

// retryable казва дали грешката е временна и си струва нов опит. Отговорите с Retry-After (503:N,
// 503@T) не ги познава.
func retryable(answer string) bool {
	return answer == "timeout" || answer == "503"
}

// withDeadline повтаря без граница на опитите: спира, когато следващият опит би бил след крайния
// срок, и казва защо. Връща последния отговор.
func withDeadline(answers []string, deadline int) string {
	var tick uint64
	for attempt := 1; ; attempt++ {
		answer := answerAt(answers, attempt)
		fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, answer)
		next, again := earliest(answer, tick, attempt)
		if !again {
			return answer
		}
		if next > uint64(deadline) {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", attempt+1, next, deadline)
			return answer
		}
		tick = next
	}
}

// earliest казва дали отговорът на опит attempt, направен на тик tick, си струва повторение и на кой
// тик най-рано ще е следващият опит: след 2^(attempt-1) тика, но не по-рано, отколкото иска
// сървърът. Тиковете са в uint64: опит 64 е най-рано на тик 2^63−1, по-нататък срокът не пуска, а
// 2^63−1 + 2^63 още се побира в uint64.
func earliest(answer string, tick uint64, attempt int) (uint64, bool) {
	backoff := tick + uint64(1)<<(attempt-1)
	if retryable(answer) {
		return backoff, true
	}
	if text, ok := strings.CutPrefix(answer, "503:"); ok { // след N тика
		n, err := strconv.ParseUint(text, 10, 63)
		return max(backoff, tick+n), err == nil
	}
	if text, ok := strings.CutPrefix(answer, "503@"); ok { // не по-рано от тик T; минал тик не задържа
		at, err := strconv.ParseUint(text, 10, 63)
		return max(backoff, at), err == nil
	}
	return 0, false
}
