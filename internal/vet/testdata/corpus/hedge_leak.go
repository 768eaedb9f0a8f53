package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

type result struct {
	code int
	err  error
}

func call(ctx context.Context, c *http.Client, url string) result {
	req, err := http.NewRequestWithContext(ctx, "POST", url, nil) // want "idempotency"
	if err != nil {
		return result{err: err}
	}
	resp, err := c.Do(req)
	if err != nil {
		return result{err: err}
	}
	resp.Body.Close()
	return result{code: resp.StatusCode}
}

func hedged(ctx context.Context, c *http.Client, url string) result {
	results := make(chan result)
	for i := 0; i < 3; i++ {
		go func() { // want "goroutine_leak"
			results <- call(context.Background(), c, url) // want "background_ctx"
		}()
	}
	return <-results
}

func main() {
	c := &http.Client{Timeout: time.Second}
	fmt.Println(hedged(context.Background(), c, "http://pay.invalid/charge"))
}
