// Программа deadline повторяет платёж с экспоненциальной паузой, пока не истечёт крайний срок, и
// слушается сервера, который просит подождать (503 с Retry-After), в обеих формах заголовка: через
// сколько тактов приходить и с какого такта.
//
// Использование:
//
//	deadline [-deadline N] [ОТВЕТ ...]
//
// Попытка 1 идёт на такте 0; после попытки k следующая идёт через 2^(k-1) тактов, после ответа
// 503:N — не раньше чем через N тактов, после 503@T — не раньше такта T. Попытка k получает k-й
// ответ, а когда ответы кончаются, провайдер отвечает timeout. Повторяются timeout, 503, 503:N и 503@T.
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

// retryable говорит, временная ли ошибка и стоит ли пробовать снова. Ответы с Retry-After (503:N,
// 503@T) оно не знает.
func retryable(answer string) bool {
	return answer == "timeout" || answer == "503"
}

// withDeadline повторяет без предела попыток: останавливается, когда следующая попытка пришлась бы на
// такт позже крайнего срока, и объясняет почему. Возвращает последний ответ.
func withDeadline(answers []string, deadline int) string {
	var tick uint64
	for attempt := 1; ; attempt++ {
		answer := answerAt(answers, attempt)
		fmt.Printf("такт %d, попытка %d: %s\n", tick, attempt, answer)
		next, again := earliest(answer, tick, attempt)
		if !again {
			return answer
		}
		if next > uint64(deadline) {
			fmt.Printf("стоп: попытка %d пришлась бы на такт %d, позже срока %d\n", attempt+1, next, deadline)
			return answer
		}
		tick = next
	}
}

// earliest говорит, стоит ли повторять ответ на попытку attempt, сделанную на такте tick, и на какой
// такт самое раннее придётся следующая попытка: через 2^(attempt-1) тактов, но не раньше, чем просит
// сервер. Такты считаются в uint64: попытка 64 идёт не раньше такта 2^63−1, дальше срок не пустит, а
// 2^63−1 + 2^63 в uint64 ещё помещается.
func earliest(answer string, tick uint64, attempt int) (uint64, bool) {
	backoff := tick + uint64(1)<<(attempt-1)
	if retryable(answer) {
		return backoff, true
	}
	if text, ok := strings.CutPrefix(answer, "503:"); ok { // через N тактов
		n, err := strconv.ParseUint(text, 10, 63)
		return max(backoff, tick+n), err == nil
	}
	if text, ok := strings.CutPrefix(answer, "503@"); ok { // не раньше такта T; прошедший такт не держит
		at, err := strconv.ParseUint(text, 10, 63)
		return max(backoff, at), err == nil
	}
	return 0, false
}
