package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
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

// TestServe starts `workbook serve` on a free loopback port outside any workspace, opens the index
// through it, and stops it the way Ctrl+C does.
func TestServe(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--lang", "bg"}, e) }()

	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/bg/\?token=[0-9a-f]{48}`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		url = urlRE.FindString(stdout.String())
	}
	if url == "" {
		t.Fatalf("no URL printed:\n%s\n%s", stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "нито напредъкът") {
		t.Errorf("outside a workspace serve does not say that nothing is kept:\n%s", stdout.String())
	}
	// Without the token printed to the learner, no page; with it, the browser keeps a cookie.
	base, _, _ := strings.Cut(url, "?")
	if resp, err := http.Get(base); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET %s without the token: %d, want 403", base, resp.StatusCode)
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `<html lang="bg">`) || resp.Request.URL.String() != base {
		t.Errorf("GET %s: %d at %s\n%.300s", url, resp.StatusCode, resp.Request.URL, body)
	}
	// A page asked for under another host name (DNS rebinding) is refused.
	req, _ := http.NewRequest("GET", url, nil)
	req.Host = "attacker.example" + url[len("http://127.0.0.1"):strings.LastIndex(url, "/bg/")]
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
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--lang", "ru"}, e) }()
	defer func() {
		cancel()
		<-done
	}()

	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/ru/\?token=[0-9a-f]{48}`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		url = urlRE.FindString(stdout.String())
	}
	if url == "" {
		t.Fatalf("no URL printed:\n%s\n%s", stdout.String(), stderr.String())
	}
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
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	base, _, _ := strings.Cut(url, "?")
	resp, err := client.Get(base + "exercises/exercise-deadline?" + strings.SplitN(url, "?", 2)[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "моя версия, из my/") {
		t.Errorf("GET the exercise page: %d, without the learner's copy:\n%.500s", resp.StatusCode, body)
	}
}
