// Программа retry повторяет платёж с экспоненциальной паузой и пределом попыток, как withRetry из
// урока «Когда сосед тормозит».
//
// Использование:
//
//	retry [-max N] [ОТВЕТ ...]
//
// Попытка 1 идёт на такте 0; после попытки k пауза равна 2^(k-1) тактов. Попытка k получает k-й
// ответ, а когда ответы кончаются, провайдер отвечает timeout. Повторяются только timeout и 503, и
// всего попыток не больше -max.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	fs := flag.NewFlagSet("retry", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	maxAttempts := fs.Int("max", 4, "предел попыток, включая первую")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: retry [-max N] [ОТВЕТ ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *maxAttempts < 1 || *maxAttempts > 30 {
		fmt.Fprintln(os.Stderr, "предел попыток должен быть от 1 до 30")
		fs.Usage()
		os.Exit(2)
	}
	answers := fs.Args()
	if len(answers) == 0 {
		answers = []string{"timeout", "503", "ok"}
	}
	fmt.Printf("результат: %s\n", withRetry(answers, *maxAttempts))
}

// answerAt возвращает записанный ответ на попытку номер attempt (с единицы). Когда записанные ответы
// кончаются, провайдер молчит: timeout.
func answerAt(answers []string, attempt int) string {
	if attempt <= len(answers) {
		return answers[attempt-1]
	}
	return "timeout"
}

// retryable должна решать, стоит ли ответ новой попытки: только временные ошибки.
func retryable(answer string) bool {
	// Ваш код здесь: какие ответы — временные ошибки? Правила — в условии (README.md).
	return false
}

// withRetry должна пробовать, пока ответ не станет окончательным или не кончатся попытки. Печатает
// строку на каждую попытку и возвращает последний ответ.
func withRetry(answers []string, maxAttempts int) string {
	// Ваш код здесь. Каждая попытка печатает строку
	//	такт 3, попытка 3: ok
	// а следующая попытка идёт после паузы 1, 2, 4, 8… тактов. Ответы берите через answerAt.
	// Примеры — в условии (README.md).
	return ""
}
