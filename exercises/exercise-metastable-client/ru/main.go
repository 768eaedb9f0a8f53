// Программа metaclient — клиент сервиса тарифов из урока о перегрузке. Курс запускает восемь таких
// клиентов; каждый такт (100 мс) каждый получает новый вызов, а сервис отвечает на 10 попыток за
// такт. Пока клиент повторяет как в уроке, короткий сбой сервиса оставляет его лежать до конца
// прогона. Допишите клиент так, чтобы сервис поднимался после сбоя сам.
//
// Запуск (в виртуальном времени): workbook run exercise-metastable-client -- -scenario metastable -seed 7
// (в клоне репозитория: go run ./cmd/workbook run exercise-metastable-client -- -scenario metastable -seed 7)
package main

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/workbook-course/workbook/checker/scenario"
)

const (
	perTry = time.Second // таймаут одной попытки
	tries  = 3           // попыток на вызов, первая тоже считается
)

func main() { scenario.Main(NewClient) }

// client — один из восьми клиентов со своим генератором случайных чисел. Его Do
// вызывают одновременно из многих горутин.
type client struct {
	rnd *rand.Rand
}

// NewClient вызывается для каждого клиента один раз.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

// Do делает вызов: до tries попыток, каждая ждёт ответа не дольше perTry.
func (c *client) Do(ctx context.Context, call func(context.Context) error) error {
	err := ctx.Err()
	for try := 0; try < tries && ctx.Err() == nil; try++ {
		attempt, cancel := context.WithTimeout(ctx, perTry)
		err = call(attempt)
		cancel()
		if err == nil {
			return nil
		}
	}
	return err
}
