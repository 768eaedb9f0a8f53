// Програмата deadlinechain прекарва едно плащане през верига от три услуги: шлюзът A извиква услугата
// B, а B извиква счетоводството ledger по HTTP. Срокът се задава от този, който е започнал плащането
// (-budget), и е един за цялата верига: извиканият може да го скъси, но никога да го удължи.
// Програмата върви във виртуално време.
//
// Употреба:
//
//	deadlinechain [-budget 800ms] [-a 100ms] [-b 150ms] [-cap 300ms] [ОТГОВОР ...]
//
// ОТГОВОР е отговорът на счетоводството на поредното извикване, записан както в пакета flaky:
// ok@40ms, 503@20ms, timeout.
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

// chain е веригата от услуги на едно плащане.
type chain struct {
	a, b   time.Duration // колко работят A и B, преди да извикат следващия
	cap    time.Duration // повече от колко B не чака счетоводството
	ledger *flaky.Service
	client *http.Client
	start  time.Time
}

// maxWait е най-дългата пауза, срок или работа в аргументите: едно денонощие. С по-големи (до 292
// години в time.Duration) виртуалният часовник, който започва през 2000 г., би препълнил.
const maxWait = 24 * time.Hour

func main() {
	fs := flag.NewFlagSet("deadlinechain", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	budget := fs.Duration("budget", 800*time.Millisecond, "срок на цялото плащане")
	a := fs.Duration("a", 100*time.Millisecond, "работа на шлюза A")
	b := fs.Duration("b", 150*time.Millisecond, "работа на услугата B")
	limit := fs.Duration("cap", 300*time.Millisecond, "повече от колко B не чака счетоводството")
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
		fmt.Fprintln(os.Stderr, "употреба: deadlinechain [-budget 800ms] [-a 100ms] [-b 150ms] [-cap 300ms] [ОТГОВОР ...]")
		os.Exit(2)
	}
	c := &chain{a: *a, b: *b, cap: *limit, ledger: ledger, client: ledger.Client(), start: time.Now()}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	fmt.Println("резултат:", c.serviceA(ctx))
}

// elapsed казва колко време е минало от началото на плащането.
func (c *chain) elapsed() time.Duration { return time.Since(c.start) }

// left казва колко остава до срока на ctx.
func left(ctx context.Context) time.Duration {
	deadline, _ := ctx.Deadline()
	return time.Until(deadline)
}

// work е работата на услугата name с продължителност d, която краят на ctx прекъсва. Връща false,
// ако срокът е изтекъл по-рано.
func (c *chain) work(ctx context.Context, name string, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		fmt.Printf("%v %s: срокът изтече по време на работа\n", c.elapsed(), name)
		return false
	}
}

// serviceA е шлюзът: поработва и извиква B със същия срок.
func (c *chain) serviceA(ctx context.Context) string {
	fmt.Printf("%v A: до срока %v\n", c.elapsed(), left(ctx))
	if !c.work(ctx, "A", c.a) {
		return "срокът изтече в A"
	}
	return c.serviceB(ctx)
}

// serviceB поработва и извиква счетоводството, като го чака не повече от c.cap и не повече от срока на ctx.
func (c *chain) serviceB(ctx context.Context) string {
	// Твоят код тук: отпечатай „B: до срока …“, поработи c.b (c.work) и извикай счетоводството
	// (c.callLedger), като го чакаш не повече от c.cap и не повече от срока, който е дал A.
	return "не е написано"
}

// callLedger извиква счетоводството в рамките на ctx и му предава остатъка от срока в заглавка.
func (c *chain) callLedger(ctx context.Context) string {
	// Твоят код тук: POST към c.ledger.URL()+"/pay" в рамките на ctx с остатъка от срока в заглавка
	// (flaky.Deadline), после редовете „ledger: до срока …“ (какво е видяло счетоводството,
	// c.ledger.Log()) и „ledger: КОД“ или „ledger: няма отговор“. Всички редове са в условието (README.md).
	return "не е написано"
}
