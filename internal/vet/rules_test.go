package vet

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// ruleCase is a program a rule must find (want) or must not (!want): the mistake, and beside it the
// nearest right way to write the same thing, which is where a false alarm would come from.
type ruleCase struct {
	name string
	want bool
	src  string // the program after "package main"
}

// ruleCases are, for every rule, programs that must and must not trigger it.
var ruleCases = map[string][]ruleCase{
	"sleep_retry": {
		{"sleep between requests with a context", true, `
import ("context"; "net/http"; "time")
func fetch(ctx context.Context, url string) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		if resp, err := http.DefaultTransport.RoundTrip(req); err == nil { resp.Body.Close(); return nil }
		time.Sleep(time.Second)
	}
	return nil
}
func main() { fetch(context.Background(), "http://x.invalid") }`},
		{"a bare receive from time.After", true, `
import ("context"; "time")
func call(ctx context.Context) error { return ctx.Err() }
func retry(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = call(ctx); err == nil { return nil }
		<-time.After(100 * time.Millisecond)
	}
	return err
}
func main() { retry(context.Background()) }`},
		{"the pause in a select on ctx.Done", false, `
import ("context"; "time")
func call(ctx context.Context) error { return ctx.Err() }
func retry(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = call(ctx); err == nil { return nil }
		t := time.NewTimer(100 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}
func main() { retry(context.Background()) }`},
		{"sleep that asks ctx.Err first", false, `
import ("context"; "time")
func call(ctx context.Context) error { return ctx.Err() }
func retry(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		if err := ctx.Err(); err != nil { return err }
		if call(ctx) == nil { return nil }
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}
func main() { retry(context.Background()) }`},
		{"a sleep in a loop that makes no request", false, `
import ("fmt"; "time")
func main() {
	for i := 0; i < 3; i++ { fmt.Println(i); time.Sleep(time.Millisecond) }
}`},
	},
	"retry_canceled": {
		{"continues after context.Canceled", true, `
import ("context"; "errors")
func call(ctx context.Context) error { return ctx.Err() }
func retry(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = call(ctx)
		if errors.Is(err, context.Canceled) { continue }
		if err == nil { return nil }
	}
	return err
}
func main() { retry(context.Background()) }`},
		{"retries DeadlineExceeded with no deadline per attempt", true, `
import ("context"; "errors")
func call(ctx context.Context) error { return ctx.Err() }
func retry(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = call(ctx)
		if err == nil { return nil }
		if errors.Is(err, context.DeadlineExceeded) { continue }
		return err
	}
	return err
}
func main() { retry(context.Background()) }`},
		{"returns on context.Canceled", false, `
import ("context"; "errors")
func call(ctx context.Context) error { return ctx.Err() }
func retry(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = call(ctx)
		if errors.Is(err, context.Canceled) { return err }
		if err == nil { return nil }
	}
	return err
}
func main() { retry(context.Background()) }`},
		{"retries DeadlineExceeded of an attempt's own timeout", false, `
import ("context"; "errors"; "time")
func call(ctx context.Context) error { return ctx.Err() }
func retry(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		actx, cancel := context.WithTimeout(ctx, time.Second)
		err = call(actx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil { continue }
		return err
	}
	return err
}
func main() { retry(context.Background()) }`},
	},
	"backoff_jitter": {
		{"a doubled pause, nothing random", true, `
import ("errors"; "time")
func call() error { return errors.New("down") }
func main() {
	d := 100 * time.Millisecond
	for i := 0; i < 5 && call() != nil; i++ {
		time.Sleep(d)
		d *= 2
		if d > 5*time.Second {
			d = 5 * time.Second
		}
	}
}`},
		{"a pause shifted by the attempt", true, `
import ("errors"; "time")
func call() error { return errors.New("down") }
func main() {
	for i := 0; i < 5 && call() != nil; i++ {
		time.Sleep(min(time.Duration(1<<i)*100*time.Millisecond, 5*time.Second))
	}
}`},
		{"doubled up to a ceiling with min, nothing random", true, `
import ("errors"; "time")
func call() error { return errors.New("down") }
func main() {
	d := 100 * time.Millisecond
	for i := 0; i < 5 && call() != nil; i++ {
		time.Sleep(d)
		d = min(2*d, 5*time.Second)
	}
}`},
		{"full jitter under the ceiling", false, `
import ("errors"; "math/rand/v2"; "time")
func call() error { return errors.New("down") }
func main() {
	d := 100 * time.Millisecond
	for i := 0; i < 5 && call() != nil; i++ {
		time.Sleep(rand.N(d))
		d = min(2*d, 5*time.Second)
	}
}`},
		{"a constant pause", false, `
import ("errors"; "time")
func call() error { return errors.New("down") }
func main() {
	for i := 0; i < 5 && call() != nil; i++ { time.Sleep(100 * time.Millisecond) }
}`},
	},
	"backoff_overflow": {
		{"doubled for ever", true, `
import ("errors"; "math/rand/v2"; "time")
func call() error { return errors.New("down") }
func main() {
	d := 100 * time.Millisecond
	for {
		if call() == nil { return }
		time.Sleep(rand.N(d))
		d *= 2
	}
}`},
		{"doubled while the call fails, no count", true, `
import ("errors"; "math/rand/v2"; "time")
func call() error { return errors.New("down") }
func main() {
	d := 100 * time.Millisecond
	for call() != nil {
		time.Sleep(rand.N(d))
		d *= 2
	}
}`},
		{"shifted by an unbounded count", true, `
import ("errors"; "math/rand/v2"; "time")
func call() error { return errors.New("down") }
func main() {
	base := 100 * time.Millisecond
	for n := 0; call() != nil; n++ {
		time.Sleep(rand.N(base << n))
	}
}`},
		{"doubled under a ceiling", false, `
import ("errors"; "math/rand/v2"; "time")
func call() error { return errors.New("down") }
func main() {
	d := 100 * time.Millisecond
	for call() != nil {
		time.Sleep(rand.N(d))
		d = min(d*2, 10*time.Second)
	}
}`},
		{"shifted by a bounded attempt", false, `
import ("errors"; "math/rand/v2"; "time")
func call() error { return errors.New("down") }
func main() {
	base := 100 * time.Millisecond
	for n := 0; n < 6 && call() != nil; n++ {
		time.Sleep(rand.N(base << n))
	}
}`},
	},
	"retry_after": {
		{"503 told apart, Retry-After never read", true, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func get(ctx context.Context, url string) (int, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := client.Do(req)
	if err != nil { return 0, err }
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
func main() {
	for i := 0; i < 3; i++ {
		code, _ := get(context.Background(), "http://x.invalid")
		if code == http.StatusServiceUnavailable { time.Sleep(time.Second); continue }
		break
	}
}`},
		{"a switch on 429", true, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://x.invalid", nil)
		resp, err := client.Do(req)
		if err != nil { return }
		resp.Body.Close()
		switch resp.StatusCode {
		case 429:
			time.Sleep(time.Second)
			continue
		}
		return
	}
}`},
		{"Retry-After read on 503", false, `
import ("context"; "net/http"; "strconv"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://x.invalid", nil)
		resp, err := client.Do(req)
		if err != nil { return }
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			s, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			time.Sleep(time.Duration(s) * time.Second)
			continue
		}
		return
	}
}`},
		{"503 told apart but never waited on", false, `
import ("context"; "fmt"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://x.invalid", nil)
	resp, err := client.Do(req)
	if err != nil { return }
	resp.Body.Close()
	if resp.StatusCode == 503 { fmt.Println("unavailable") }
}`},
	},
	"idempotency": {
		{"a POST in a retry loop", true, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://pay.invalid/charge", nil)
		resp, err := client.Do(req)
		if err == nil { resp.Body.Close(); return }
	}
}`},
		{"a PATCH hedged in goroutines", true, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func send(ctx context.Context) {
	req, _ := http.NewRequestWithContext(ctx, "PATCH", "http://x.invalid/item", nil)
	if resp, err := client.Do(req); err == nil { resp.Body.Close() }
}
func main() {
	done := make(chan bool, 2)
	for i := 0; i < 2; i++ { go func() { send(context.Background()); done <- true }() }
	<-done
}`},
		{"a POST retried with an idempotency key", false, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://pay.invalid/charge", nil)
		req.Header.Set("Idempotency-Key", "order-42")
		resp, err := client.Do(req)
		if err == nil { resp.Body.Close(); return }
	}
}`},
		{"a GET retried", false, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://x.invalid", nil)
		resp, err := client.Do(req)
		if err == nil { resp.Body.Close(); return }
	}
}`},
	},
	"body_close": {
		{"never closed", true, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://x.invalid", nil)
	resp, err := client.Do(req)
	if err != nil { return }
	println(resp.StatusCode)
}`},
		{"a return before the close", true, `
import ("context"; "errors"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func get(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://x.invalid", nil)
	resp, err := client.Do(req)
	if err != nil { return err }
	if resp.StatusCode != 200 { return errors.New("bad status") }
	resp.Body.Close()
	return nil
}
func main() { get(context.Background()) }`},
		{"deferred close after the error check", false, `
import ("context"; "errors"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func get(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://x.invalid", nil)
	resp, err := client.Do(req)
	if err != nil { return err }
	defer resp.Body.Close()
	if resp.StatusCode != 200 { return errors.New("bad status") }
	return nil
}
func main() { get(context.Background()) }`},
		{"the response handed to the caller", false, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func get(ctx context.Context) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://x.invalid", nil)
	return client.Do(req)
}
func main() {
	resp, err := get(context.Background())
	if err == nil { resp.Body.Close() }
}`},
	},
	"timer_stop": {
		{"a timeout timer never stopped", true, `
import "time"
func wait(done chan bool) bool {
	t := time.NewTimer(time.Second)
	select {
	case <-done: return true
	case <-t.C: return false
	}
}
func main() { wait(make(chan bool)) }`},
		{"a timer waited on, never stopped", true, `
import "time"
func main() {
	t := time.NewTimer(time.Millisecond)
	<-t.C
	println("done")
}`},
		{"stopped by defer", false, `
import "time"
func wait(done chan bool) bool {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-done: return true
	case <-t.C: return false
	}
}
func main() { wait(make(chan bool)) }`},
		{"returned to the caller", false, `
import "time"
func deadline() *time.Timer { t := time.NewTimer(time.Second); return t }
func main() { t := deadline(); t.Stop() }`},
	},
	"ticker_stop": {
		{"a ticker never stopped", true, `
import "time"
func main() {
	t := time.NewTicker(time.Millisecond)
	for i := 0; i < 3; i++ { <-t.C }
}`},
		{"a ticker in a poll loop", true, `
import ("fmt"; "time")
func poll(ready func() bool) {
	tick := time.NewTicker(10 * time.Millisecond)
	for range tick.C {
		if ready() { fmt.Println("ready"); return }
	}
}
func main() { poll(func() bool { return true }) }`},
		{"stopped by defer", false, `
import "time"
func main() {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for i := 0; i < 3; i++ { <-t.C }
}`},
		{"stopped after the loop", false, `
import ("fmt"; "time")
func poll(ready func() bool) {
	tick := time.NewTicker(10 * time.Millisecond)
	for range tick.C {
		if ready() { break }
	}
	tick.Stop()
	fmt.Println("ready")
}
func main() { poll(func() bool { return true }) }`},
	},
	"after_loop": {
		{"time.After in a select in a loop", true, `
import "time"
func main() {
	events := make(chan int)
	for {
		select {
		case <-events:
		case <-time.After(time.Second):
			return
		}
	}
}`},
		{"a pause in a select per attempt", true, `
import ("context"; "time")
func main() {
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Duration(i) * time.Millisecond):
		}
	}
}`},
		{"one timer made before the loop", false, `
import "time"
func main() {
	events := make(chan int)
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for {
		select {
		case <-events:
		case <-t.C:
			return
		}
	}
}`},
		{"time.After in a select outside any loop", false, `
import "time"
func main() {
	events := make(chan int)
	select {
	case <-events:
	case <-time.After(time.Millisecond):
	}
}`},
	},
	"default_client": {
		{"http.Get", true, `
import "net/http"
func main() {
	resp, err := http.Get("http://x.invalid")
	if err == nil { resp.Body.Close() }
}`},
		{"http.DefaultClient.Do", true, `
import ("context"; "net/http")
func main() {
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://x.invalid", nil)
	resp, err := http.DefaultClient.Do(req)
	if err == nil { resp.Body.Close() }
}`},
		{"a client of its own with a timeout", false, `
import ("net/http"; "time")
var client = &http.Client{Timeout: 2 * time.Second}
func main() {
	resp, err := client.Get("http://x.invalid")
	if err == nil { resp.Body.Close() }
}`},
		{"an http.Request built, no call through the default client", false, `
import ("context"; "net/http"; "time")
func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://x.invalid", nil)
	println(req.URL.Host)
}`},
	},
	"client_timeout": {
		{"&http.Client{} with no context anywhere", true, `
import "net/http"
var client = &http.Client{}
func main() {
	resp, err := client.Get("http://x.invalid")
	if err == nil { resp.Body.Close() }
}`},
		{"a client with a transport but no timeout", true, `
import "net/http"
func main() {
	c := http.Client{Transport: http.DefaultTransport}
	resp, err := c.Get("http://x.invalid")
	if err == nil { resp.Body.Close() }
}`},
		{"a client with a Timeout", false, `
import ("net/http"; "time")
func main() {
	c := &http.Client{Timeout: time.Second}
	resp, err := c.Get("http://x.invalid")
	if err == nil { resp.Body.Close() }
}`},
		{"no Timeout, but every request under a context's deadline", false, `
import ("context"; "net/http"; "time")
var client = &http.Client{}
func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://x.invalid", nil)
	resp, err := client.Do(req)
	if err == nil { resp.Body.Close() }
}`},
	},
	"background_ctx": {
		{"Background in a function given a context", true, `
import ("context"; "time")
func call(ctx context.Context) error { return ctx.Err() }
func handle(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return call(c)
}
func main() { handle(context.Background()) }`},
		{"TODO in a handler with a request", true, `
import ("context"; "net/http")
func call(ctx context.Context) error { return ctx.Err() }
func handler(w http.ResponseWriter, r *http.Request) {
	if call(context.TODO()) != nil { w.WriteHeader(502) }
}
func main() { http.HandleFunc("/", handler) }`},
		{"derived from the caller's context", false, `
import ("context"; "time")
func call(ctx context.Context) error { return ctx.Err() }
func handle(ctx context.Context) error {
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return call(c)
}
func main() { handle(context.Background()) }`},
		{"Background in main, where no caller's context is", false, `
import ("context"; "time")
func call(ctx context.Context) error { return ctx.Err() }
func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	call(ctx)
}`},
	},
	"busy_wait": {
		{"a select with an empty default in a loop", true, `
func main() {
	done := make(chan bool, 1)
	done <- true
	for {
		select {
		case <-done:
			return
		default:
		}
	}
}`},
		{"polling a result channel", true, `
import "fmt"
func main() {
	res := make(chan int, 1)
	go func() { res <- 1 }()
	for {
		select {
		case v := <-res:
			fmt.Println(v)
			return
		default:
		}
	}
}`},
		{"a blocking select", false, `
func main() {
	done := make(chan bool, 1)
	done <- true
	for {
		select {
		case <-done:
			return
		}
	}
}`},
		{"a non-blocking send that drops, once per item", false, `
import "fmt"
func main() {
	out := make(chan int, 1)
	for i := 0; i < 3; i++ {
		select {
		case out <- i:
		default:
			fmt.Println("dropped", i)
		}
	}
}`},
	},
	"breaker_cancel": {
		{"every error counted", true, `
import ("context"; "errors")
type breaker struct{ fails int }
func (b *breaker) Fail() { b.fails++ }
func call(ctx context.Context) error { return errors.New("down") }
func do(ctx context.Context, b *breaker) error {
	err := call(ctx)
	if err != nil {
		b.Fail()
		return err
	}
	return nil
}
func main() { do(context.Background(), &breaker{}) }`},
		{"a failure recorded on any error", true, `
import ("context"; "errors")
type Breaker struct{ n int }
func (b *Breaker) RecordFailure() { b.n++ }
func call(ctx context.Context) error { return errors.New("down") }
func guarded(ctx context.Context, b *Breaker) {
	if err := call(ctx); err != nil { b.RecordFailure() }
}
func main() { guarded(context.Background(), &Breaker{}) }`},
		{"the caller's cancellation left out", false, `
import ("context"; "errors")
type breaker struct{ fails int }
func (b *breaker) Fail() { b.fails++ }
func call(ctx context.Context) error { return errors.New("down") }
func do(ctx context.Context, b *breaker) error {
	err := call(ctx)
	if err != nil && ctx.Err() == nil {
		b.Fail()
	}
	return err
}
func main() { do(context.Background(), &breaker{}) }`},
		{"errors.Is context.Canceled told apart", false, `
import ("context"; "errors")
type breaker struct{ fails int }
func (b *breaker) Fail() { b.fails++ }
func call(ctx context.Context) error { return errors.New("down") }
func do(ctx context.Context, b *breaker) error {
	err := call(ctx)
	if err != nil && !errors.Is(err, context.Canceled) {
		b.Fail()
	}
	return err
}
func main() { do(context.Background(), &breaker{}) }`},
	},
	"breaker_4xx": {
		{"code >= 400 counted", true, `
type breaker struct{ fails int }
func (b *breaker) Fail() { b.fails++ }
func record(b *breaker, status int) {
	if status >= 400 { b.Fail() }
}
func main() { record(&breaker{}, 404) }`},
		{"anything but 200 counted", true, `
type breaker struct{ fails int }
func (b *breaker) OnFailure() { b.fails++ }
func record(b *breaker, code int) {
	if code != 200 { b.OnFailure() }
}
func main() { record(&breaker{}, 404) }`},
		{"only 5xx counted", false, `
type breaker struct{ fails int }
func (b *breaker) Fail() { b.fails++ }
func record(b *breaker, status int) {
	if status >= 500 { b.Fail() }
}
func main() { record(&breaker{}, 503) }`},
		{"4xx checked, but no breaker", false, `
import "fmt"
func record(status int) {
	if status >= 400 { fmt.Println("bad request") }
}
func main() { record(404) }`},
	},
	"goroutine_leak": {
		{"a goroutine per hedge, an unbuffered channel read once", true, `
func ask(i int) int { return i }
func main() {
	ch := make(chan int)
	for i := 0; i < 3; i++ {
		go func() { ch <- ask(i) }()
	}
	println(<-ch)
}`},
		{"one per attempt, make(chan T, 0)", true, `
func ask(i int) int { return i }
func first() int {
	ch := make(chan int, 0)
	for i := 0; i < 2; i++ {
		go func() { ch <- ask(i) }()
	}
	return <-ch
}
func main() { println(first()) }`},
		{"a channel with room for every answer", false, `
func ask(i int) int { return i }
func main() {
	ch := make(chan int, 3)
	for i := 0; i < 3; i++ {
		go func() { ch <- ask(i) }()
	}
	println(<-ch)
}`},
		{"every answer read", false, `
func ask(i int) int { return i }
func main() {
	ch := make(chan int)
	for i := 0; i < 3; i++ {
		go func() { ch <- ask(i) }()
	}
	sum := 0
	for i := 0; i < 3; i++ { sum += <-ch }
	println(sum)
}`},
	},
	"lostcancel": {
		{"cancel dropped", true, `
import ("context"; "time")
func main() {
	ctx, _ := context.WithTimeout(context.Background(), time.Second)
	<-ctx.Done()
}`},
		{"cancel not called on every path", true, `
import ("context"; "time")
func run(fast bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	if fast {
		return nil
	}
	cancel()
	return ctx.Err()
}
func main() { run(true) }`},
		{"defer cancel", false, `
import ("context"; "time")
func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	<-ctx.Done()
}`},
		{"cancel handed to the caller", false, `
import ("context"; "time")
func withLimit() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), time.Second)
}
func main() { _, cancel := withLimit(); cancel() }`},
	},
	"httpresponse": {
		{"defer before the error check", true, `
import ("net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	resp, err := client.Get("http://x.invalid")
	defer resp.Body.Close()
	if err != nil { return }
}`},
		{"the same with Do", true, `
import ("context"; "net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://x.invalid", nil)
	resp, err := client.Do(req)
	defer resp.Body.Close()
	if err != nil { return }
}`},
		{"the error checked first", false, `
import ("net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	resp, err := client.Get("http://x.invalid")
	if err != nil { return }
	defer resp.Body.Close()
}`},
		{"closed at once after the check, no defer", false, `
import ("net/http"; "time")
var client = &http.Client{Timeout: time.Second}
func main() {
	resp, err := client.Get("http://x.invalid")
	if err != nil { return }
	resp.Body.Close()
}`},
	},
}

