// Программа retryctx повторяет запрос к ненадёжному сервису pay, пока у неё есть бюджет времени.
// Пауза между попытками — полный джиттер, а если сервис прислал Retry-After, ждём столько, сколько
// он просит. Программа идёт в виртуальном времени: паузы и задержки сервиса настоящие, но не
// стоят ни секунды.
//
// Использование:
//
//	retryctx [-budget 2s] [-base 100ms] [-cap 1s] [-seed 1] [ОТВЕТ ...]
//
// ОТВЕТ — ответ сервиса на очередной вызов в записи пакета flaky: 503, ok@30ms, 429@20ms/1s, timeout.
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
	budget := fs.Duration("budget", 2*time.Second, "общий бюджет времени")
	base := fs.Duration("base", 100*time.Millisecond, "потолок первой паузы, не меньше 1ms")
	ceiling := fs.Duration("cap", time.Second, "наибольший потолок паузы")
	seed := fs.Uint64("seed", 1, "зерно джиттера")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "503,429@20ms/1s,ok@30ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("pay", script)
	if err != nil || *budget <= 0 || *base < time.Millisecond || *ceiling < *base {
		fmt.Fprintln(os.Stderr, "использование: retryctx [-budget 2s] [-base 100ms] [-cap 1s] [-seed 1] [ОТВЕТ ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{client: svc.Client(), url: svc.URL(), rng: rand.New(rand.NewPCG(*seed, 7)),
		base: *base, ceiling: *ceiling, start: time.Now()}
	fmt.Println("результат:", r.run(ctx))
}

// retrier повторяет запрос к одному сервису.
type retrier struct {
	client        *http.Client
	url           string
	rng           *rand.Rand
	base, ceiling time.Duration
	start         time.Time
}

// since — сколько времени прошло с начала программы.
func (r *retrier) since() time.Duration { return time.Since(r.start) }

// jitter — полный джиттер после попытки attempt: случайная пауза из [0, min(cap, base·2^(attempt-1))),
// в целых миллисекундах.
func (r *retrier) jitter(attempt int) time.Duration {
	ceiling := r.base
	for i := 1; i < attempt; i++ {
		ceiling = min(2*ceiling, r.ceiling)
	}
	return time.Duration(r.rng.Int64N(ceiling.Milliseconds())) * time.Millisecond
}

// retryable говорит, стоит ли повторять ответ с этим кодом.
func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}

// call делает одну попытку в пределах ctx: код ответа и Retry-After (0, если его нет).
func (r *retrier) call(ctx context.Context) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url+"/charge", nil)
	if err != nil {
		return 0, 0, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	resp.Body.Close()
	secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	return resp.StatusCode, time.Duration(secs) * time.Second, nil
}

// run повторяет запрос, пока не придёт ответ, который не стоит повторять, или не кончится бюджет
// ctx, и возвращает итог.
func (r *retrier) run(ctx context.Context) string {
	for attempt := 1; ; attempt++ {
		at := r.since()
		code, after, err := r.call(ctx)
		if err != nil {
			fmt.Printf("%v попытка %d: нет ответа к %v\n", at, attempt, r.since())
			return fmt.Sprintf("бюджет исчерпан, попыток: %d", attempt)
		}
		if after > 0 {
			fmt.Printf("%v попытка %d: %d, Retry-After %v\n", at, attempt, code, after)
		} else {
			fmt.Printf("%v попытка %d: %d\n", at, attempt, code)
		}
		if !retryable(code) {
			return fmt.Sprintf("%d за %v", code, r.since())
		}
		wait := after
		if wait == 0 {
			wait = r.jitter(attempt)
		}
		deadline, _ := ctx.Deadline()
		if left := time.Until(deadline); after >= left {
			return fmt.Sprintf("Retry-After %v не короче остатка бюджета %v, попыток: %d", after, left, attempt)
		}
		fmt.Printf("  пауза %v\n", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			fmt.Printf("%v бюджет кончился во время паузы\n", r.since())
			return fmt.Sprintf("бюджет исчерпан, попыток: %d", attempt)
		case <-t.C:
		}
	}
}
