// Програмата chainclient е клиентът, с който курсът прави извикванията на всеки слой от веригата
// от урока: шлюз, услуга за поръчки, слой с данни и пул от връзки, а под тях база, която осем
// секунди превключва към резервната. Сега всеки слой прави по три опита и повторенията се
// умножават. Допиши Do така, че базата да получава най-много три извиквания на заявка, а след
// превключването всички заявки пак да се обслужват.
//
// Пускане (във виртуално време): workbook run exercise-chain-client -- -scenario chain -seed 7
// (в клонирано хранилище: go run ./cmd/workbook run exercise-chain-client -- -scenario chain -seed 7)
package main

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/workbook-course/workbook/checker/scenario"
)

const retries = 2 // повторения на една заявка, най-много: общо три опита

func main() { scenario.Main(NewClient) }

// client е клиентът на един слой от веригата. Неговият Do се извиква от всички заявки, които минават
// през слоя, и то от много горутини наведнъж.
type client struct {
	mu  sync.Mutex // пази полетата под него
	rnd *rand.Rand
}

// NewClient се извиква по веднъж за всеки слой от веригата.
func NewClient(rnd *rand.Rand) scenario.Client { return &client{rnd: rnd} }

// Do прави заявката: първи опит и до retries повторения, докато опитите не успяват.
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
