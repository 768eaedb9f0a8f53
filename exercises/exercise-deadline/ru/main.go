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

// withDeadline должна повторять без предела попыток: останавливается, когда следующая попытка
// пришлась бы на такт позже крайнего срока, и объясняет почему. Возвращает последний ответ.
func withDeadline(answers []string, deadline int) string {
	// Ваш код здесь. Каждая попытка печатает строку
	//	такт 0, попытка 1: timeout
	// а когда следующая попытка пришлась бы на такт позже срока, программа печатает
	//	стоп: попытка 4 пришлась бы на такт 7, позже срока 5
	// и возвращает последний ответ. 503:N просит прийти не раньше чем через N тактов, 503@T — не
	// раньше такта T, а срок бывает любым вплоть до самого большого int. Примеры — в условии
	// (README.md).
	return ""
}
