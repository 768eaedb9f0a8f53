// Програмата metaclient е клиент на услугата за тарифи от урока за претоварването. Курсът пуска
// осем такива клиента; на всеки тик (100 мс) всеки получава ново извикване, а услугата отговаря на
// 10 опита на тик. Клиентът сам се ограничава, както в книгата на Google SRE: опит, който услугата
// най-вероятно няма да приеме, той изобщо не праща, и след прекъсването опашката на услугата успява
// да се изпразни.
//
// Пускане (във виртуално време): workbook run exercise-metastable-client -- -scenario metastable -seed 7
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
	perTry = time.Second // таймаутът на един опит
	tries  = 3           // опити на извикване, първият също се брои

	half = 500 * time.Millisecond // колко често броячите се делят наполовина
)

// errThrottled е опит, който клиентът сам не е пратил.
var errThrottled = errors.New("клиентът сам е отхвърлил опита")

func main() { scenario.Main(NewClient) }

// client е един от осемте клиента, със собствен генератор на случайни числа. Неговият
// Do се извиква едновременно от много горутини.
type client struct {
	rnd *rand.Rand

	mu     sync.Mutex
	sent   float64   // опити, които клиентът е искал да прати
	ok     float64   // опити, на които услугата е отговорила
	halved time.Time // кога броячите за последно са делени наполовина
}

// NewClient се извиква веднъж за всеки клиент.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd, halved: time.Now()} }

// age дели двата брояча наполовина за всяка изминала половин секунда:
// тежест има горе-долу последната секунда. Извиква се под c.mu.
func (c *client) age() {
	for time.Since(c.halved) >= half {
		c.sent /= 2
		c.ok /= 2
		c.halved = c.halved.Add(half)
	}
}

// allow брои опита и решава дали да го прати: отхвърля го с вероятност
// (sent − 2·ok) / (sent + 1).
func (c *client) allow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.age()
	reject := (c.sent - 2*c.ok) / (c.sent + 1)
	c.sent++
	return c.rnd.Float64() >= reject
}

// answered отбелязва опит, на който услугата е отговорила.
func (c *client) answered() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.age()
	c.ok++
}

// Do прави извикването: до tries опита, всеки чака отговор не повече от perTry.
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
