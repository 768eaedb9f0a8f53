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

// withDeadline трябва да повтаря без граница на опитите: спира, когато следващият опит би бил след
// крайния срок, и казва защо. Връща последния отговор.
func withDeadline(answers []string, deadline int) string {
	// Твоят код е тук. Всеки опит печата ред
	//	тик 0, опит 1: timeout
	// а когато следващият опит би бил след срока, програмата печата
	//	спирам: опит 4 би бил на тик 7, след срока 5
	// и връща последния отговор. 503:N моли да дойдеш не по-рано от N тика, 503@T — не по-рано от
	// тик T, а срокът може да е всякакъв, чак до най-голямото int. Примерите са в условието
	// (README.md).
	return ""
}
