package web

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestStartURL(t *testing.T) {
	s, _ := newTestServer(t, false)
	for _, tc := range []struct{ host, want string }{
		{"127.0.0.1", "http://127.0.0.1:8080/ru/?token=" + s.Token()},
		{"", "http://127.0.0.1:8080/ru/?token=" + s.Token()},
		{"0.0.0.0", "http://127.0.0.1:8080/ru/?token=" + s.Token()},
		{"::1", "http://[::1]:8080/ru/?token=" + s.Token()},
		{"192.168.1.5", "http://192.168.1.5:8080/ru/?token=" + s.Token()},
	} {
		if got := s.StartURL(tc.host, "8080", "ru"); got != tc.want {
			t.Errorf("StartURL(%q) = %q, want %q", tc.host, got, tc.want)
		}
	}
}

// TestServeUntilDone: Serve answers until its context ends, then returns nil.
func TestServeUntilDone(t *testing.T) {
	s, _ := newTestServer(t, false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v after its context ended, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
}
