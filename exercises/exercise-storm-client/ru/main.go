// Программа stormclient — клиент, которого курс запускает две тысячи раз в шторме повторов из
// урока: сервер молчит десять секунд, потом отвечает пятьдесят раз за такт в 100 мс. Напишите Do
// так, чтобы все клиенты были обслужены быстро и не завалили сервер повторами.
//
// Запуск (в виртуальном времени): workbook run exercise-storm-client -- -scenario storm -seed 7
// (в клоне репозитория: go run ./cmd/workbook run exercise-storm-client -- -scenario storm -seed 7)
package main

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/workbook-course/workbook/checker/scenario"
)

const (
	firstWindow = 100 * time.Millisecond // окно после первого отказа
	maxWindow   = 20 * time.Second       // потолок окна
)

func main() { scenario.Main(NewClient) }

// client — один из клиентов шторма со своим генератором случайных чисел.
type client struct {
	rnd *rand.Rand
}

// NewClient вызывается для каждого клиента один раз.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

// Do повторяет попытку call, пока она не удастся или не кончится ctx.
// Сейчас попытка одна: допишите повторы.
func (c *client) Do(ctx context.Context, call func(context.Context) error) error {
	return call(ctx)
}

// sleep ждёт d и сообщает false, если ctx кончился раньше.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
