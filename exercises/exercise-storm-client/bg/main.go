// Програмата stormclient е клиентът, когото курсът пуска две хиляди пъти в бурята от повторения
// от урока: сървърът мълчи десет секунди, после отговаря петдесет пъти на такт от 100 ms. Напиши
// Do така, че всички клиенти да бъдат обслужени бързо, без да затрупат сървъра с повторения.
//
// Пускане (във виртуално време): workbook run exercise-storm-client -- -scenario storm -seed 7
package main

import (
	"context"
	"math/rand/v2"

	"github.com/workbook-course/workbook/checker/scenario"
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
