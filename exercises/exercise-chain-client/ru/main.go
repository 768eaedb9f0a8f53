// Программа chainclient — клиент, которым курс делает вызовы на каждом слое цепочки из урока:
// шлюз, сервис заказов, слой данных и пул соединений, а под ними база, которая восемь секунд
// переключается на резервную. Сейчас каждый слой делает по три попытки, и повторы перемножаются.
// Допишите Do так, чтобы база получала не больше трёх вызовов на запрос, а после переключения
// снова обслуживались все запросы.
//
// Запуск (в виртуальном времени): workbook run exercise-chain-client -- -scenario chain -seed 7
// (в клоне репозитория: go run ./cmd/workbook run exercise-chain-client -- -scenario chain -seed 7)
package main

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/workbook-course/workbook/checker/scenario"
)

const retries = 2 // повторов на один запрос, не больше: всего три попытки

func main() { scenario.Main(NewClient) }

// client — клиент одного слоя цепочки. Его Do вызывают все запросы, которые проходят через слой,
// и вызывают из многих горутин сразу.
type client struct {
	mu  sync.Mutex // защищает поля ниже
	rnd *rand.Rand
}

// NewClient вызывается один раз для каждого слоя цепочки.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

// Do делает запрос: первая попытка и до retries повторов, пока попытки не удаются.
func (c *client) Do(ctx context.Context, call func(context.Context) error) error {
	err := call(ctx)
	for range retries {
		if err == nil || ctx.Err() != nil {
			break
		}
		err = call(ctx)
	}
	return err
}
