// Програмата chainclient е клиентът, с който курсът прави извикванията на всеки слой от веригата
// от урока: шлюз, услуга за поръчки, слой с данни и пул от връзки, а под тях база, която осем
// секунди превключва към резервната. Клиентът на всеки слой има свой бюджет за повторения: всяка
// заявка му носи една десета от повторение, а повторение е позволено само докато в бюджета има
// цяло. Така повторенията са най-много десета част от извикванията на слоя и по веригата се
// умножават по 1,1, а не по 3.
//
// Пускане (във виртуално време): workbook run exercise-chain-client -- -scenario chain -seed 7
package main

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/workbook-course/workbook/checker/scenario"
)

const (
	retries = 2    // повторения на една заявка, най-много: общо три опита
	share   = 0.1  // частта от повторение, която всяка заявка внася в бюджета
	reserve = 10.0 // повече от толкова повторения бюджетът не трупа
)

func main() { scenario.Main(NewClient) }

// client е клиентът на един слой от веригата. Неговият Do се извиква от всички заявки, които минават
// през слоя, и то от много горутини наведнъж.
type client struct {
	mu     sync.Mutex // пази полетата под него
	rnd    *rand.Rand
	tokens float64 // колко повторения още са позволени на слоя
}

// NewClient се извиква по веднъж за всеки слой от веригата.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

// Do прави заявката: първи опит и до retries повторения, докато опитите не успяват и бюджетът ги
// позволява.
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

// earn внася в бюджета частта от повторение за нова заявка.
func (c *client) earn() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tokens = min(c.tokens+share, reserve)
}

// spend взима от бюджета едно повторение и връща false, ако там няма цяло.
func (c *client) spend() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens < 1 {
		return false
	}
	c.tokens--
	return true
}
