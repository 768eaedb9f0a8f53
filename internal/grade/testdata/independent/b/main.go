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

// server раздава записаните отговори един по един.
type server struct {
	answers []string
	calls   int
}

func (s *server) call() string {
	s.calls++
	return answerAt(s.answers, s.calls)
}

// withDeadline пита сървъра отново и отново, с удвояващо се чакане.
func withDeadline(answers []string, deadline int) string {
	srv := &server{answers: answers}
	var at uint64
	for {
		last := srv.call()
		fmt.Printf("тик %d, опит %d: %s\n", at, srv.calls, last)
		floor, retry := notBefore(last, at)
		if !retry {
			return last
		}
		next := max(at+backoff(srv.calls), floor)
		if next > uint64(deadline) {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", srv.calls+1, next, deadline)
			return last
		}
		at = next
	}
}

func backoff(attempt int) uint64 { return uint64(1) << uint(attempt-1) }

// notBefore е най-ранният тик, който сървърът разрешава след отговора, и дали изобщо да се опита пак.
func notBefore(reply string, at uint64) (uint64, bool) {
	if retryable(reply) {
		return at, true
	}
	code, arg, relative := strings.Cut(reply, ":")
	if !relative {
		var found bool
		if code, arg, found = strings.Cut(reply, "@"); !found {
			return 0, false
		}
	}
	if code != "503" {
		return 0, false
	}
	n, err := strconv.ParseUint(arg, 10, 63)
	switch {
	case err != nil:
		return 0, false
	case relative:
		return at + n, true
	}
	return n, true
}
