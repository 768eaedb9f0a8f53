// Програмата pertry пита склада stock колко бройки има от една стока. Всеки опит има свой срок
// (-try), а всички заедно — общ бюджет (-budget): опитът никога не трае повече, отколкото е
// останало от бюджета. Програмата върви във виртуално време.
//
// Употреба:
//
//	pertry [-budget 1s] [-try 300ms] [-pause 50ms] [ОТГОВОР ...]
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
	budget := fs.Duration("budget", time.Second, "общ бюджет от време")
	try := fs.Duration("try", 300*time.Millisecond, "срок на един опит")
	pause := fs.Duration("pause", 50*time.Millisecond, "изчакване между опитите")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "timeout,503@100ms,ok@250ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("stock", script)
	if err != nil || *budget <= 0 || *try <= 0 || *pause < 0 {
		fmt.Fprintln(os.Stderr, "употреба: pertry [-budget 1s] [-try 300ms] [-pause 50ms] [ОТГОВОР ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{client: svc.Client(), url: svc.URL() + "/stock", try: *try, pause: *pause, start: time.Now()}
	fmt.Println("резултат:", r.run(ctx))
}

// retrier повтаря заявката към склада.
type retrier struct {
	client     *http.Client
	url        string
	try, pause time.Duration
	start      time.Time
}

// attempt прави един опит, който трае не повече от r.try и не повече от бюджета на ctx. Връща кода
// на отговора (0, ако отговор не е имало) и срока, който е получил опитът.
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

// run повтаря опитите, докато складът не отговори с код под 500 или докато не свърши бюджетът на
// ctx, и връща изхода.
func (r *retrier) run(ctx context.Context) string {
	deadline, _ := ctx.Deadline()
	for n := 1; ; n++ {
		at := time.Since(r.start)
		code, limit := r.attempt(ctx)
		now := time.Since(r.start)
		switch {
		case code == 0 && !time.Now().Before(deadline):
			fmt.Printf("%v опит %d, срок %v: бюджетът свърши в %v\n", at, n, limit, now)
			return fmt.Sprintf("бюджетът е изчерпан, опити: %d", n)
		case code == 0:
			fmt.Printf("%v опит %d, срок %v: срокът на опита изтече в %v\n", at, n, limit, now)
		default:
			fmt.Printf("%v опит %d, срок %v: %d\n", at, n, limit, code)
			if code < 500 {
				return fmt.Sprintf("%d за %v", code, now)
			}
		}
		t := time.NewTimer(r.pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Sprintf("бюджетът свърши по време на изчакването, опити: %d", n)
		case <-t.C:
		}
	}
}
