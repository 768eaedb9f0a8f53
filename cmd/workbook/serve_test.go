package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workbook-course/workbook/internal/web"
)

// lockedBuffer is a bytes.Buffer safe to read while the command writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// servedPage asks the server at base (http://host:port) for the content of the page at path, as
// the page's script does: POST /api/page with the token in its header.
func servedPage(t *testing.T, base, token, path string) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"lang": path[1:3], "path": path})
	req, _ := http.NewRequest("POST", base+"/api/page", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", base)
	if token != "" {
		req.Header.Set(web.TokenHeader, token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct{ HTML, Footer string }
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, reply.HTML + reply.Footer
}

// TestServe starts `workbook serve --open` on a free loopback port outside any workspace, with an
// opener that only notes what it was asked to start; opens the index as the browser does; and stops
// it the way Ctrl+C does. The opener's arguments, which every user of the machine can read, name a
// file only the learner can read, never the token; the file is gone once serve has stopped.
func TestServe(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	started := make(chan []string, 1)
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" },
		opener: func(argv []string) error { started <- argv; return nil }}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--lang", "bg", "--open"}, e) }()

	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/bg/#token=([0-9a-f]{48})`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		m = urlRE.FindStringSubmatch(stdout.String())
	}
	if m == nil {
		t.Fatalf("no URL printed:\n%s\n%s", stdout.String(), stderr.String())
	}
	url, token := m[0], m[1]
	base := url[:strings.Index(url, "/bg/")]
	if !strings.Contains(stdout.String(), "нито напредъкът") {
		t.Errorf("outside a workspace serve does not say that nothing is kept:\n%s", stdout.String())
	}

	// --open: the file, not the address.
	var argv []string
	select {
	case argv = <-started:
	case <-time.After(10 * time.Second):
		t.Fatalf("--open started nothing:\n%s", stderr.String())
	}
	for _, a := range argv {
		if strings.Contains(a, token) {
			t.Errorf("the opener's arguments %q carry the token", argv)
		}
	}
	file := argv[len(argv)-1]
	for _, tc := range []struct {
		path string
		want os.FileMode
	}{{file, 0o600}, {filepath.Dir(file), 0o700 | os.ModeDir}} {
		if fi, err := os.Lstat(tc.path); err != nil || fi.Mode() != tc.want {
			t.Errorf("%s: %v, want mode %v", tc.path, err, tc.want)
		}
	}
	if page, err := os.ReadFile(file); err != nil || !strings.Contains(string(page), `url=`+url+`"`) {
		t.Errorf("the file %s does not lead to %s (%v):\n%s", file, url, err, page)
	}

	// The page's address gives its shell to anyone, and nothing else; the content needs the token.
	resp, err := http.Get(base + "/bg/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `<html lang="bg">`) || strings.Contains(string(body), `class="group"`) || len(resp.Cookies()) != 0 {
		t.Errorf("GET %s/bg/: %d, cookies %v\n%.300s", base, resp.StatusCode, resp.Cookies(), body)
	}
	if code, _ := servedPage(t, base, "", "/bg/"); code != http.StatusForbidden {
		t.Errorf("the content without the token: %d, want 403", code)
	}
	if code, page := servedPage(t, base, token, "/bg/"); code != 200 || !strings.Contains(page, `class="group"`) {
		t.Errorf("the content with the token: %d\n%.300s", code, page)
	}
	// A page asked for under another host name (DNS rebinding) is refused.
	req, _ := http.NewRequest("GET", base+"/bg/", nil)
	req.Host = "attacker.example" + base[len("http://127.0.0.1"):]
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Error(err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET with Host %s: %d, want 403", req.Host, resp.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d after interrupt; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	if !strings.Contains(stdout.String(), "Спряно.") {
		t.Errorf("no goodbye:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Dir(file)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after serve stopped, %s: %v, want it gone", filepath.Dir(file), err)
	}
}

