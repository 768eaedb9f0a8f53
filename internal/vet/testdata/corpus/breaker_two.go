package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

type circuitBreaker struct {
	fails int
}

func (b *circuitBreaker) RecordFailure() { b.fails++ }
func (b *circuitBreaker) RecordSuccess() { b.fails = 0 }

var cb = &circuitBreaker{}

func send(ctx context.Context, c *http.Client, url string) error {
	ctx, _ = context.WithTimeout(ctx, time.Second)                          // want "lostcancel"
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, url, nil) // want "idempotency"
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	defer resp.Body.Close() // want "httpresponse"
	if err != nil {         // want "breaker_cancel"
		cb.RecordFailure()
		return err
	}
	status := resp.StatusCode
	if status > 399 { // want "breaker_4xx"
		cb.RecordFailure()
		return errors.New(http.StatusText(status))
	}
	cb.RecordSuccess()
	return nil
}

func main() {
	c := &http.Client{Timeout: 2 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	wait := time.Duration(10) * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := send(ctx, c, "http://orders.invalid/1")
		if err == nil {
			break
		}
		if errors.Is(err, context.DeadlineExceeded) { // want "retry_canceled"
			continue
		}
		fmt.Println(err)
		time.Sleep(wait << attempt) // want "backoff_jitter" "backoff_overflow"
	}
}
