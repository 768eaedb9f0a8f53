// Программа retry повторяет платёж по ненадёжной сети и показывает, сколько раз с клиента списали
// деньги: с ключом идемпотентности, с новым ключом на каждую попытку и совсем без ключа.
//
// Использование:
//
//	retry [-max N] [-key same|each|none] [СУДЬБА ...]
//
// Судьба попытки: ok (дошла, ответ вернулся), lost (дошла, но ответ потерян), drop (не дошла),
// 503 (провайдер занят) или declined (банк отказал). Когда судьбы кончаются, попытки не доходят.
// Клиент повторяет timeout и 503 с паузой 2^(k-1) тактов после попытки k, всего не больше -max попыток.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

func main() {
	fs := flag.NewFlagSet("retry", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	maxAttempts := fs.Int("max", 4, "предел попыток, включая первую (от 1 до 30)")
	keys := fs.String("key", "same", "ключ идемпотентности: same (один на платёж), each (новый на каждую попытку) или none")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: retry [-max N] [-key same|each|none] [СУДЬБА ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	fates := fs.Args()
	if len(fates) == 0 {
		fates = []string{"lost", "ok"}
	}
	bad := *maxAttempts < 1 || *maxAttempts > 30 || *keys != "same" && *keys != "each" && *keys != "none"
	for _, f := range fates {
		bad = bad || f != "ok" && f != "lost" && f != "drop" && f != "503" && f != "declined"
	}
	if bad {
		fmt.Fprintln(os.Stderr, "предел попыток — от 1 до 30; ключ — same, each или none; судьбы — ok, lost, drop, 503, declined")
		fs.Usage()
		os.Exit(2)
	}
	var p provider
	seen := withRetry(fates, *maxAttempts, *keys, &p)
	fmt.Printf("результат: %s, списаний: %d\n", seen, p.charges)
}

// withRetry — клиент: пробует, пока не увидит ok или declined или пока не кончатся попытки. Каждая
// попытка печатает строку. Возвращает то, что клиент увидел последним.
func withRetry(fates []string, maxAttempts int, keys string, p *provider) string {
	tick := 0
	for attempt := 1; ; attempt++ {
		fate := "drop" // когда записанные судьбы кончаются, сеть молчит
		if attempt <= len(fates) {
			fate = fates[attempt-1]
		}
		key := ""
		switch keys {
		case "same":
			key = "k1"
		case "each":
			key = "k" + strconv.Itoa(attempt)
		}
		seen, note := p.pay(key, fate)
		label := ""
		if key != "" {
			label = ", ключ " + key
		}
		fmt.Printf("такт %d, попытка %d%s: %s → %s: %s\n", tick, attempt, label, fate, note, seen)
		if seen == "ok" || seen == "declined" || attempt == maxAttempts {
			return seen
		}
		tick += 1 << (attempt - 1)
	}
}

// provider — платёжный провайдер. Платёж с ключом, который он уже обработал, он не должен проводить
// снова: на повтор он отвечает тем же, что и в первый раз.
type provider struct {
	charges int // сколько раз списаны деньги
	// Ваш код: что ещё провайдеру нужно помнить?
}

// pay должна обработать одну попытку с ключом key ("" — без ключа), которой сеть уготовила судьбу
// fate, и вернуть, что увидит клиент (ok, timeout, 503 или declined), и что произошло у провайдера:
// «списание 1», «ключ уже обработан, без списания», «отказ банка», «не дошла», «провайдер занят»,
// а если ответ потерян, в конце добавляется «, ответ потерян». Правила — в условии (README.md).
func (p *provider) pay(key, fate string) (seen, note string) {
	// Ваш код здесь.
	return "", ""
}
