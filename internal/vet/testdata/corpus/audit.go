package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

func audit(ctx context.Context, c *http.Client, event string) {
	tctx, _ := context.WithTimeout(ctx, time.Second) // want "lostcancel"
	req, _ := http.NewRequestWithContext(tctx, "GET", "http://audit.invalid/"+event, nil)
	resp, err := c.Do(req)
	defer resp.Body.Close() // want "httpresponse"
	if err != nil {
		return
	}
	fmt.Println(event, resp.StatusCode)
}

func main() {
	c := &http.Client{Timeout: time.Second}
	audit(context.Background(), c, "start")
}
