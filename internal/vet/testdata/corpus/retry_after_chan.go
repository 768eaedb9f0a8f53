package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

var client = &http.Client{} // want "client_timeout"

func get(ctx context.Context, url string) error {
	req, _ := http.NewRequest("GET", url, nil)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	if resp.StatusCode == 503 { // want "retry_after"
		return errors.New("unavailable") // want "body_close"
	}
	resp.Body.Close()
	return nil
}

func main() {
	ctx := context.Background()
	backoff := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := get(ctx, "http://svc.invalid")
		if err == nil {
			break
		}
		if errors.Is(err, context.Canceled) { // want "retry_canceled"
			continue
		}
		fmt.Println("attempt", attempt, err)
		<-time.After(backoff) // want "backoff_jitter"
		backoff = backoff * 2 // want "backoff_overflow"
	}
}