// TestServeClone starts `workbook serve` in a fresh clone: it makes the clone's workspace my/ like
// any other command, and the exercise page shows the learner's copy there, not the course's file.
func TestServeClone(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	if err := os.MkdirAll(filepath.Join(root, "exercises"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module github.com/workbook-course/workbook\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	started := make(chan []string, 1)
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" },
		opener: func(argv []string) error { started <- argv; return nil }}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--lang", "ru", "--open"}, e) }()
	defer func() {
		cancel()
		<-done
	}()

	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/ru/#token=([0-9a-f]{48})`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		m = urlRE.FindStringSubmatch(stdout.String())
	}
	if m == nil {
		t.Fatalf("no URL printed:\n%s\n%s", stdout.String(), stderr.String())
	}
	base, token := m[0][:strings.Index(m[0], "/ru/")], m[1]
	my := filepath.Join(root, "my")
	if !strings.Contains(stdout.String(), my) {
		t.Errorf("serve does not name the workspace %s:\n%s", my, stdout.String())
	}
	if !strings.Contains(stderr.String(), "создана ваша рабочая папка my") {
		t.Errorf("serve does not say it made the workspace:\n%s", stderr.String())
	}
	mine := "package main\n\n// моя версия, из my/\nfunc main() {}\n"
	if err := os.WriteFile(filepath.Join(my, "ru", "exercise-deadline", "main.go"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, page := servedPage(t, base, token, "/ru/exercises/exercise-deadline"); code != 200 || !strings.Contains(page, "моя версия, из my/") {
		t.Errorf("the exercise page: %d, without the learner's copy:\n%.500s", code, page)
	}
	// --open keeps its file in the workspace, where a browser confined to the home folder's
	// visible folders (a snap) may read it.
	select {
	case argv := <-started:
		if file := argv[len(argv)-1]; filepath.Dir(filepath.Dir(file)) != my {
			t.Errorf("--open's file %s is not in the workspace %s", file, my)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("--open started nothing:\n%s", stderr.String())
	}
}

// TestServeByName: `serve --addr localhost:PORT` while another user of the machine listens on
// [::1]:PORT. The server listens on one address of the name, and the address it gives names that
// address, not localhost, which a browser may take to ::1 first: to the other user's server, whose
// page there would be of the same origin as the course's and read the token from the address.
func TestServeByName(t *testing.T) {
	theirs, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	defer theirs.Close()
	go http.Serve(theirs, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"html":"their page"}`)
	}))
	port := strconv.Itoa(theirs.Addr().(*net.TCPAddr).Port)
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", "localhost:" + port, "--lang", "ru"}, e) }()
	defer func() {
		cancel()
		<-done
	}()
	urlRE := regexp.MustCompile(`(http://\S+:` + port + `)/ru/#token=([0-9a-f]{48})`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		m = urlRE.FindStringSubmatch(stdout.String())
	}
	if m == nil {
		t.Fatalf("no URL printed:\n%s\n%s", stdout.String(), stderr.String())
	}
	if strings.Contains(m[1], "localhost") {
		t.Errorf("the address given is %s: a name, which the browser may take to another user's server", m[0])
	}
	if code, page := servedPage(t, m[1], m[2], "/ru/"); code != 200 || !strings.Contains(page, `class="group"`) {
		t.Errorf("the address given reaches another server: %d %.100s", code, page)
	}
}

// TestServeDefaultPage: `serve --open PAGE` with the default address, twice at once. Each listens on
// a port of its own, which the system chose (no fixed port, where another user's server may have
// answered this browser before), and its file leads to the page asked for, the chart's anchor after
// the token.
func TestServeDefaultPage(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	var running sync.WaitGroup
	defer func() {
		cancel()
		running.Wait()
	}()
	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:(\d+)/ru/lessons/slow-neighbour#token=[0-9a-f]{48}&at=chart-2`)
	ports := map[string]bool{}
	for range 2 {
		var stdout, stderr lockedBuffer
		started := make(chan []string, 1)
		e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" },
			opener: func(argv []string) error { started <- argv; return nil }}
		running.Go(func() { run(ctx, []string{"serve", "--open", "--lang", "ru", "/ru/lessons/slow-neighbour#chart-2"}, e) })
		var argv []string
		select {
		case argv = <-started:
		case <-time.After(10 * time.Second):
			t.Fatalf("--open started nothing:\n%s\n%s", stdout.String(), stderr.String())
		}
		m := urlRE.FindStringSubmatch(stdout.String())
		if m == nil {
			t.Fatalf("no address of the page printed:\n%s\n%s", stdout.String(), stderr.String())
		}
		if page, err := os.ReadFile(argv[len(argv)-1]); err != nil || !strings.Contains(string(page), `url=`+html.EscapeString(m[0])+`"`) {
			t.Errorf("the file does not lead to %s (%v):\n%s", m[0], err, page)
		}
		ports[m[1]] = true
	}
	if len(ports) != 2 {
		t.Errorf("two serves with the default address listen on %v", ports)
	}
}
