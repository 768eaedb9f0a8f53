package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

type breaker struct{ failed int }

func (b *breaker) fail() { b.failed++ }

var client = &http.Client{Transport: http.DefaultTransport} // want "client_timeout"

func get(ctx context.Context, b *breaker, url string) (int, error) {
	req, _ := http.NewRequest("GET", url, nil)
	resp, err := client.Do(req)
	defer resp.Body.Close() // want "httpresponse"
	if err != nil {         // want "breaker_cancel"
		b.fail()
		return 0, err
	}
	if resp.StatusCode >= 400 { // want "breaker_4xx"
		b.fail()
	}
	return resp.StatusCode, nil
}

func collect(ctx context.Context, b *breaker, urls []string) int {
	codes := make(chan int)
	for _, u := range urls {
		go func() { // want "goroutine_leak"
			code, _ := get(ctx, b, u)
			codes <- code
		}()
	}
	return <-codes
}

func main() {
	b := &breaker{}
	ctx, cancel := context.WithCancel(context.Background())
	if len(fmt.Sprint(b)) > 100 {
		cancel()
		return
	}
	pause := time.Millisecond
	for n := 0; ; n++ {
		_, err := get(ctx, b, "http://a.invalid")
		if err == nil || n > 10 {
			break
		}
		if err == context.Canceled { // want "retry_canceled"
			continue
		}
		for range 3 {
			select {
			case <-time.After(pause): // want "after_loop"
			}
		}
		time.Sleep(pause << n) // want "backoff_jitter"
		if errors.Is(err, http.ErrHandlerTimeout) {
			break
		}
	}
	fmt.Println(collect(ctx, b, []string{"http://a.invalid", "http://b.invalid"}))
}
