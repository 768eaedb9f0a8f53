// Package flaky is the course's flaky HTTP service for programs that run in virtual time: a
// dependency to be resilient against, reached through a real net/http client over an in-memory
// network, whose answers, latencies and outages come from a script the case gives as an argument.
// A virtual-time program imports it as "github.com/workbook-course/workbook/checker/flaky": the
// checker and `workbook run` build this one file into the program as a module of its own (the
// learner's go.mod names only its module and go version), and in the course's own tree it is an
// ordinary package of the module.
//
//	svc, err := flaky.New("pay", "503@120ms,timeout,ok@40ms")
//	client := svc.Client()                         // an *http.Client with no timeout of its own
//	req, _ := http.NewRequestWithContext(ctx, "GET", svc.URL()+"/charge", nil)
//	resp, err := client.Do(req)                    // 503 after 120 ms of (virtual) time
//
// # Scripts
//
// A script is a comma-separated list of answers, one per call, in order; once it is used up every
// further call gets its last answer again. An answer is
//
//	CODE[@LATENCY][/RETRY-AFTER]   an HTTP status (200 to 599) after LATENCY (default 0), with a
//	                               Retry-After header of RETRY-AFTER whole seconds ("503@10ms/2s")
//	ok[@LATENCY]                   the same as 200
//	timeout                        no answer at all: the call hangs until the client gives up
//	                               (its context ends, or http.Client.Timeout)
//
// LATENCY is a Go duration ("120ms", "1.5s"). The body of an answer is one line: "NAME: CODE TEXT,
// call N", e.g. "pay: 503 Service Unavailable, call 1".
//
// # In a synctest bubble
//
// Everything the service does is durably blocking (channels, net.Pipe, timers): inside a
// testing/synctest bubble the clock moves on while a call waits, so a latency of two minutes costs
// nothing. Every connection answers one request and closes (Connection: close), so no idle
// connection is left in the client's pool; a response body that is never closed keeps the client's
// goroutines waiting, which the checker reports as goroutines left blocked.
package flaky

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing/synctest"
	"time"
)

// Answer is one scripted answer.
type Answer struct {
	Status     int           // the HTTP status; 0 for Timeout
	Latency    time.Duration // how long the service takes before it answers
	RetryAfter time.Duration // the Retry-After header, in whole seconds; 0 for none
	Timeout    bool          // no answer: the call waits until the client gives up
}

// String writes the answer in the script's syntax.
func (a Answer) String() string {
	if a.Timeout {
		return "timeout"
	}
	s := strconv.Itoa(a.Status)
	if a.Latency > 0 {
		s += "@" + a.Latency.String()
	}
	if a.RetryAfter > 0 {
		s += "/" + a.RetryAfter.String()
	}
	return s
}

// Parse reads a script (see the package doc).
func Parse(script string) ([]Answer, error) {
	if strings.TrimSpace(script) == "" {
		return nil, errors.New("flaky: empty script")
	}
	var out []Answer
	for i, tok := range strings.Split(script, ",") {
		a, err := parseAnswer(strings.TrimSpace(tok))
		if err != nil {
			return nil, fmt.Errorf("flaky: answer %d %q: %v", i+1, tok, err)
		}
		out = append(out, a)
	}
	return out, nil
}

func parseAnswer(tok string) (Answer, error) {
	if tok == "timeout" {
		return Answer{Timeout: true}, nil
	}
	var a Answer
	code, rest, hasRA := strings.Cut(tok, "/")
	if hasRA {
		d, err := time.ParseDuration(rest)
		if err != nil || d <= 0 || d%time.Second != 0 {
			return a, errors.New("Retry-After must be whole seconds, e.g. /2s")
		}
		a.RetryAfter = d
	}
	code, lat, hasLat := strings.Cut(code, "@")
	if hasLat {
		d, err := time.ParseDuration(lat)
		if err != nil || d < 0 {
			return a, errors.New("the latency must be a duration, e.g. @120ms")
		}
		a.Latency = d
	}
	if code == "ok" {
		a.Status = http.StatusOK
		return a, nil
	}
	n, err := strconv.Atoi(code)
	if err != nil || n < 200 || n > 599 {
		return a, errors.New("want ok, timeout or an HTTP status from 200 to 599")
	}
	a.Status = n
	return a, nil
}

// Service is one flaky HTTP service. Its methods may be called from many goroutines.
type Service struct {
	name    string
	answers []Answer
	mu      sync.Mutex
	calls   int
	log     []Call
}

// Call is what the service saw of one call: when it came (the bubble's clock), what it answered,
// and whether the client gave up first.
type Call struct {
	N        int
	At       time.Time
	Answer   Answer
	Deadline time.Duration // the X-Deadline header the call carried (see Deadline), 0 for none
	GaveUp   bool          // the client closed the connection before the answer
}

// New makes the service name (a host name: letters, digits and '-') that plays script.
func New(name, script string) (*Service, error) {
	if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		return nil, fmt.Errorf("flaky: bad service name %q", name)
	}
	answers, err := Parse(script)
	if err != nil {
		return nil, err
	}
	return &Service{name: name, answers: answers}, nil
}

// Name returns the service's name.
func (s *Service) Name() string { return s.name }

// URL returns the service's base URL, "http://NAME".
func (s *Service) URL() string { return "http://" + s.name }

// Calls returns how many calls the service has had.
func (s *Service) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// Log returns what the service saw of every call so far, in order.
func (s *Service) Log() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.log...)
}

