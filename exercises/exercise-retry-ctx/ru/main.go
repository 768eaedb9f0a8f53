// Программа retryctx повторяет запрос к платёжному сервису, у которого две реплики: pay-a и pay-b.
// Каждая реплика помнит, когда её снова можно вызывать: после неудачи — через паузу с полным
// джиттером, а если она прислала Retry-After — не раньше, чем она просила. Очередная попытка идёт к
// той реплике, которая освободится раньше. Программа идёт в виртуальном времени: паузы и задержки
// сервиса настоящие, но не стоят ни секунды.
//
// Использование:
//
//	retryctx [-budget 2s] [-base 100ms] [-cap 1s] [-seed 1] [-b ОТВЕТЫ] [ОТВЕТ ...]
//
// ОТВЕТ — ответ реплики pay-a на очередной вызов в записи пакета flaky: 503, ok@30ms, 429@20ms/1s,
// timeout; ОТВЕТЫ — ответы реплики pay-b через запятую.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

func main() {
	fs := flag.NewFlagSet("retryctx", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	budget := fs.Duration("budget", 2*time.Second, "общий бюджет времени, не больше 1h")
	base := fs.Duration("base", 100*time.Millisecond, "потолок первой паузы, от 1ms")
	ceiling := fs.Duration("cap", time.Second, "наибольший потолок паузы, не больше 1m")
	seed := fs.Uint64("seed", 1, "зерно джиттера, не больше 1000000")
	scriptB := fs.String("b", "500@15ms,429@10ms/1s,ok@40ms", "ответы реплики pay-b")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	scriptA := "503,429@20ms/1s,ok@30ms"
	if fs.NArg() > 0 {
		scriptA = strings.Join(fs.Args(), ",")
	}
	a, errA := flaky.New("pay-a", scriptA)
	b, errB := flaky.New("pay-b", *scriptB)
	if errA != nil || errB != nil || *budget <= 0 || *budget > time.Hour || *base < time.Millisecond ||
		*ceiling < *base || *ceiling > time.Minute || *seed > 1000000 {
		fmt.Fprintln(os.Stderr, "использование: retryctx [-budget 2s] [-base 100ms] [-cap 1s] [-seed 1] [-b ОТВЕТЫ] [ОТВЕТ ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{replicas: []*flaky.Service{a, b}, rng: rand.New(rand.NewPCG(*seed, 7)),
		base: *base, ceiling: *ceiling, start: time.Now()}
	fmt.Println("результат:", r.run(ctx))
}

// retrier повторяет запрос, переходя между репликами.
type retrier struct {
	replicas      []*flaky.Service // pay-a, pay-b
	rng           *rand.Rand
	base, ceiling time.Duration
	start         time.Time
}

// since — сколько времени прошло с начала программы.
func (r *retrier) since() time.Duration { return time.Since(r.start) }

// jitter — полный джиттер после попытки attempt: случайная пауза из [0, min(cap, base·2^(attempt-1))),
// в целых миллисекундах.
func (r *retrier) jitter(attempt int) time.Duration {
	ceiling := r.base
	for i := 1; i < attempt; i++ {
		ceiling = min(2*ceiling, r.ceiling)
	}
	return time.Duration(r.rng.Int64N(ceiling.Milliseconds())) * time.Millisecond
}

// retryable говорит, стоит ли повторять ответ с этим кодом.
func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}

// call делает одну попытку к реплике svc в пределах ctx: код ответа и Retry-After (0, если его нет).
func call(ctx context.Context, svc *flaky.Service) (int, time.Duration, error) {
	// Ваш код здесь: запрос GET на svc.URL()+"/charge", который живёт не дольше ctx, через
	// svc.Client(). Не забудьте закрыть тело ответа. Retry-After — целое число секунд в заголовке.
	return 0, 0, errors.New("call: не написана")
}

// run повторяет запрос, пока не придёт ответ, который не стоит повторять, или пока есть бюджет ctx,
// и возвращает итог.
func (r *retrier) run(ctx context.Context) string {
	// Ваш код здесь. Для каждой реплики помните момент, с которого её снова можно вызывать; попытка
	// идёт к той, что освободится раньше (при равенстве — к pay-a). Попытка печатает строку вида
	//	51ms попытка 3, pay-b: 429, Retry-After 1s
	// ожидание — строку «  пауза 36ms», а итог возвращается строкой, например
	//	200 от pay-b за 1.101s
	// Все строки и правила — в условии.
	return "не написано"
}
