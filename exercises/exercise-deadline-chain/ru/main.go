// Программа deadlinechain проводит один платёж по цепочке из трёх сервисов: шлюз A вызывает сервис B,
// а B вызывает бухгалтерию ledger по HTTP. Срок задаёт тот, кто начал платёж (-budget), и он один на
// всю цепочку: вызываемый может срок сократить, но никогда не продлить. Программа идёт в
// виртуальном времени.
//
// Использование:
//
//	deadlinechain [-budget 800ms] [-a 100ms] [-b 150ms] [-cap 300ms] [ОТВЕТ ...]
//
// ОТВЕТ — ответ бухгалтерии на очередной вызов в записи пакета flaky: ok@40ms, 503@20ms, timeout.
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

// chain — цепочка сервисов одного платежа.
type chain struct {
	a, b   time.Duration // сколько работают A и B, прежде чем вызывать дальше
	cap    time.Duration // дольше скольких B не ждёт бухгалтерию
	ledger *flaky.Service
	client *http.Client
	start  time.Time
}

// maxWait — самая долгая пауза, срок или работа в аргументах: сутки. С большими (до 292 лет
// time.Duration) виртуальные часы, которые начинаются в 2000 году, переполнились бы.
const maxWait = 24 * time.Hour

func main() {
	fs := flag.NewFlagSet("deadlinechain", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	budget := fs.Duration("budget", 800*time.Millisecond, "срок всего платежа")
	a := fs.Duration("a", 100*time.Millisecond, "работа шлюза A")
	b := fs.Duration("b", 150*time.Millisecond, "работа сервиса B")
	limit := fs.Duration("cap", 300*time.Millisecond, "дольше скольких B не ждёт бухгалтерию")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "ok@40ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	ledger, err := flaky.New("ledger", script)
	if err != nil || *budget <= 0 || *a < 0 || *b < 0 || *limit <= 0 ||
		*budget > maxWait || *a > maxWait || *b > maxWait || *limit > maxWait {
		fmt.Fprintln(os.Stderr, "использование: deadlinechain [-budget 800ms] [-a 100ms] [-b 150ms] [-cap 300ms] [ОТВЕТ ...]")
		os.Exit(2)
	}
	c := &chain{a: *a, b: *b, cap: *limit, ledger: ledger, client: ledger.Client(), start: time.Now()}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	fmt.Println("результат:", c.serviceA(ctx))
}

// elapsed — сколько прошло с начала платежа.
func (c *chain) elapsed() time.Duration { return time.Since(c.start) }

// left — сколько осталось до срока ctx.
func left(ctx context.Context) time.Duration {
	deadline, _ := ctx.Deadline()
	return time.Until(deadline)
}

// work — работа сервиса name длиной d, которую прерывает конец ctx. Возвращает false, если срок
// истёк раньше.
func (c *chain) work(ctx context.Context, name string, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		fmt.Printf("%v %s: срок истёк за работой\n", c.elapsed(), name)
		return false
	}
}

// serviceA — шлюз: поработать и вызвать B с тем же сроком.
func (c *chain) serviceA(ctx context.Context) string {
	fmt.Printf("%v A: до срока %v\n", c.elapsed(), left(ctx))
	if !c.work(ctx, "A", c.a) {
		return "срок истёк в A"
	}
	return c.serviceB(ctx)
}

// serviceB — поработать и вызвать бухгалтерию, ожидая её не дольше c.cap и не дольше срока ctx.
func (c *chain) serviceB(ctx context.Context) string {
	// Ваш код здесь: напечатать «B: до срока …», поработать c.b (c.work) и вызвать бухгалтерию
	// (c.callLedger), ожидая её не дольше c.cap и не дольше срока, который дал A.
	return "не написано"
}

// callLedger вызывает бухгалтерию в пределах ctx и передаёт ей остаток срока в заголовке.
func (c *chain) callLedger(ctx context.Context) string {
	// Ваш код здесь: POST на c.ledger.URL()+"/pay" в пределах ctx с остатком срока в заголовке
	// (flaky.Deadline), затем строки «ledger: до срока …» (что увидела бухгалтерия, c.ledger.Log())
	// и «ledger: КОД» или «ledger: нет ответа». Все строки — в условии (README.md).
	return "не написано"
}
