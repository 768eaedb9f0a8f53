// Програмата retry повтаря плащане през ненадеждна мрежа и показва колко пъти са изтеглени пари от
// клиента: с ключ за идемпотентност, с нов ключ за всеки опит и съвсем без ключ.
//
// Употреба:
//
//	retry [-max N] [-key same|each|none] [СЪДБА ...]
//
// Съдбата на опита: ok (стигнал, отговорът се връща), lost (стигнал, но отговорът се губи), drop (не
// стига), 503 (доставчикът е зает) или declined (банката отказва). Когато съдбите свършат, опитите не
// стигат. Клиентът повтаря timeout и 503 с пауза 2^(k-1) тика след опит k, най-много -max опита.
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
	maxAttempts := fs.Int("max", 4, "граница на опитите, заедно с първия (от 1 до 30)")
	keys := fs.String("key", "same", "ключ за идемпотентност: same (един за плащането), each (нов за всеки опит) или none")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: retry [-max N] [-key same|each|none] [СЪДБА ...]")
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
		fmt.Fprintln(os.Stderr, "опитите са от 1 до 30; ключът е same, each или none; съдбите са ok, lost, drop, 503, declined")
		fs.Usage()
		os.Exit(2)
	}
	var p provider
	seen := withRetry(fates, *maxAttempts, *keys, &p)
	fmt.Printf("резултат: %s, тегления: %d\n", seen, p.charges)
}

// withRetry е клиентът: опитва, докато не види ok или declined или докато опитите не свършат. Всеки
// опит печата ред. Връща онова, което клиентът е видял последно.
func withRetry(fates []string, maxAttempts int, keys string, p *provider) string {
	tick := 0
	for attempt := 1; ; attempt++ {
		fate := "drop" // когато записаните съдби свършат, мрежата мълчи
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
		fmt.Printf("тик %d, опит %d%s: %s → %s: %s\n", tick, attempt, label, fate, note, seen)
		if seen == "ok" || seen == "declined" || attempt == maxAttempts {
			return seen
		}
		tick += 1 << (attempt - 1)
	}
}

// provider е доставчикът на плащания. Плащане с ключ, който вече е обработил, не бива да го прави
// отново: на повторението отговаря същото като първия път.
type provider struct {
	charges int // колко пъти са изтеглени пари
	// Твоят код: какво още трябва да помни доставчикът?
}

// pay трябва да обработи един опит с ключ key ("" значи без ключ), на който мрежата е отредила
// съдбата fate, и да върне какво ще види клиентът (ok, timeout, 503 или declined) и какво се е случило
// при доставчика: „теглене 1“, „ключът вече е обработен, без теглене“, „отказ от банката“, „не стигна“,
// „доставчикът е зает“, а ако отговорът се загуби, накрая се добавя „, отговорът се загуби“.
// Правилата са в условието (README.md).
func (p *provider) pay(key, fate string) (seen, note string) {
	// Твоят код е тук.
	return "", ""
}
