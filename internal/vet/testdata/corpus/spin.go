package main

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"time"
)

func main() {
	var done atomic.Bool
	results := make(chan int, 1)
	go func() {
		resp, err := http.Get("http://slow.invalid") // want "default_client"
		if err != nil {
			results <- 0
			return
		}
		results <- resp.StatusCode
		resp.Body.Close()
		done.Store(true)
	}()
	n := 0
	for {
		select {
		case code := <-results:
			fmt.Println(code, n)
			return
		default: // want "busy_wait"
			n++
		}
	}
	_ = time.Second
}
