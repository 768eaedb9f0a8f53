package main

import (
	"fmt"
	"time"
)

func main() {
	done := make(chan struct{})
	timer := time.NewTimer(time.Second) // want "timer_stop"
	go func() {
		time.Sleep(10 * time.Millisecond)
		close(done)
	}()
	spins := 0
	for {
		select {
		case <-done:
			fmt.Println("done after", spins, "spins")
			return
		case <-timer.C:
			fmt.Println("timeout")
			return
		default: // want "busy_wait"
			spins++
		}
	}
}
