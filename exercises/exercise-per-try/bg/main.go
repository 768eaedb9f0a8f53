// Програмата pertry пита склада stock колко бройки има от една стока. Всеки опит има свой срок
// (-try), а всички заедно — общ бюджет (-budget): опитът никога не трае повече, отколкото е
// останало от бюджета. Програмата върви във виртуално време.
//
// Употреба:
//
//	pertry [-budget 1s] [-try 300ms] [-pause 50ms] [ОТГОВОР ...]
//
// ОТГОВОР е отговорът на склада на поредното извикване, записан както в пакета flaky: 503@100ms,
// ok@250ms, timeout.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

func main() {
	fs := flag.NewFlagSet("pertry", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	budget := fs.Duration("budget", time.Second, "общ бюджет от време")
	try := fs.Duration("try", 300*time.Millisecond, "срок на един опит")
	pause := fs.Duration("pause", 50*time.Millisecond, "изчакване между опитите")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "timeout,503@100ms,ok@250ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("stock", script)
	if err != nil || *budget <= 0 || *try <= 0 || *pause < 0 {
		fmt.Fprintln(os.Stderr, "употреба: pertry [-budget 1s] [-try 300ms] [-pause 50ms] [ОТГОВОР ...]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	r := &retrier{client: svc.Client(), url: svc.URL() + "/stock", try: *try, pause: *pause, start: time.Now()}
	fmt.Println("резултат:", r.run(ctx))
}

// retrier повтаря заявката към склада.
type retrier struct {
	client     *http.Client
	url        string
	try, pause time.Duration
	start      time.Time
}

// attempt прави един опит, който трае не повече от r.try и не повече от бюджета на ctx. Връща кода
// на отговора (0, ако отговор не е имало) и срока, който е получил опитът.
func (r *retrier) attempt(ctx context.Context) (int, time.Duration) {
	// Твоят код тук: заявка GET към r.url, която живее не повече от r.try и не повече от бюджета
	// на ctx. Върни кода на отговора (0, ако отговор няма) и срока, който е получил опитът.
	return 0, 0
}

// run повтаря опитите, докато складът не отговори с код под 500 или докато не свърши бюджетът на
// ctx, и връща изхода.
func (r *retrier) run(ctx context.Context) string {
	// Твоят код тук. Всеки опит отпечатва ред като
	//	350ms опит 2, срок 300ms: 503
	// (или „срокът на опита изтече в …“, или „бюджетът свърши в …“), а изходът се връща като низ,
	// например „200 за 750ms“. Всички редове и правила са в условието (README.md).
	return "не е написано"
}
