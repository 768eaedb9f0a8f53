// Программа pertry спрашивает остаток товара у склада stock. Попыток не больше -tries, у всех вместе
// общий бюджет (-budget), а срок каждой попытки — не больше -try и не больше её честной доли
// остатка: то, что осталось от бюджета за вычетом будущих пауз, делится поровну между попытками,
// которые ещё можно сделать. Программа идёт в виртуальном времени.
//
// Использование:
//
//	pertry [-budget 1s] [-try 300ms] [-pause 50ms] [-tries 4] [ОТВЕТ ...]
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
	budget := fs.Duration("budget", time.Second, "общий бюджет времени, не больше 1h")
	try := fs.Duration("try", 300*time.Millisecond, "наибольший срок одной попытки, не больше 1h")
	pause := fs.Duration("pause", 50*time.Millisecond, "пауза между попытками, не больше 1m")
	tries := fs.Int("tries", 4, "наибольшее число попыток, от 1 до 10")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "timeout,503@100ms,ok@250ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("stock", script)
	if err != nil || *budget <= 0 || *budget > time.Hour || *try <= 0 || *try > time.Hour ||
		*pause < 0 || *pause > time.Minute || *tries < 1 || *tries > 10 {
		fmt.Fprintln(os.Stderr, "использование: pertry [-budget 1s] [-try 300ms] [-pause 50ms] [-tries 4] [ОТВЕТ ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{client: svc.Client(), url: svc.URL() + "/stock", try: *try, pause: *pause,
		tries: *tries, start: time.Now()}
	fmt.Println("результат:", r.run(ctx))
}

// retrier повторяет запрос к складу.
type retrier struct {
	client     *http.Client
	url        string
	try, pause time.Duration
	tries      int
	start      time.Time
}

// attempt делает одну попытку со сроком limit внутри бюджета ctx и возвращает код ответа (0, если
// ответа не было).
func (r *retrier) attempt(ctx context.Context, limit time.Duration) int {
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodGet, r.url, nil)
	if err != nil {
		return 0
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// share — срок попытки k: остаток бюджета за вычетом пауз после неё, поровну на неё и на попытки
// после неё, с точностью до миллисекунды вниз, но не больше r.try.
func (r *retrier) share(k int, left time.Duration) time.Duration {
	after := time.Duration(r.tries - k)
	fair := ((left - after*r.pause) / (after + 1)).Truncate(time.Millisecond)
	return min(r.try, fair)
}

// run делает попытки, пока склад не ответит кодом меньше 500, не кончатся попытки или бюджет ctx,
// и возвращает итог.
func (r *retrier) run(ctx context.Context) string {
	deadline, _ := ctx.Deadline()
	for k := 1; k <= r.tries; k++ {
		if k > 1 {
			time.Sleep(r.pause)
		}
		at, left := time.Since(r.start), time.Until(deadline)
		limit := r.share(k, left)
		if limit < time.Millisecond {
			return fmt.Sprintf("на попытку %d не хватает бюджета", k)
		}
		code := r.attempt(ctx, limit)
		now := time.Since(r.start)
		head := fmt.Sprintf("%v попытка %d из %d, срок %v:", at, k, r.tries, limit)
		switch {
		case code == 0 && limit == left:
			fmt.Println(head, "бюджет кончился в", now)
			return fmt.Sprintf("бюджет исчерпан, попыток: %d", k)
		case code == 0:
			fmt.Println(head, "таймаут попытки в", now)
		default:
			fmt.Println(head, code)
			if code < 500 {
				return fmt.Sprintf("%d за %v", code, now)
			}
		}
	}
	return fmt.Sprintf("попыток больше нет: %d", r.tries)
}
