package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

type Breaker struct {
	failures int
	open     bool
}

func (b *Breaker) Fail() {
	b.failures++
	if b.failures >= 3 {
		b.open = true
	}
}

func (b *Breaker) Success() { b.failures = 0 }

type client struct {
	http *http.Client
	br   *Breaker
}

func (c *client) do(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil { // want "breaker_cancel"
		c.br.Fail()
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 { // want "breaker_4xx"
		c.br.Fail()
		return resp.StatusCode, nil
	}
	c.br.Success()
	return resp.StatusCode, nil
}

func main() {
	c := &client{http: &http.Client{Timeout: time.Second}, br: &Breaker{}}
	ticker := time.NewTicker(100 * time.Millisecond) // want "ticker_stop"
	for i := 0; i < 5; i++ {
		<-ticker.C
		fmt.Println(c.do(context.Background(), "http://svc.invalid"))
	}
}
