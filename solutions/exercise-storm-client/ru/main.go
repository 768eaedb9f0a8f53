// Программа stormclient — клиент, которого курс запускает две тысячи раз в шторме повторов из
// урока: сервер молчит десять секунд, потом отвечает пятьдесят раз за такт в 100 мс. Клиент
// повторяет запрос с экспоненциальной паузой и полным джиттером: после каждого отказа окно
// удваивается (не выше потолка), а пауза выбирается случайно от нуля до окна.
//
// Запуск (в виртуальном времени): workbook run exercise-storm-client -- -scenario storm -seed 7
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
func (c *client) Do(ctx context.Context, call func(context.Context) error) error {
	for window := firstWindow; call(ctx) != nil; window = min(2*window, maxWindow) {
		if !sleep(ctx, time.Duration(c.rnd.Int64N(int64(window)))) {
			return context.Cause(ctx)
		}
	}
	return nil
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
