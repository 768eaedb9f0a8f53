// Программа metaclient — клиент сервиса тарифов из урока о перегрузке. Курс запускает восемь таких
// клиентов; каждый такт (100 мс) каждый получает новый вызов, а сервис отвечает на 10 попыток за
// такт. Клиент ограничивает себя сам, как в книге Google SRE: попытку, которую сервис, скорее
// всего, не примет, он не отправляет вовсе, и после сбоя очередь сервиса успевает опустеть.
//
// Запуск (в виртуальном времени): workbook run exercise-metastable-client -- -scenario metastable -seed 7
package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker/scenario"
)

const (
	perTry = time.Second // таймаут одной попытки
	tries  = 3           // попыток на вызов, первая тоже считается

	half = 500 * time.Millisecond // как часто счётчики делятся пополам
)

// errThrottled — попытка, которую клиент не отправил сам.
var errThrottled = errors.New("клиент сам отклонил попытку")

func main() { scenario.Main(NewClient) }

// client — один из восьми клиентов со своим генератором случайных чисел. Его Do
// вызывают одновременно из многих горутин.
type client struct {
	rnd *rand.Rand

	mu     sync.Mutex
	sent   float64   // попыток, которые клиент хотел отправить
	ok     float64   // попыток, на которые сервис ответил
	halved time.Time // когда счётчики в последний раз делились пополам
}

// NewClient вызывается для каждого клиента один раз.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd, halved: time.Now()} }

// age делит оба счётчика пополам за каждые прошедшие полсекунды: вес имеет
// примерно последняя секунда. Вызывать под c.mu.
func (c *client) age() {
	for time.Since(c.halved) >= half {
		c.sent /= 2
		c.ok /= 2
		c.halved = c.halved.Add(half)
	}
}

// allow считает попытку и решает, отправлять ли её: отклоняет с вероятностью
// (sent − 2·ok) / (sent + 1).
func (c *client) allow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.age()
	reject := (c.sent - 2*c.ok) / (c.sent + 1)
	c.sent++
	return c.rnd.Float64() >= reject
}

// answered отмечает попытку, на которую сервис ответил.
func (c *client) answered() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.age()
	c.ok++
}

// Do делает вызов: до tries попыток, каждая ждёт ответа не дольше perTry.
func (c *client) Do(ctx context.Context, call func(context.Context) error) error {
	err := ctx.Err()
	for try := 0; try < tries && ctx.Err() == nil; try++ {
		if !c.allow() {
			return errThrottled
		}
		attempt, cancel := context.WithTimeout(ctx, perTry)
		err = call(attempt)
		cancel()
		if err == nil {
			c.answered()
			return nil
		}
	}
	return err
}
