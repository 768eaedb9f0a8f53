package web

import (
	"errors"
	"net"
	"sync"
	"time"
)

// ErrNotOurs is Claim's error: the address the learner would be sent to reaches another server.
var ErrNotOurs = errors.New("the address reaches another server on this machine")

// claimWait bounds how long Claim waits for its own connection: a connection that reaches ln is in
// its queue as soon as it is made, so only one that went elsewhere waits this long.
const claimWait = 10 * time.Second

// Claim checks that a connection to the address the learner's browser is sent to (StartAddr of
// ln's address) arrives at ln, and returns the listener to serve on, which hands out first the other
// connections that arrived meanwhile. A port is not a user's own: where the system lets another
// user listen on a more specific address of the same port (a server of theirs on 127.0.0.1 while
// this one listens on every interface, as macOS and Windows allow), the browser would reach theirs,
// a page of the same origin that reads the token from the address. Claim then returns ErrNotOurs,
// and the command stops before it gives the address to anyone.
func Claim(ln *net.TCPListener) (net.Listener, error) {
	return claim(ln, StartAddr(ln.Addr().(*net.TCPAddr)), claimWait)
}

// claim checks that a connection to hostport arrives at ln within wait.
func claim(ln *net.TCPListener, hostport string, wait time.Duration) (net.Listener, error) {
	c, err := net.DialTimeout("tcp", hostport, wait)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	want, _ := c.LocalAddr().(*net.TCPAddr)
	if err := ln.SetDeadline(time.Now().Add(wait)); err != nil {
		return nil, err
	}
	defer ln.SetDeadline(time.Time{})
	var early []net.Conn
	for {
		a, err := ln.Accept()
		if err != nil {
			for _, e := range early {
				e.Close()
			}
			return nil, ErrNotOurs
		}
		if got, _ := a.RemoteAddr().(*net.TCPAddr); got != nil && want != nil && got.Port == want.Port && got.IP.Equal(want.IP) {
			a.Close()
			return &claimed{Listener: ln, early: early}, nil
		}
		early = append(early, a)
	}
}

// claimed is a listener that hands out the connections Claim accepted before its own first.
type claimed struct {
	net.Listener
	mu    sync.Mutex
	early []net.Conn
}

func (l *claimed) Accept() (net.Conn, error) {
	l.mu.Lock()
	if len(l.early) > 0 {
		c := l.early[0]
		l.early = l.early[1:]
		l.mu.Unlock()
		return c, nil
	}
	l.mu.Unlock()
	return l.Listener.Accept()
}
