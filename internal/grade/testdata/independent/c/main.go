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

// session помни докъде е стигнал клиентът: тика на последния опит, номера му и чакането по
// правилото 1, 2, 4, … тика.
type session struct {
	clock, wait uint64
	tries       int
	limit       uint64
}

// plan казва на кой тик сървърът позволява следващия опит и дали изобщо да има такъв.
func (s *session) plan(reply string) (uint64, bool) {
	floor := s.clock + s.wait
	if retryable(reply) {
		return floor, true
	}
	kind, num, found := strings.Cut(reply, ":")
	relative := found
	if !found {
		kind, num, found = strings.Cut(reply, "@")
	}
	if !found || kind != "503" {
		return 0, false
	}
	v, err := strconv.ParseUint(num, 10, 63)
	if err != nil {
		return 0, false
	}
	if relative {
		v += s.clock
	}
	if v < floor {
		v = floor
	}
	return v, true
}

func withDeadline(answers []string, deadline int) string {
	s := &session{wait: 1, limit: uint64(deadline)}
	for {
		s.tries++
		reply := answerAt(answers, s.tries)
		fmt.Printf("тик %d, опит %d: %s\n", s.clock, s.tries, reply)
		at, more := s.plan(reply)
		switch {
		case !more:
			return reply
		case at > s.limit:
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", s.tries+1, at, deadline)
			return reply
		}
		s.clock = at
		s.wait <<= 1
	}
}
