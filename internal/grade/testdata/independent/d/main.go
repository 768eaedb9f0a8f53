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

func withDeadline(answers []string, deadline int) string {
	return try(answers, uint64(deadline), 1, 0)
}

// try делает попытку n на такте t и, если нужно, следующую.
func try(answers []string, limit uint64, n int, t uint64) string {
	ans := answerAt(answers, n)
	fmt.Printf("такт %d, попытка %d: %s\n", t, n, ans)
	wait := uint64(1) << uint(n-1)
	var next uint64
	if retryable(ans) {
		next = t + wait
	} else if len(ans) > 4 && ans[:3] == "503" && (ans[3] == ':' || ans[3] == '@') {
		x, err := strconv.ParseUint(ans[4:], 10, 63)
		if err != nil {
			return ans
		}
		if ans[3] == ':' {
			x += t
		}
		next = max(x, t+wait)
	} else {
		return ans
	}
	if next > limit {
		fmt.Printf("стоп: попытка %d пришлась бы на такт %d, позже срока %d\n", n+1, next, limit)
		return ans
	}
	return try(answers, limit, n+1, next)
}
