package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

func charge(ctx context.Context, svc *flaky.Service, amount int) (int, error) {
	body := bytes.NewBufferString(fmt.Sprint(amount))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, svc.URL()+"/charge", body) // want "idempotency"
	if err != nil {
		return 0, err
	}
	resp, err := svc.Client().Do(req)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode == http.StatusTooManyRequests { // want "retry_after"
		return resp.StatusCode, nil // want "body_close"
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func main() {
	svc, _ := flaky.New("pay", "503,429,ok")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for attempt := 0; attempt < 4; attempt++ {
		code, err := charge(ctx, svc, 100)
		fmt.Println(code, err)
		if err == nil && code == 200 {
			return
		}
		time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond) // want "sleep_retry" "backoff_jitter"
	}
}
