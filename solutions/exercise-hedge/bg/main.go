// Програмата hedge пита услугата quote за цена с подсигуряване (hedged request, Dean и Barroso,
// „The Tail at Scale“, 2013): ако първата заявка мълчи по-дълго от -after, тръгва втора, печели
// първият отговор 200, а загубилата заявка се отменя. Програмата върви във виртуално време.
//
// Употреба:
//
//	hedge [-after 50ms] [-budget 1s] [ОТГОВОР ...]
//
// ОТГОВОР е отговорът на услугата на поредното извикване, записан както в пакета flaky:
// ok@300ms, 503@20ms, timeout.
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

// maxWait е най-дългата пауза, срок или работа в аргументите: едно денонощие. С по-големи (до 292
// години в time.Duration) виртуалният часовник, който започва през 2000 г., би препълнил.
const maxWait = 24 * time.Hour

func main() {
	fs := flag.NewFlagSet("hedge", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	after := fs.Duration("after", 50*time.Millisecond, "след колко време да тръгне втората заявка")
	budget := fs.Duration("budget", time.Second, "общ бюджет от време")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "ok@300ms,ok@40ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("quote", script)
	if err != nil || *after <= 0 || *budget <= 0 || *after > maxWait || *budget > maxWait {
		fmt.Fprintln(os.Stderr, "употреба: hedge [-after 50ms] [-budget 1s] [ОТГОВОР ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	h := &hedger{client: svc.Client(), url: svc.URL() + "/quote", start: time.Now()}
	fmt.Println("резултат:", h.run(ctx, *after))
}

// hedger праща заявка с подсигуряване.
type hedger struct {
	client *http.Client
	url    string
	start  time.Time
}

// answer казва как е свършила една заявка: номерът ѝ, кодът на отговора или грешката, и кога.
type answer struct {
	n    int
	code int
	err  error
	at   time.Duration
}

// call прави една заявка в рамките на ctx и връща кода на отговора.
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

// run праща първата заявка, след after (или веднага след неуспеха на първата) втората, чака първия
// отговор 200, отменя закъснялата заявка, изчаква я да приключи и връща изхода.
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
		fmt.Printf("%v заявка %d изпратена\n", time.Since(h.start), n)
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
				// Докато няма победител, заявка се отменя само от края на бюджета.
				late = append(late, a)
				continue
			}
			fmt.Printf("%v заявка %d: %d\n", a.at, a.n, a.code)
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
		fmt.Printf("%v заявка %d отменена\n", a.at, a.n)
	}
	switch {
	case winner != nil:
		return fmt.Sprintf("отговор на заявка %d за %v", winner.n, winner.at)
	case parent.Err() != nil:
		return "бюджетът е изчерпан"
	}
	return "и двете заявки са неуспешни"
}
