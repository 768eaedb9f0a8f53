// Программа deadline повторяет платёж с экспоненциальной паузой, пока не истечёт крайний срок.
//
// Использование:
//
//	deadline [-deadline N] [ОТВЕТ ...]
//
// Попытка 1 идёт на такте 0; после попытки k пауза равна 2^(k-1) тактов. Попытка k получает k-й
// ответ, а когда ответы кончаются, провайдер отвечает timeout. Повторяются только timeout и 503.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	fs := flag.NewFlagSet("deadline", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	deadline := fs.Int("deadline", 5, "крайний срок в тактах")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: deadline [-deadline N] [ОТВЕТ ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *deadline < 0 {
		fmt.Fprintln(os.Stderr, "крайний срок не может быть отрицательным")
		fs.Usage()
		os.Exit(2)
	}
	answers := fs.Args()
	if len(answers) == 0 {
		answers = []string{"timeout", "timeout", "timeout", "ok"}
	}
	fmt.Printf("результат: %s\n", withDeadline(answers, *deadline))
}

// answerAt возвращает записанный ответ на попытку номер attempt (с единицы). Когда записанные ответы
// кончаются, провайдер молчит: timeout.
func answerAt(answers []string, attempt int) string {
	if attempt <= len(answers) {
		return answers[attempt-1]
	}
	return "timeout"
}

// retryable говорит, временная ли ошибка и стоит ли пробовать снова.
func retryable(answer string) bool {
	return answer == "timeout" || answer == "503"
}

// withDeadline повторяет, как withRetry, но без предела попыток: останавливается, когда следующая
// попытка пришлась бы на такт позже крайнего срока, и объясняет почему. Возвращает последний ответ.
func withDeadline(answers []string, deadline int) string {
	tick := 0
	for attempt := 1; ; attempt++ {
		answer := answerAt(answers, attempt)
		fmt.Printf("такт %d, попытка %d: %s\n", tick, attempt, answer)
		if !retryable(answer) {
			return answer
		}
		wait := uint64(1) << (attempt - 1) // 2^63 after attempt 64 does not fit in int
		if wait > uint64(deadline-tick) {
			fmt.Printf("стоп: попытка %d пришлась бы на такт %d, позже срока %d\n", attempt+1, uint64(tick)+wait, deadline)
			return answer
		}
		tick += int(wait)
	}
}
