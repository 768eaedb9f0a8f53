// Програмата pertry пита склада stock колко бройки има от една стока. Опитите са най-много -tries,
// всички заедно имат общ бюджет (-budget), а срокът на всеки опит е не повече от -try и не повече
// от справедливия му дял: каквото е останало от бюджета, без изчакванията занапред, се дели по
// равно между опитите, които още могат да се направят. Програмата върви във виртуално време.
//
// Употреба:
//
//	pertry [-budget 1s] [-try 300ms] [-pause 50ms] [-tries 4] [ОТГОВОР ...]
//
// ОТГОВОР е отговорът на склада на поредното извикване, записан както в пакета flaky: 503@100ms,
// ok@250ms, timeout.
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
	budget := fs.Duration("budget", time.Second, "общ бюджет от време, най-много 1h")
	try := fs.Duration("try", 300*time.Millisecond, "най-дългият срок на един опит, най-много 1h")
	pause := fs.Duration("pause", 50*time.Millisecond, "пауза между опитите, най-много 1m")
	tries := fs.Int("tries", 4, "най-много опити, от 1 до 10")
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
		fmt.Fprintln(os.Stderr, "употреба: pertry [-budget 1s] [-try 300ms] [-pause 50ms] [-tries 4] [ОТГОВОР ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{client: svc.Client(), url: svc.URL() + "/stock", try: *try, pause: *pause,
		tries: *tries, start: time.Now()}
	fmt.Println("резултат:", r.run(ctx))
}

// retrier повтаря заявката към склада.
type retrier struct {
	client     *http.Client
	url        string
	try, pause time.Duration
	tries      int
	start      time.Time
}

// attempt прави един опит със срок limit в рамките на бюджета на ctx и връща кода на отговора (0,
// ако отговор не е имало).
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

// share е срокът на опит k: остатъкът от бюджета без изчакванията след него, поделен по равно между
// него и опитите след него, закръглен надолу до милисекунда, но не повече от r.try.
func (r *retrier) share(k int, left time.Duration) time.Duration {
	after := time.Duration(r.tries - k)
	fair := ((left - after*r.pause) / (after + 1)).Truncate(time.Millisecond)
	return min(r.try, fair)
}

// run прави опити, докато складът не отговори с код под 500 или докато не свършат опитите или
// бюджетът на ctx, и връща изхода.
func (r *retrier) run(ctx context.Context) string {
	deadline, _ := ctx.Deadline()
	for k := 1; k <= r.tries; k++ {
		if k > 1 {
			time.Sleep(r.pause)
		}
		at, left := time.Since(r.start), time.Until(deadline)
		limit := r.share(k, left)
		if limit < time.Millisecond {
			return fmt.Sprintf("за опит %d бюджетът не стига", k)
		}
		code := r.attempt(ctx, limit)
		now := time.Since(r.start)
		head := fmt.Sprintf("%v опит %d от %d, срок %v:", at, k, r.tries, limit)
		switch {
		case code == 0 && limit == left:
			fmt.Println(head, "бюджетът свърши в", now)
			return fmt.Sprintf("бюджетът е изчерпан, опити: %d", k)
		case code == 0:
			fmt.Println(head, "таймаутът на опита изтече в", now)
		default:
			fmt.Println(head, code)
			if code < 500 {
				return fmt.Sprintf("%d за %v", code, now)
			}
		}
	}
	return fmt.Sprintf("опитите свършиха: %d", r.tries)
}
