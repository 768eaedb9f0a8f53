package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

type Breaker struct {
	failures int
	openedAt time.Time
}

func (b *Breaker) OnFailure() {
	b.failures++
	if b.failures == 3 {
		b.openedAt = time.Now()
	}
}

func call(ctx context.Context, svc *flaky.Service, br *Breaker) int {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, svc.URL(), nil)
	resp, err := svc.Client().Do(req)
	if err != nil { // want "breaker_cancel"
		br.OnFailure()
		return 0
	}
	defer resp.Body.Close()
	code := resp.StatusCode
	if code != 200 { // want "breaker_4xx"
		br.OnFailure()
	}
	switch code {
	case http.StatusServiceUnavailable: // want "retry_after"
		fmt.Println("unavailable, will retry")
	}
	return code
}

func main() {
	svc, _ := flaky.New("inventory", "503,404,ok")
	br := &Breaker{}
	ctx := context.Background()
	timeout := time.NewTimer(3 * time.Second) // want "timer_stop"
	delay := 20 * time.Millisecond
	for {
		select {
		case <-timeout.C:
			return
		default:
		}
		if call(ctx, svc, br) == 200 {
			return
		}
		time.Sleep(delay) // want "sleep_retry" "backoff_jitter"
		delay += delay    // want "backoff_overflow"
	}
}
