// Программа deadline повторяет платёж с экспоненциальной паузой, пока не истечёт крайний срок, и
// слушается сервера, который просит подождать (503 с Retry-After).
//
// Использование:
//
//	deadline [-deadline N] [ОТВЕТ ...]
//
// Попытка 1 идёт на такте 0; после попытки k пауза равна 2^(k-1) тактов, а после ответа 503:N —
// большему из 2^(k-1) и N. Попытка k получает k-й ответ, а когда ответы кончаются, провайдер
// отвечает timeout. Повторяются timeout, 503 и 503:N.
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

// retryable говорит, временная ли ошибка и стоит ли пробовать снова. Ответы 503:N оно не знает.
func retryable(answer string) bool {
	return answer == "timeout" || answer == "503"
}

// withDeadline повторяет без предела попыток: останавливается, когда следующая попытка пришлась бы на
// такт позже крайнего срока, и объясняет почему. Возвращает последний ответ.
func withDeadline(answers []string, deadline int) string {
	tick := 0
	for attempt := 1; ; attempt++ {
		answer := answerAt(answers, attempt)
		fmt.Printf("такт %d, попытка %d: %s\n", tick, attempt, answer)
		asked, again := serverPause(answer)
		if !again {
			return answer
		}
		// Попытка 64 идёт не раньше такта 2^63−1, и дальше срок не пустит: сдвиг не выходит за uint64.
		pause := max(uint64(1)<<(attempt-1), asked)
		if pause > uint64(deadline-tick) {
			fmt.Printf("стоп: попытка %d пришлась бы на такт %d, позже срока %d\n", attempt+1, uint64(tick)+pause, deadline)
			return answer
		}
		tick += int(pause)
	}
}

// serverPause говорит, стоит ли повторять ответ, и сколько тактов просит подождать сервер: N для
// 503:N, 0 для timeout и 503.
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
