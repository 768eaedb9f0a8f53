// Программа chainclient — клиент, которым курс делает вызовы на каждом слое цепочки из урока:
// шлюз, сервис заказов, слой данных и пул соединений, а под ними база, которая восемь секунд
// переключается на резервную. У клиента каждого слоя свой бюджет повторов: каждый запрос приносит
// ему десятую долю повтора, и повторить можно, только пока в бюджете есть целый повтор. Так повторы
// составляют не больше десятой части вызовов слоя, и по цепочке они множатся на 1,1, а не на 3.
//
// Запуск (в виртуальном времени): workbook run exercise-chain-client -- -scenario chain -seed 7
package main

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/workbook-course/workbook/checker/scenario"
)

const (
	retries = 2    // повторов на один запрос, не больше: всего три попытки
	share   = 0.1  // доля повтора, которую приносит бюджету каждый запрос
	reserve = 10.0 // больше стольких повторов бюджет не копит
)

func main() { scenario.Main(NewClient) }

// client — клиент одного слоя цепочки. Его Do вызывают все запросы, которые проходят через слой,
// и вызывают из многих горутин сразу.
type client struct {
	mu     sync.Mutex // защищает поля ниже
	rnd    *rand.Rand
	tokens float64 // сколько повторов слою ещё можно
}

// NewClient вызывается один раз для каждого слоя цепочки.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

// Do делает запрос: первая попытка и до retries повторов, пока попытки не удаются и бюджет их
// разрешает.
func (c *client) Do(ctx context.Context, call func(context.Context) error) error {
	c.earn()
	err := call(ctx)
	for range retries {
		if err == nil || ctx.Err() != nil || !c.spend() {
			break
		}
		err = call(ctx)
	}
	return err
}

// earn кладёт в бюджет долю повтора за новый запрос.
func (c *client) earn() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tokens = min(c.tokens+share, reserve)
}

// spend берёт из бюджета один повтор и сообщает false, если целого повтора там нет.
func (c *client) spend() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens < 1 {
		return false
	}
	c.tokens--
	return true
}
