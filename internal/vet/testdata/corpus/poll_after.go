package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

func poll(ctx context.Context, url string, jobs <-chan string) {
	for {
		select {
		case j := <-jobs:
			resp, err := http.Get(url + "/" + j) // want "default_client" "body_close"
			if err != nil {
				continue
			}
			fmt.Println(j, resp.StatusCode)
		case <-time.After(time.Second): // want "after_loop"
			fmt.Println("idle")
		}
	}
}

func worker(ctx context.Context, out chan<- int) {
	t := time.NewTicker(100 * time.Millisecond) // want "ticker_stop"
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			out <- i
		}
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	if ctx.Err() != nil {
		cancel()
		return
	}
	out := make(chan int, 100)
	go worker(ctx, out)
	jobs := make(chan string)
	go poll(ctx, "http://svc.invalid", jobs)
	for {
		select {
		case v := <-out:
			fmt.Println(v)
		case <-time.After(200 * time.Millisecond): // want "after_loop"
			return
		}
	}
}
