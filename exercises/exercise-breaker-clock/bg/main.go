// Програмата breakerclock праща заявки към услугата rates през прекъсвач (circuit breaker) на
// истински часовник: след -fails поредни неуспеха той се отваря за -cooldown, през това време
// заявките се отказват без извикване, а след изчакването една пробна заявка решава дали да се затвори,
// или да се отвори отново. Програмата върви във виртуално време.
//
// Употреба:
//
//	breakerclock [-n 18] [-every 100ms] [-timeout 200ms] [-fails 3] [-cooldown 500ms] [ОТГОВОР ...]
//
// ОТГОВОР е отговорът на услугата на поредното извикване, записан както в пакета flaky: 503@20ms,
// ok@30ms, timeout.
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

// maxWait е най-дългата пауза, таймаут или работа в аргументите: едно денонощие. С по-големи (до 292
// години в time.Duration) виртуалният часовник, който започва през 2000 г., би препълнил.
const maxWait = 24 * time.Hour

func main() {
	fs := flag.NewFlagSet("breakerclock", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	n := fs.Int("n", 18, "колко заявки")
	every := fs.Duration("every", 100*time.Millisecond, "интервал между заявките")
	timeout := fs.Duration("timeout", 200*time.Millisecond, "таймаут на едно извикване")
	fails := fs.Int("fails", 3, "колко поредни неуспеха отварят прекъсвача")
	cooldown := fs.Duration("cooldown", 500*time.Millisecond, "за колко време се отваря прекъсвачът")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	script := "503@20ms,timeout,503@10ms,503@15ms,ok@30ms"
	if fs.NArg() > 0 {
		script = strings.Join(fs.Args(), ",")
	}
	svc, err := flaky.New("rates", script)
	if err != nil || *n < 1 || *n > 1000 || *every < 0 || *timeout <= 0 || *fails < 1 || *cooldown <= 0 ||
		*every > maxWait || *timeout > maxWait || *cooldown > maxWait {
		fmt.Fprintln(os.Stderr, "употреба: breakerclock [-n 18] [-every 100ms] [-timeout 200ms] [-fails 3] [-cooldown 500ms] [ОТГОВОР ...]")
		os.Exit(2)
	}
	c := &client{http: svc.Client(), url: svc.URL() + "/rates", timeout: *timeout,
		br: &breaker{fails: *fails, cooldown: *cooldown}}
	start := time.Now()
	for i := 1; i <= *n; i++ {
		time.Sleep(time.Until(start.Add(time.Duration(i-1) * *every)))
		c.request(i, start)
	}
	fmt.Printf("резултат: извиквания %d, отказани без извикване %d\n", svc.Calls(), c.rejected)
}

// breaker е прекъсвач на истински часовник.
type breaker struct {
	fails     int           // колко поредни неуспеха го отварят
	cooldown  time.Duration // за колко време се отваря
	failed    int           // поредни неуспехи досега
	openUntil time.Time     // до кой миг е отворен; нулево време значи затворен
}

// allow казва дали сега може да се извика услугата и дали извикването е пробно.
func (b *breaker) allow(now time.Time) (ok, probe bool) {
	// Твоят код тук.
	return true, false
}

// record отчита изхода от извикването и връща новия момент, до който прекъсвачът е отворен (нулево
// време, ако не се е отворил).
func (b *breaker) record(success bool, now time.Time) time.Time {
	// Твоят код тук.
	return time.Time{}
}

// client праща заявки през прекъсвача.
type client struct {
	http     *http.Client
	url      string
	timeout  time.Duration
	br       *breaker
	rejected int
}

// call прави едно извикване с таймаут c.timeout: кодът на отговора или 0, ако отговор не е имало.
func (c *client) call() int {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return 0
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// request е заявка номер i: през прекъсвача, като отпечатва какво е станало.
func (c *client) request(i int, start time.Time) {
	// Твоят код тук: попитай прекъсвача, извикай услугата (c.call), отчети изхода и отпечатай
	// редовете, например
	//	900ms заявка 10, пробна: 503
	//	  прекъсвачът е отворен до 1.415s
	// Всички редове и правила са в условието (README.md).
}
