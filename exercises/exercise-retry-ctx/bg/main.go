// Програмата retryctx повтаря заявка към капризната услуга pay, докато има бюджет от време.
// Между опитите чака пълен джитър, а ако услугата е пратила Retry-After, чака толкова, колкото тя
// иска. Програмата върви във виртуално време: изчакванията и забавянията на услугата са истински,
// но не струват нито секунда.
//
// Употреба:
//
//	retryctx [-budget 2s] [-base 100ms] [-cap 1s] [-seed 1] [ОТГОВОР ...]
//
// ОТГОВОР е отговорът на услугата на поредното извикване, записан както в пакета flaky: 503,
// ok@30ms, 429@20ms/1s, timeout.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

func main() {
	fs := flag.NewFlagSet("retryctx", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	budget := fs.Duration("budget", 2*time.Second, "общ бюджет от време")
	base := fs.Duration("base", 100*time.Millisecond, "таван на първото изчакване, поне 1ms")
	ceiling := fs.Duration("cap", time.Second, "най-високият таван на изчакване")
	seed := fs.Uint64("seed", 1, "семе на джитъра")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "503,429@20ms/1s,ok@30ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("pay", script)
	if err != nil || *budget <= 0 || *base < time.Millisecond || *ceiling < *base {
		fmt.Fprintln(os.Stderr, "употреба: retryctx [-budget 2s] [-base 100ms] [-cap 1s] [-seed 1] [ОТГОВОР ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{client: svc.Client(), url: svc.URL(), rng: rand.New(rand.NewPCG(*seed, 7)),
		base: *base, ceiling: *ceiling, start: time.Now()}
	fmt.Println("резултат:", r.run(ctx))
}

// retrier повтаря заявката към една услуга.
type retrier struct {
	client        *http.Client
	url           string
	rng           *rand.Rand
	base, ceiling time.Duration
	start         time.Time
}

// since казва колко време е минало от началото на програмата.
func (r *retrier) since() time.Duration { return time.Since(r.start) }

// jitter е пълният джитър след опит attempt: случайно изчакване от [0, min(cap, base·2^(attempt-1))),
// в цели милисекунди.
func (r *retrier) jitter(attempt int) time.Duration {
	ceiling := r.base
	for i := 1; i < attempt; i++ {
		ceiling = min(2*ceiling, r.ceiling)
	}
	return time.Duration(r.rng.Int64N(ceiling.Milliseconds())) * time.Millisecond
}

// retryable казва дали отговор с този код си струва да се повтори.
func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}

// call прави един опит в рамките на ctx: кодът на отговора и Retry-After (0, ако го няма).
func (r *retrier) call(ctx context.Context) (int, time.Duration, error) {
	// Твоят код тук: заявка GET към r.url+"/charge", която живее не по-дълго от ctx, през r.client.
	// Не забравяй да затвориш тялото на отговора. Retry-After е цял брой секунди в заглавката.
	return 0, 0, errors.New("call: не е написана")
}

// run повтаря заявката, докато не дойде отговор, който не си струва да се повтаря, или докато не
// свърши бюджетът на ctx, и връща изхода.
func (r *retrier) run(ctx context.Context) string {
	// Твоят код тук. Всеки опит отпечатва ред като
	//	55ms опит 2: 429, Retry-After 1s
	// всяко изчакване — ред „  изчакване 55ms“, а изходът се връща като низ, например
	//	200 за 1.105s
	// Всички редове и правила са в условието (README.md).
	return "не е написано"
}
