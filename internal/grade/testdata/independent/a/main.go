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

// withDeadline повтаря, докато следващият опит не излезе след срока.
func withDeadline(answers []string, deadline int) string {
	limit := uint64(deadline)
	now, step := uint64(0), uint64(1)
	for n := 1; ; n++ {
		reply := "timeout"
		if n <= len(answers) {
			reply = answers[n-1]
		}
		fmt.Printf("тик %d, опит %d: %s\n", now, n, reply)
		wait, ok := delay(reply, now)
		if !ok {
			return reply
		}
		later := now + step
		if wait > later {
			later = wait
		}
		if later > limit {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", n+1, later, deadline)
			return reply
		}
		now = later
		step *= 2
	}
}

// delay казва от кой тик сървърът позволява следващ опит (0: без изискване) и дали да има такъв.
func delay(reply string, now uint64) (uint64, bool) {
	switch {
	case reply == "timeout" || reply == "503":
		return 0, true
	case len(reply) > 4 && reply[:4] == "503:":
		v, err := strconv.ParseUint(reply[4:], 10, 63)
		if err != nil {
			return 0, false
		}
		return now + v, true
	case len(reply) > 4 && reply[:4] == "503@":
		v, err := strconv.ParseUint(reply[4:], 10, 63)
		if err != nil {
			return 0, false
		}
		return v, true
	}
	return 0, false
}
