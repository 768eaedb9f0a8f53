// Программа breakerclock шлёт запросы к сервису rates через автоматический предохранитель (circuit
// breaker) на настоящих часах: после -fails неудач подряд он открывается на -cooldown, запросы в это
// время отклоняются без вызова, а по окончании остывания один пробный запрос решает, закрыться ему или
// открыться снова. Программа идёт в виртуальном времени.
//
// Использование:
//
//	breakerclock [-n 18] [-every 100ms] [-timeout 200ms] [-fails 3] [-cooldown 500ms] [ОТВЕТ ...]
//
// ОТВЕТ — ответ сервиса на очередной вызов в записи пакета flaky: 503@20ms, ok@30ms, timeout.
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

// maxWait — самая долгая пауза, таймаут или работа в аргументах: сутки. С большими (до 292 лет
// time.Duration) виртуальные часы, которые начинаются в 2000 году, переполнились бы.
const maxWait = 24 * time.Hour

func main() {
	fs := flag.NewFlagSet("breakerclock", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	n := fs.Int("n", 18, "сколько запросов")
	every := fs.Duration("every", 100*time.Millisecond, "интервал между запросами")
	timeout := fs.Duration("timeout", 200*time.Millisecond, "таймаут одного вызова")
	fails := fs.Int("fails", 3, "сколько неудач подряд открывают предохранитель")
	cooldown := fs.Duration("cooldown", 500*time.Millisecond, "на сколько предохранитель открывается")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "503@20ms,timeout,503@10ms,503@15ms,ok@30ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("rates", script)
	if err != nil || *n < 1 || *n > 1000 || *every < 0 || *timeout <= 0 || *fails < 1 || *cooldown <= 0 ||
		*every > maxWait || *timeout > maxWait || *cooldown > maxWait {
		fmt.Fprintln(os.Stderr, "использование: breakerclock [-n 18] [-every 100ms] [-timeout 200ms] [-fails 3] [-cooldown 500ms] [ОТВЕТ ...]")
		os.Exit(2)
	}
	c := &client{http: svc.Client(), url: svc.URL() + "/rates", timeout: *timeout,
		br: &breaker{fails: *fails, cooldown: *cooldown}}
	start := time.Now()
	for i := 1; i <= *n; i++ {
		time.Sleep(time.Until(start.Add(time.Duration(i-1) * *every)))
		c.request(i, start)
	}
	fmt.Printf("результат: вызовов %d, отказов без вызова %d\n", svc.Calls(), c.rejected)
}

// breaker — автоматический предохранитель на настоящих часах.
type breaker struct {
	fails     int           // сколько неудач подряд открывают его
	cooldown  time.Duration // на сколько он открывается
	failed    int           // неудач подряд сейчас
	openUntil time.Time     // до какого момента он открыт; нулевое время — закрыт
}

// allow говорит, можно ли сейчас вызывать сервис, и пробный ли это вызов.
func (b *breaker) allow(now time.Time) (ok, probe bool) {
	// Ваш код здесь.
	return true, false
}

// record учитывает исход вызова и возвращает новый конец остывания (нулевое время, если предохранитель
// не открылся).
func (b *breaker) record(success bool, now time.Time) time.Time {
	// Ваш код здесь.
	return time.Time{}
}

// client шлёт запросы через предохранитель.
type client struct {
	http     *http.Client
	url      string
	timeout  time.Duration
	br       *breaker
	rejected int
}

// call делает один вызов с таймаутом c.timeout: код ответа, 0 — ответа не было.
func (c *client) call() int {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return 0
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// request — запрос номер i: через предохранитель, с печатью того, что случилось.
func (c *client) request(i int, start time.Time) {
	// Ваш код здесь: спросить предохранитель, вызвать сервис (c.call), учесть исход и напечатать
	// строки, например
	//	900ms запрос 10, пробный: 503
	//	  предохранитель открыт до 1.415s
	// Все строки и правила — в условии (README.md).
}
