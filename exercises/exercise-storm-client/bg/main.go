// Програмата stormclient е клиентът, когото курсът пуска две хиляди пъти в бурята от повторения
// от урока: сървърът мълчи десет секунди, после отговаря петдесет пъти на тик от 100 мс. Напиши
// Do така, че всички клиенти да бъдат обслужени бързо, без да затрупат сървъра с повторения.
//
// Пускане (във виртуално време): workbook run exercise-storm-client -- -scenario storm -seed 7
// (в клонирано хранилище: go run ./cmd/workbook run exercise-storm-client -- -scenario storm -seed 7)
package main

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/workbook-course/workbook/checker/scenario"
)

const (
	firstWindow = 100 * time.Millisecond // прозорецът след първия отказ
	maxWindow   = 20 * time.Second       // таванът на прозореца
)

func main() { scenario.Main(NewClient) }

// client е един от клиентите в бурята, със собствен генератор на случайни числа.
type client struct {
	rnd *rand.Rand
}

// NewClient се извиква веднъж за всеки клиент.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

// Do повтаря опита call, докато той успее или ctx свърши.
// Засега опитът е един: допиши повторенията.
func (c *client) Do(ctx context.Context, call func(context.Context) error) error {
	return call(ctx)
}

// sleep чака d и връща false, ако ctx свърши по-рано.
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
