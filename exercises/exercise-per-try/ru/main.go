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
	// Ваш код здесь: запрос GET на r.url, который живёт не дольше r.try и не дольше бюджета ctx.
	// Верните код ответа (0, если ответа нет) и срок, который получила попытка.
	return 0, 0
}

// run повторяет попытки, пока склад не ответит кодом меньше 500 или не кончится бюджет ctx, и
// возвращает итог.
func (r *retrier) run(ctx context.Context) string {
	// Ваш код здесь. Каждая попытка печатает строку вида
	//	350ms попытка 2, срок 300ms: 503
	// (или «тайм-аут попытки в …», или «бюджет кончился в …»), а итог возвращается строкой,
	// например «200 за 750ms». Все строки и правила — в условии (README.md).
	return "не написано"
}
