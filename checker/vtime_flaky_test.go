package checker

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clientTimeoutProgram calls the flaky service, which never answers, with http.Client.Timeout
// alone, with a context that ends first, with one that ends later, and twice at once; it prints what
// each call returned. Its output is the same in real time and in virtual time.
const clientTimeoutProgram = `package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

func call(c *http.Client, url string, budget time.Duration) string {
	ctx := context.Background()
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Sprintf("%v; deadline %v", err, errors.Is(err, context.DeadlineExceeded))
	}
	resp.Body.Close()
	return resp.Status
}

func main() {
	svc, _ := flaky.New("pay", "timeout")
	c := &http.Client{Transport: svc.Transport(), Timeout: 200 * time.Millisecond}
	fmt.Println("client alone:", call(c, svc.URL(), 0))
	fmt.Println("context first:", call(c, svc.URL(), 20*time.Millisecond))
	fmt.Println("client first:", call(c, svc.URL(), 2*time.Second))
	var wg sync.WaitGroup
	got := make([]string, 2)
	for i := range got {
		wg.Go(func() { got[i] = call(c, svc.URL()+"/"+fmt.Sprint(i), 0) })
	}
	wg.Wait()
	fmt.Println("together:", got[0], "|", got[1])
	ok, _ := flaky.New("pay", "ok@50ms")
	c2 := ok.Client()
	c2.Timeout = 200 * time.Millisecond
	fmt.Println("in time:", call(c2, ok.URL(), 0))
}
`

// TestVirtualClientTimeout: inside the bubble, a call that http.Client.Timeout ends reads as real
// net/http writes it, "(Client.Timeout exceeded while awaiting headers)" included (on the bubble's
// clock the call ends exactly at the client's deadline, where real time is always a little past
// it), and a call that its context ends first does not. The same program in real time prints the
// same lines.
func TestVirtualClientTimeout(t *testing.T) {
	const timeout = `context deadline exceeded (Client.Timeout exceeded while awaiting headers); deadline true`
	want := "client alone: Get \"http://pay\": " + timeout + "\n" +
		"context first: Get \"http://pay\": context deadline exceeded; deadline true\n" +
		"client first: Get \"http://pay\": " + timeout + "\n" +
		"together: Get \"http://pay/0\": " + timeout + " | Get \"http://pay/1\": " + timeout + "\n" +
		"in time: 200 OK\n"
	virtual := buildVirtual(t, clientTimeoutProgram)
	for i := 0; i < 3; i++ { // the same every time: nothing depends on which goroutine runs first
		out := virtual.Run(context.Background(), "", nil, "")
		if out.Status != Pass || out.Stdout != want {
			t.Fatalf("virtual time, run %d: %s\n%s\nwant\n%s\nstderr:\n%s", i+1, out.Status, out.Stdout, want, out.Stderr)
		}
	}
	if testing.Short() {
		return
	}
	// Real time: the flaky service is an ordinary package of the course there, so the program is
	// built as a plain program of this module.
	dir, err := os.MkdirTemp(filepath.Join("..", "checker"), "zz-clienttimeout-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(clientTimeoutProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "run", ".")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	real := string(b)
	if err != nil {
		t.Fatalf("go run in real time: %v\n%s%s", err, real, stderr.String())
	}
	if real != want {
		t.Errorf("real time printed\n%s\nwant\n%s", real, want)
	}
	if !strings.Contains(real, "Client.Timeout exceeded") {
		t.Errorf("real net/http no longer says Client.Timeout: the program needs another look")
	}
}
