// Программа budget прогоняет клиента с бюджетом повторов (retry budget) через сбой базы и посекундно
// печатает, сколько попыток до неё доходит.
//
// Использование:
//
//	budget [-requests N] [-budget P] [-window W] [-tries T] [СЦЕНАРИЙ]
//
// В СЦЕНАРИИ по одному знаку на секунду: x — база не работает, . — работает. Каждую секунду клиент
// отправляет N новых запросов; в секунду сбоя каждый запрос хочет до T-1 повторов. В окне из W секунд
// повторов не больше P % от запросов окна на этот момент. По умолчанию N = 60, P = 10, W = 1, T = 3, а
// сценарий — .....xxxxxxxx... (базы нет с 5-й по 12-ю секунду).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	fs := flag.NewFlagSet("budget", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	requests := fs.Int("requests", 60, "новых запросов в секунду")
	percent := fs.Int("budget", 10, "бюджет повторов в процентах от запросов окна")
	window := fs.Int("window", 1, "длина окна в секундах")
	tries := fs.Int("tries", 3, "предел попыток на один запрос")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: budget [-requests N] [-budget P] [-window W] [-tries T] [СЦЕНАРИЙ]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	timeline := ".....xxxxxxxx..."
	switch {
	case fs.NArg() > 1:
		usageError(fs, "сценарий — одна строка из x и .")
	case fs.NArg() == 1:
		timeline = fs.Arg(0)
	}
	if *requests < 1 || *window < 1 || *tries < 1 {
		usageError(fs, "число запросов, окно и предел попыток должны быть не меньше 1")
	}
	if *requests > 1000000 || *tries > 1000 {
		usageError(fs, "не больше 1000000 запросов в секунду и 1000 попыток на запрос")
	}
	if *percent < 0 || *percent > 100 {
		usageError(fs, "бюджет — процент от 0 до 100")
	}
	if timeline == "" || strings.Trim(timeline, "x.") != "" {
		usageError(fs, "в сценарии допустимы только x (не работает) и . (работает)")
	}
	run(timeline, *requests, *percent, *window, *tries)
}

// usageError объясняет, что не так с аргументами, показывает использование и завершает программу с
// кодом 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// run должна прогнать клиента по сценарию timeline: каждую секунду requests новых запросов, до tries
// попыток на запрос и бюджет повторов percent % в окнах по window секунд. Печатает строку на каждую
// секунду и в конце итог.
func run(timeline string, requests, percent, window, tries int) {
	// Ваш код здесь. Каждая секунда печатает строку
	//	секунда 5 (сбой) — запросов: 60, повторов: 6, попыток к базе: 66, бюджет: 6 из 6
	// (без « (сбой)», если база работает), а в конце две строки:
	//	всего запросов: 960, повторов: 48, попыток к базе: 1008
	//	без бюджета попыток было бы: 1920
	// Правила и примеры — в условии (README.md).
}
