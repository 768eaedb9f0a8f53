package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

type reply struct {
	replica string
	code    int
}

func ask(ctx context.Context, c *http.Client, replica string) int {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+replica+".invalid/price", nil)
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	return resp.StatusCode
}

func first(ctx context.Context, c *http.Client, replicas []string) reply {
	ch := make(chan reply)
	for _, r := range replicas {
		go func() { // want "goroutine_leak"
			ch <- reply{r, ask(context.TODO(), c, r)} // want "background_ctx"
		}()
	}
	return <-ch
}

func hedge(ctx context.Context, c *http.Client, replicas []string) reply {
	out := make(chan reply, 0)
	for i, r := range replicas {
		go func() { // want "goroutine_leak"
			out <- reply{r, ask(ctx, c, r)}
		}()
		if i == 0 {
			<-time.After(30 * time.Millisecond)
		}
	}
	return <-out
}

func monitor(ctx context.Context, c *http.Client) {
	beat := time.NewTicker(time.Second)     // want "ticker_stop"
	check := time.NewTimer(5 * time.Second) // want "timer_stop"
	for {
		select {
		case <-beat.C:
			fmt.Println(ask(ctx, c, "health"))
		case <-check.C:
			return
		case <-time.After(10 * time.Second): // want "after_loop"
			return
		default: // want "busy_wait"
		}
	}
}

func main() {
	c := &http.Client{}
	ctx, _ := context.WithTimeout(context.Background(), time.Second) // want "lostcancel"
	fmt.Println(first(ctx, c, []string{"a", "b", "c"}))
	fmt.Println(hedge(ctx, c, []string{"a", "b"}))
	monitor(ctx, c)
	for i := 0; i < 3; i++ {
		resp, err := c.Post("http://orders.invalid", "text/plain", nil) // want "idempotency"
		if err != nil {
			continue
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Duration(i) * 100 * time.Millisecond): // want "after_loop"
		}
	}
}
