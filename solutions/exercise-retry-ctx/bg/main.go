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
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
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
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, svc.URL()+"/charge", nil)
	if err != nil {
		return 0, 0, err
	}
	resp, err := svc.Client().Do(req)
	if err != nil {
		return 0, 0, err
	}
	resp.Body.Close()
	secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	return resp.StatusCode, time.Duration(secs) * time.Second, nil
}

// run повтаря заявката, докато не дойде отговор, който не си струва да се повтаря, или докато има
// бюджет в ctx, и връща изхода.
func (r *retrier) run(ctx context.Context) string {
	deadline, _ := ctx.Deadline()
	free := make([]time.Time, len(r.replicas)) // от кой момент репликата може да се извиква отново
	for attempt := 1; ; attempt++ {
		next := 0
		for i := range free {
			if free[i].Before(free[next]) {
				next = i
			}
		}
		svc := r.replicas[next]
		if !free[next].Before(deadline) {
			return fmt.Sprintf("репликата %s е свободна чак от %v, а бюджетът свършва в %v, опити: %d",
				svc.Name(), free[next].Sub(r.start), deadline.Sub(r.start), attempt-1)
		}
		if wait := time.Until(free[next]); wait > 0 {
			fmt.Printf("  пауза %v\n", wait)
			time.Sleep(wait)
		}
		at := r.since()
		code, after, err := call(ctx, svc)
		if err != nil {
			fmt.Printf("%v опит %d, %s: няма отговор до %v\n", at, attempt, svc.Name(), r.since())
			return fmt.Sprintf("бюджетът е изчерпан, опити: %d", attempt)
		}
		if after > 0 {
			fmt.Printf("%v опит %d, %s: %d, Retry-After %v\n", at, attempt, svc.Name(), code, after)
		} else {
			fmt.Printf("%v опит %d, %s: %d\n", at, attempt, svc.Name(), code)
		}
		if !retryable(code) {
			return fmt.Sprintf("%d от %s за %v", code, svc.Name(), r.since())
		}
		if after == 0 {
			after = r.jitter(attempt)
		}
		free[next] = time.Now().Add(after)
	}
}
