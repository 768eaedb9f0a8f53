// Програмата retry повтаря плащане с експоненциално чакане и граница на опитите, както withRetry от
// урока „Когато съседът е бавен“.
//
// Употреба:
//
//	retry [-max N] [ОТГОВОР ...]
//
// Опит 1 е на тик 0; след опит k чакането е 2^(k-1) тика. Опит k получава k-тия отговор, а когато
// отговорите свършат, доставчикът отговаря timeout. Повтарят се само timeout и 503, и то най-много
// до -max опита общо.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	fs := flag.NewFlagSet("retry", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	maxAttempts := fs.Int("max", 4, "най-много опити, първият включително")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: retry [-max N] [ОТГОВОР ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *maxAttempts < 1 || *maxAttempts > 30 {
		fmt.Fprintln(os.Stderr, "границата на опитите трябва да е от 1 до 30")
		fs.Usage()
		os.Exit(2)
	}
	answers := fs.Args()
	if len(answers) == 0 {
		answers = []string{"timeout", "503", "ok"}
	}
	fmt.Printf("резултат: %s\n", withRetry(answers, *maxAttempts))
}

// answerAt връща записания отговор за опит номер attempt (от 1). Когато записаните отговори
// свършат, доставчикът не отговаря: timeout.
func answerAt(answers []string, attempt int) string {
	if attempt <= len(answers) {
		return answers[attempt-1]
	}
	return "timeout"
}

// retryable трябва да казва дали отговорът заслужава нов опит: само временните грешки.
func retryable(answer string) bool {
	// Твоят код е тук: кои отговори са временни грешки? Виж правилата в условието (README.md).
	return false
}

// withRetry трябва да опитва, докато отговорът не стане окончателен или опитите не свършат. Печата
// ред за всеки опит и връща последния отговор.
func withRetry(answers []string, maxAttempts int) string {
	// Твоят код е тук. Всеки опит печата ред
	//	тик 3, опит 3: ok
	// а следващият опит идва след чакане 1, 2, 4, 8… тика. Вземай отговорите с answerAt.
	// Примерите са в условието (README.md).
	return ""
}