// TestRuleTables runs every rule's table: each program it must find is found by it, each program
// it must not find is not (other rules may speak of the latter), and every rule has at least two of
// each.
func TestRuleTables(t *testing.T) {
	for _, rule := range Rules {
		cases := ruleCases[rule]
		must, mustNot := 0, 0
		for _, c := range cases {
			if c.want {
				must++
			} else {
				mustNot++
			}
		}
		if must < 2 || mustNot < 2 {
			t.Errorf("rule %s has %d programs that must trigger it and %d that must not, want at least 2 of each", rule, must, mustNot)
		}
		for _, c := range cases {
			t.Run(rule+"/"+c.name, func(t *testing.T) {
				src := "package main\n" + c.src + "\n"
				findings, err := Files(context.Background(), []checker.SourceFile{{Name: "main.go", Data: []byte(src)}})
				if err != nil {
					t.Fatalf("%v\n%s", err, src)
				}
				var got []string
				for _, f := range findings {
					got = append(got, fmt.Sprintf("%d:%s", f.Line, f.Rule))
				}
				found := slices.ContainsFunc(findings, func(f Finding) bool { return f.Rule == rule })
				if found != c.want {
					t.Errorf("%s found: %t, want %t (findings %s)\n%s", rule, found, c.want, strings.Join(got, " "), src)
				}
			})
		}
	}
	for rule := range ruleCases {
		if !slices.Contains(Rules, rule) {
			t.Errorf("the table names rule %s, which vet does not have", rule)
		}
	}
}
