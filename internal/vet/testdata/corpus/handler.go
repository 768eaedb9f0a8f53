package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

var backend = &http.Client{} // want "client_timeout"

func handle(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // want "background_ctx"
	defer cancel()
	resp, err := backend.Get("http://inventory.invalid/items")
	defer resp.Body.Close() // want "httpresponse"
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_ = ctx
	fmt.Fprintln(w, resp.StatusCode)
}

func report(ctx context.Context) {
	ctx2, _ := context.WithCancel(context.TODO()) // want "background_ctx" "lostcancel"
	<-ctx2.Done()
}

func main() {
	http.HandleFunc("/", handle)
	go report(context.Background())
	resp, err := http.Post("http://audit.invalid/start", "text/plain", nil) // want "default_client"
	if err == nil {
		resp.Body.Close()
	}
}
