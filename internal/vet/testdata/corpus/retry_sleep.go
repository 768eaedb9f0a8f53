package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

func fetch(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req) // want "default_client"
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

func retry(ctx context.Context, url string) (int, error) {
	delay := 100 * time.Millisecond
	var lastErr error
	for i := 0; i < 5; i++ {
		code, err := fetch(ctx, url)
		if err == nil && code < 500 {
			return code, nil
		}
		lastErr = err
		time.Sleep(delay) // want "sleep_retry" "backoff_jitter"
		delay *= 2
	}
	return 0, lastErr
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	fmt.Println(retry(ctx, "http://example.invalid"))
}
