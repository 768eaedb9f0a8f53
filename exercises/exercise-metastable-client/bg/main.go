// Програмата metaclient е клиент на услугата за тарифи от урока за претоварването. Курсът пуска
// осем такива клиента; на всеки тик (100 мс) всеки получава ново извикване, а услугата отговаря на
// 10 опита на тик. Докато клиентът повтаря като в урока, кратко прекъсване оставя услугата легнала до
// края на пускането. Допиши клиента така, че след прекъсването услугата да се вдига сама.
//
// Пускане (във виртуално време): workbook run exercise-metastable-client -- -scenario metastable -seed 7
// (в клонирано хранилище: go run ./cmd/workbook run exercise-metastable-client -- -scenario metastable -seed 7)
package main

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/workbook-course/workbook/checker/scenario"
)

const (
	perTry = time.Second // таймаутът на един опит
	tries  = 3           // опити на извикване, първият също се брои
)

func main() { scenario.Main(NewClient) }

// client е един от осемте клиента, със собствен генератор на случайни числа. Неговият
// Do се извиква едновременно от много горутини.
type client struct {
	rnd *rand.Rand
}

// NewClient се извиква веднъж за всеки клиент.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

// Do прави извикването: до tries опита, всеки чака отговор не повече от perTry.
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
