package web

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStartURL(t *testing.T) {
	s, _ := newTestServer(t, false)
	for _, tc := range []struct{ host, want string }{
		{"127.0.0.1", "http://127.0.0.1:8080/ru/#token=" + s.Token()},
		{"", "http://127.0.0.1:8080/ru/#token=" + s.Token()},
		{"0.0.0.0", "http://127.0.0.1:8080/ru/#token=" + s.Token()},
		{"::1", "http://[::1]:8080/ru/#token=" + s.Token()},
		{"192.168.1.5", "http://192.168.1.5:8080/ru/#token=" + s.Token()},
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

// TestOpenFile: the file that `serve --open` hands the browser forwards it to the address with the
// token, and only its owner may read it; the command that opens it names the file, never the token.
func TestOpenFile(t *testing.T) {
	s, _ := newTestServer(t, false)
	url := s.StartURL("127.0.0.1", "8080", "ru")
	file, remove, err := OpenFile(t.TempDir(), url)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want os.FileMode
	}{{file, 0o600}, {filepath.Dir(file), 0o700 | os.ModeDir}} {
		fi, err := os.Lstat(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != tc.want {
			t.Errorf("%s: mode %v, want %v", tc.path, fi.Mode(), tc.want)
		}
	}
	page, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<meta http-equiv="refresh" content="0; url=` + url + `">`, `<meta name="referrer" content="no-referrer">`, `href="` + url + `"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the file has no %s:\n%s", want, page)
		}
	}
	argv := OpenCommand(file)
	if argv[len(argv)-1] != file {
		t.Errorf("OpenCommand(%s) = %q, want the file last", file, argv)
	}
	for _, a := range argv {
		if strings.Contains(a, s.Token()) {
			t.Errorf("OpenCommand(%s) = %q: the token is in the arguments", file, argv)
		}
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(file)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after remove, %s: %v, want it gone", filepath.Dir(file), err)
	}
}

// TestOpenDir: the file of --open goes to the learner's workspace when it is the learner's alone,
// else to workbook's folder in the user's cache folder.
func TestOpenDir(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", t.TempDir())
	mine := t.TempDir()
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ root, want string }{
		{mine, mine},
		{"", filepath.Join(cache, "workbook")},
		{shared, filepath.Join(cache, "workbook")},
		{filepath.Join(mine, "missing"), filepath.Join(cache, "workbook")},
	} {
		if got := OpenDir(tc.root); got != tc.want {
			t.Errorf("OpenDir(%q) = %q, want %q", tc.root, got, tc.want)
		}
	}
}
