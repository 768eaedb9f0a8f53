// Програмата retryctx повтаря заявка към платежна услуга с две реплики: pay-a и pay-b. Всяка
// реплика помни кога може да бъде извикана отново: след неуспех — след пауза с пълен джитър, а
// ако е изпратила Retry-After — не по-рано, отколкото е поискала. Поредният опит отива към
// репликата, която се освобождава първа. Програмата върви във виртуално време: изчакванията и
// забавянията на услугата са истински, но не струват нито секунда.
//
// Употреба:
//
//	retryctx [-budget 2s] [-base 100ms] [-cap 1s] [-seed 1] [-b ОТГОВОРИ] [ОТГОВОР ...]
//
// ОТГОВОР е отговорът на pay-a на поредното извикване, записан както в пакета flaky: 503,
// ok@30ms, 429@20ms/1s, timeout; ОТГОВОРИ са отговорите на pay-b, разделени със запетаи.
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
	budget := fs.Duration("budget", 2*time.Second, "общ бюджет от време, най-много 1h")
	base := fs.Duration("base", 100*time.Millisecond, "таван на първата пауза, поне 1ms")
	ceiling := fs.Duration("cap", time.Second, "най-високият таван на паузата, най-много 1m")
	seed := fs.Uint64("seed", 1, "зърно на джитъра, най-много 1000000")
	scriptB := fs.String("b", "500@15ms,429@10ms/1s,ok@40ms", "отговорите на репликата pay-b")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	scriptA := "503,429@20ms/1s,ok@30ms"
	if fs.NArg() > 0 {
		scriptA = strings.Join(fs.Args(), ",")
	}
	a, errA := flaky.New("pay-a", scriptA)
	b, errB := flaky.New("pay-b", *scriptB)
	if errA != nil || errB != nil || *budget <= 0 || *budget > time.Hour || *base < time.Millisecond ||
		*ceiling < *base || *ceiling > time.Minute || *seed > 1000000 {
		fmt.Fprintln(os.Stderr, "употреба: retryctx [-budget 2s] [-base 100ms] [-cap 1s] [-seed 1] [-b ОТГОВОРИ] [ОТГОВОР ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{replicas: []*flaky.Service{a, b}, rng: rand.New(rand.NewPCG(*seed, 7)),
		base: *base, ceiling: *ceiling, start: time.Now()}
	fmt.Println("резултат:", r.run(ctx))
}

// retrier повтаря заявката, като минава от реплика на реплика.
type retrier struct {
	replicas      []*flaky.Service // pay-a, pay-b
	rng           *rand.Rand
	base, ceiling time.Duration
	start         time.Time
}

// since е колко време е минало от началото на програмата.
func (r *retrier) since() time.Duration { return time.Since(r.start) }

// jitter е пълният джитър след опит attempt: случайна пауза от [0, min(cap, base·2^(attempt-1))),
// в цели милисекунди.
func (r *retrier) jitter(attempt int) time.Duration {
	ceiling := r.base
	for i := 1; i < attempt; i++ {
		ceiling = min(2*ceiling, r.ceiling)
	}
	return time.Duration(r.rng.Int64N(ceiling.Milliseconds())) * time.Millisecond
}

// retryable казва дали си струва да се повтори отговор с този код.
func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}

// call прави един опит към репликата svc в рамките на ctx: кодът на отговора и Retry-After (0, ако го няма).
func call(ctx context.Context, svc *flaky.Service) (int, time.Duration, error) {
	// Твоят код тук: заявка GET към svc.URL()+"/charge", която живее не повече от ctx, през
	// svc.Client(). Не забравяй да затвориш тялото на отговора. Retry-After е цяло число секунди.
	return 0, 0, errors.New("call: не е написана")
}

// run повтаря заявката, докато не дойде отговор, който не си струва да се повтаря, или докато има
// бюджет в ctx, и връща изхода.
func (r *retrier) run(ctx context.Context) string {
	// Твоят код тук. За всяка реплика помни от кой момент може да се извиква отново; опитът отива към
	// онази, която се освобождава първа (при равенство — към pay-a). Опитът отпечатва ред като
	//	51ms опит 3, pay-b: 429, Retry-After 1s
	// паузата — ред „  пауза 36ms“, а изходът се връща като низ, например
	//	200 от pay-b за 1.101s
	// Всички редове и правила са в условието.
	return "не е написано"
}
