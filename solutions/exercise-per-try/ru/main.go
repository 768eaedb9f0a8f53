// Программа pertry спрашивает остаток товара у склада stock. У каждой попытки свой срок (-try), а у
// всех вместе — общий бюджет (-budget): попытка никогда не длится дольше, чем осталось бюджета.
// Программа идёт в виртуальном времени.
//
// Использование:
//
//	pertry [-budget 1s] [-try 300ms] [-pause 50ms] [ОТВЕТ ...]
//
// ОТВЕТ — ответ склада на очередной вызов в записи пакета flaky: 503@100ms, ok@250ms, timeout.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

func main() {
	fs := flag.NewFlagSet("pertry", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	budget := fs.Duration("budget", time.Second, "общий бюджет времени")
	try := fs.Duration("try", 300*time.Millisecond, "срок одной попытки")
	pause := fs.Duration("pause", 50*time.Millisecond, "пауза между попытками")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "timeout,503@100ms,ok@250ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("stock", script)
	if err != nil || *budget <= 0 || *try <= 0 || *pause < 0 {
		fmt.Fprintln(os.Stderr, "использование: pertry [-budget 1s] [-try 300ms] [-pause 50ms] [ОТВЕТ ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{client: svc.Client(), url: svc.URL() + "/stock", try: *try, pause: *pause, start: time.Now()}
	fmt.Println("результат:", r.run(ctx))
}

// retrier повторяет запрос к складу.
type retrier struct {
	client     *http.Client
	url        string
	try, pause time.Duration
	start      time.Time
}

// attempt делает одну попытку, которая длится не дольше r.try и не дольше бюджета ctx. Возвращает
// код ответа (0, если ответа не было) и срок, который получила попытка.
func (r *retrier) attempt(ctx context.Context) (int, time.Duration) {
	deadline, _ := ctx.Deadline()
	limit := min(r.try, time.Until(deadline))
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodGet, r.url, nil)
	if err != nil {
		return 0, limit
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, limit
	}
	resp.Body.Close()
	return resp.StatusCode, limit
}

// run повторяет попытки, пока склад не ответит кодом меньше 500 или не кончится бюджет ctx, и
// возвращает итог.
func (r *retrier) run(ctx context.Context) string {
	deadline, _ := ctx.Deadline()
	for n := 1; ; n++ {
		at := time.Since(r.start)
		code, limit := r.attempt(ctx)
		now := time.Since(r.start)
		switch {
		case code == 0 && !time.Now().Before(deadline):
			fmt.Printf("%v попытка %d, срок %v: бюджет кончился в %v\n", at, n, limit, now)
			return fmt.Sprintf("бюджет исчерпан, попыток: %d", n)
		case code == 0:
			fmt.Printf("%v попытка %d, срок %v: тайм-аут попытки в %v\n", at, n, limit, now)
		default:
			fmt.Printf("%v попытка %d, срок %v: %d\n", at, n, limit, code)
			if code < 500 {
				return fmt.Sprintf("%d за %v", code, now)
			}
		}
		t := time.NewTimer(r.pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Sprintf("бюджет кончился во время паузы, попыток: %d", n)
		case <-t.C:
		}
	}
}
