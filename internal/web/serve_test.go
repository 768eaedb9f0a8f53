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

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/workspace"
)

// TestStartURL: the address given to the learner names the address listened on, never a name that
// a browser may take elsewhere (localhost to ::1, where another user may listen on the same port).
func TestStartURL(t *testing.T) {
	s, _ := newTestServer(t, false)
	for _, tc := range []struct {
		ip   string
		want string
	}{
		{"127.0.0.1", "http://127.0.0.1:8080/ru/#token=" + s.Token()},
		{"", "http://127.0.0.1:8080/ru/#token=" + s.Token()},
		{"0.0.0.0", "http://127.0.0.1:8080/ru/#token=" + s.Token()},
		{"::", "http://127.0.0.1:8080/ru/#token=" + s.Token()},
		{"::1", "http://[::1]:8080/ru/#token=" + s.Token()},
		{"127.0.0.2", "http://127.0.0.2:8080/ru/#token=" + s.Token()},
		{"192.168.1.5", "http://192.168.1.5:8080/ru/#token=" + s.Token()},
	} {
		if got := s.StartURL(&net.TCPAddr{IP: net.ParseIP(tc.ip), Port: 8080}, "/ru/", ""); got != tc.want {
			t.Errorf("StartURL(%q) = %q, want %q", tc.ip, got, tc.want)
		}
	}
}

// TestStartPage: the page serve is asked to open is a path of the server, with or without the
// anchor of a heading or a chart; nothing that leads elsewhere.
func TestStartPage(t *testing.T) {
	s, _ := newTestServer(t, false)
	at := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	for _, tc := range []struct{ page, want string }{
		{"/ru/lessons/slow-neighbour#chart-2", "http://127.0.0.1:8080/ru/lessons/slow-neighbour#token=" + s.Token() + "&at=chart-2"},
		{"/bg/exercises/exercise-retry", "http://127.0.0.1:8080/bg/exercises/exercise-retry#token=" + s.Token()},
		{"/ru/lessons/x#заголовок", "http://127.0.0.1:8080/ru/lessons/x#token=" + s.Token() + "&at=заголовок"},
		{"http://evil.example/ru/", ""},
		{"//evil.example/ru/", ""},
		{"ru/lessons/x", ""},
		{"/ru/?token=1", ""},
		{"/ru/#token=abc", ""},
		{"/ru/#a&at=b", ""},
		{"/ru/#\"><script>", ""},
	} {
		path, anchor, ok := StartPage(tc.page)
		got := ""
		if ok {
			got = s.StartURL(at, path, anchor)
		}
		if got != tc.want {
			t.Errorf("StartPage(%q): %q, want %q", tc.page, got, tc.want)
		}
	}
}

// TestClaim: serving starts only where a connection to the address given to the learner arrives at
// the server's own listener. Where it arrives at another (another user's server on a more specific
// address of the same port, which macOS and Windows allow), Claim refuses; the connections that
// arrived meanwhile are served, none is lost.
func TestClaim(t *testing.T) {
	listen := func() *net.TCPListener {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		return ln.(*net.TCPListener)
	}
	ours, theirs := listen(), listen()
	if _, err := claim(ours, theirs.Addr().String(), 100*time.Millisecond); !errors.Is(err, ErrNotOurs) {
		t.Errorf("claim through another server's address: %v, want ErrNotOurs", err)
	}
	early, err := net.Dial("tcp", ours.Addr().String()) // a browser's tab, restored before the claim
	if err != nil {
		t.Fatal(err)
	}
	defer early.Close()
	served, err := Claim(ours)
	if err != nil {
		t.Fatalf("Claim of our own address: %v", err)
	}
	c, err := served.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.RemoteAddr().String() != early.LocalAddr().String() {
		t.Errorf("the first connection served comes from %s, want the one made before the claim, %s", c.RemoteAddr(), early.LocalAddr())
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
	url := s.StartURL(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "/ru/", "")
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

// TestChartNoteRunnable: the command a terminal lesson gives for a chart is written as every command
// the tool suggests, through the printer's rewrite: in a clone, where no workbook is installed, it is
// `go run ./cmd/workbook serve --open …`, which runs there; a bare `workbook serve` would be "command
// not found".
func TestChartNoteRunnable(t *testing.T) {
	c := course.New(workbook.Content())
	l, _, _, err := c.Lesson("slow-neighbour", "ru")
	if err != nil {
		t.Fatal(err)
	}
	inClone := func(s string) string {
		return workspace.Runnable("go run ./cmd/workbook", []string{"lesson", "serve"}, s)
	}
	for _, tc := range []struct {
		name string
		p    *i18n.Printer
		want string
	}{
		{"installed", i18n.New("ru"), "\nworkbook serve --open /ru/lessons/slow-neighbour#chart-"},
		{"clone", i18n.New("ru").Rewriting(inClone), "\ngo run ./cmd/workbook serve --open /ru/lessons/slow-neighbour#chart-"},
	} {
		notes := 0
		for _, b := range l.Blocks {
			note := ChartNote(l, "slow-neighbour", b, tc.p)
			if note == "" {
				continue
			}
			notes++
			if !strings.Contains(note, tc.want) {
				t.Errorf("%s: the note gives no command %q:\n%s", tc.name, tc.want, note)
			}
		}
		if notes == 0 {
			t.Fatalf("%s: the lesson has no chart note", tc.name)
		}
	}
}
