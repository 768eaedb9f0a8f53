// Программа hedge спрашивает цену у сервиса quote с подстраховкой (hedged request, Dean и Barroso,
// «The Tail at Scale», 2013): если первый запрос молчит дольше -after, уходит второй, побеждает
// первый ответ 200, а проигравший запрос отменяется. Программа идёт в виртуальном времени.
//
// Использование:
//
//	hedge [-after 50ms] [-budget 1s] [ОТВЕТ ...]
//
// ОТВЕТ — ответ сервиса на очередной вызов в записи пакета flaky: ok@300ms, 503@20ms, timeout.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

// maxWait — самая долгая пауза, срок или работа в аргументах: сутки. С большими (до 292 лет
// time.Duration) виртуальные часы, которые начинаются в 2000 году, переполнились бы.
const maxWait = 24 * time.Hour

func main() {
	fs := flag.NewFlagSet("hedge", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	after := fs.Duration("after", 50*time.Millisecond, "через сколько отправить второй запрос")
	budget := fs.Duration("budget", time.Second, "общий бюджет времени")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "ok@300ms,ok@40ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("quote", script)
	if err != nil || *after <= 0 || *budget <= 0 || *after > maxWait || *budget > maxWait {
		fmt.Fprintln(os.Stderr, "использование: hedge [-after 50ms] [-budget 1s] [ОТВЕТ ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	h := &hedger{client: svc.Client(), url: svc.URL() + "/quote", start: time.Now()}
	fmt.Println("результат:", h.run(ctx, *after))
}

// hedger отправляет запрос с подстраховкой.
type hedger struct {
	client *http.Client
	url    string
	start  time.Time
}

// answer — чем кончился один запрос: его номер, код ответа или ошибка, и когда.
type answer struct {
	n    int
	code int
	err  error
	at   time.Duration
}

// call делает один запрос в пределах ctx и возвращает код ответа.
func (h *hedger) call(ctx context.Context) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// run отправляет первый запрос, через after (или сразу после неудачи первого) второй, ждёт первый
// ответ 200, отменяет того, кто не успел, дожидается его и возвращает итог.
func (h *hedger) run(parent context.Context, after time.Duration) string {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	answers := make(chan answer, 2)
	var wg sync.WaitGroup
	sent, pending := 0, 0
	send := func() {
		sent++
		pending++
		n := sent
		fmt.Printf("%v запрос %d отправлен\n", time.Since(h.start), n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, err := h.call(ctx)
			answers <- answer{n: n, code: code, err: err, at: time.Since(h.start)}
		}()
	}
	send()
	hedge := time.NewTimer(after)
	defer hedge.Stop()
	var winner *answer
	var late []answer
	for winner == nil && pending > 0 {
		select {
		case <-hedge.C:
			send()
		case a := <-answers:
			pending--
			if a.err != nil {
				// Пока победителя нет, запрос отменяет только конец бюджета.
				late = append(late, a)
				continue
			}
			fmt.Printf("%v запрос %d: %d\n", a.at, a.n, a.code)
			if a.code == http.StatusOK {
				winner = &a
			} else if sent == 1 && hedge.Stop() {
				send()
			}
		}
	}
	cancel()
	wg.Wait()
	close(answers)
	for a := range answers {
		late = append(late, a)
	}
	sort.Slice(late, func(i, j int) bool { return late[i].n < late[j].n })
	for _, a := range late {
		fmt.Printf("%v запрос %d отменён\n", a.at, a.n)
	}
	switch {
	case winner != nil:
		return fmt.Sprintf("ответ запроса %d за %v", winner.n, winner.at)
	case parent.Err() != nil:
		return "бюджет исчерпан"
	}
	return "оба запроса неудачны"
}