// Transport returns the RoundTripper whose every connection, to any address, reaches the service
// in memory: an *http.Transport, or inside a testing/synctest bubble the same wrapped so that
// errors read as real Go writes them (see roundTripper). Make it inside the bubble that uses it.
func (s *Service) Transport() http.RoundTripper {
	t := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			client, server := net.Pipe()
			go s.serve(server)
			return client, nil
		},
		DisableKeepAlives: true,
	}
	if !inBubble() {
		return t
	}
	return &roundTripper{inner: t}
}

// inBubble says whether the caller runs in a testing/synctest bubble: its clock has no monotonic
// reading there, and time.Time's String names the monotonic reading ("m=+0.001") when there is one.
func inBubble() bool { return !strings.Contains(time.Now().String(), " m=") }

// roundTripper is the service's transport inside a bubble. http.Client decides whether a call
// failed by its own Timeout with time.Now().After(deadline) when the transport is an
// *http.Transport; on the bubble's clock the call fails exactly at the deadline, never after it, so
// real net/http's "(Client.Timeout exceeded while awaiting headers)" would be missing. Any other
// RoundTripper makes the client arm a timer of its own, which marks the timeout when it fires: at
// the very instant the request's context ends. roundTripper is such a transport; after a call that
// failed on its context's deadline it lets whatever else may run at that instant (the client's
// timer among it) run before it answers, so the client sees its timeout as real Go does. The
// client's cancellation channel (Request.Cancel, which it sets for such transports) is not passed
// on: the request's context says all the inner transport needs, in the words of real Go.
type roundTripper struct{ inner *http.Transport }

func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Cancel == nil {
		return rt.inner.RoundTrip(req)
	}
	own := req.WithContext(req.Context())
	own.Cancel = nil
	resp, err := rt.inner.RoundTrip(own)
	if err != nil {
		if errors.Is(req.Context().Err(), context.DeadlineExceeded) {
			settle()
		}
		return nil, err
	}
	resp.Request = req
	return resp, nil
}

// settling orders the goroutines that settle at once: synctest.Wait may not be called by two of
// them together, and the first one's wait lets the others' timers run as well.
var settling struct {
	sync.Mutex
	busy   bool
	queued []chan struct{}
}

// settle returns once every other goroutine of the bubble is durably blocked: what could still run
// at this instant of virtual time has run, and the clock has not moved.
func settle() {
	settling.Lock()
	if settling.busy {
		done := make(chan struct{})
		settling.queued = append(settling.queued, done)
		settling.Unlock()
		<-done
		return
	}
	settling.busy = true
	settling.Unlock()
	func() {
		defer func() { recover() }() // another Wait (the checker's own) in progress: nothing to add
		synctest.Wait()
	}()
	settling.Lock()
	for _, done := range settling.queued {
		close(done)
	}
	settling.queued, settling.busy = nil, false
	settling.Unlock()
}

// Client returns an http.Client over Transport, with no timeout of its own: the request's context,
// or a Timeout the caller sets, bounds a call.
func (s *Service) Client() *http.Client { return &http.Client{Transport: s.Transport()} }

// DeadlineHeader is the header in which a caller may pass on how much time its call has left, in
// milliseconds (see Deadline): what a service in a chain gets from its caller.
const DeadlineHeader = "X-Deadline-Ms"

// Deadline sets on req the header DeadlineHeader from the deadline of ctx (the time left, whole
// milliseconds, at least 0); without a deadline it sets nothing.
func Deadline(ctx context.Context, req *http.Request) {
	if d, ok := ctx.Deadline(); ok {
		left := max(time.Until(d), 0)
		req.Header.Set(DeadlineHeader, strconv.FormatInt(left.Milliseconds(), 10))
	}
}

// next takes the next answer and records the call.
func (s *Service) next(req *http.Request) (int, Answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.answers[min(s.calls, len(s.answers)-1)]
	s.calls++
	c := Call{N: s.calls, At: time.Now(), Answer: a}
	if ms, err := strconv.ParseInt(req.Header.Get(DeadlineHeader), 10, 64); err == nil {
		c.Deadline = time.Duration(ms) * time.Millisecond
	}
	s.log = append(s.log, c)
	return s.calls, a
}

func (s *Service) gaveUp(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log[n-1].GaveUp = true
}

// serve answers one request on conn and closes it. It stops waiting as soon as the client closes
// the connection.
func (s *Service) serve(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	io.Copy(io.Discard, req.Body)
	req.Body.Close()
	n, a := s.next(req)
	closed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, br) // returns when the client closes its end
		close(closed)
	}()
	if a.Timeout {
		<-closed
		s.gaveUp(n)
		return
	}
	t := time.NewTimer(a.Latency)
	defer t.Stop()
	select {
	case <-closed:
		s.gaveUp(n)
		return
	case <-t.C:
	}
	body := fmt.Sprintf("%s: %d %s, call %d\n", s.name, a.Status, http.StatusText(a.Status), n)
	resp := &http.Response{
		StatusCode:    a.Status,
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)),
		Close:         true,
		Request:       req,
	}
	if a.RetryAfter > 0 {
		resp.Header.Set("Retry-After", strconv.Itoa(int(a.RetryAfter/time.Second)))
	}
	if resp.Write(conn) != nil {
		s.gaveUp(n)
	}
	conn.Close()
	<-closed
}
