package web

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// DefaultAddr is where `workbook serve` listens unless told otherwise: loopback only, on a port the
// system chooses, a new one at every start. A browser trusts an origin (scheme, host and port), and
// a port is not a user's own: while no server of the learner's holds a fixed port, another user of
// the machine may, and a page of theirs that the learner's browser opens there (an address of the
// course kept from before) may leave in the browser what serves the origin's later pages itself (a
// service worker), and so read the token of the learner's next session on that port. A port new
// at each start is an origin no page of anyone has been at before, as far as anyone can arrange.
const DefaultAddr = "127.0.0.1:0"

// Serve serves s on ln until ctx ends, then shuts down, giving the requests under way five seconds.
// It returns nil once ctx has ended, or the error that stopped serving before.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(stop)
	return nil
}

// StartURL is the address of the page at path (/ru/, /ru/lessons/slow-neighbour) on the server
// listening on addr (its listener's address), with the session token in its fragment
// (#token=…, and &at=anchor to go on to a heading or a chart of the page): the one address the
// learner is given. Its host is the address listened on, never a name: a browser may take a name
// such as localhost to another address (::1 before 127.0.0.1), where another user of the machine
// may listen on the same port, and a page of theirs there would be of the same origin and read the
// token from the address. An unspecified address (every interface) is reached on 127.0.0.1, and
// Claim checks that it reaches this server. A browser never sends a fragment to a server, so the
// token is in no request line, no server's log and no Referer; the page takes it from there and
// drops it from the address and the history (app.js).
func (s *Server) StartURL(addr *net.TCPAddr, path, anchor string) string {
	u := "http://" + StartAddr(addr) + path + "#token=" + s.Token()
	if anchor != "" {
		u += "&at=" + anchor
	}
	return u
}

// StartPage reads the page `serve` is asked to open, an address's path with or without the
// anchor of a heading or a chart (/ru/lessons/slow-neighbour#chart-2), as ChartNote prints it.
func StartPage(page string) (path, anchor string, ok bool) {
	u, err := url.Parse(page)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.RawQuery != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return "", "", false
	}
	if u.Fragment != "" && !anchorRE.MatchString(u.Fragment) {
		return "", "", false
	}
	return u.EscapedPath(), u.Fragment, true
}

// anchorRE is what an anchor of a page may be: the ids of headings and charts.
var anchorRE = regexp.MustCompile(`^[\p{L}\p{N}_-]+$`)

// StartAddr is the host and port of StartURL for a server listening on addr.
func StartAddr(addr *net.TCPAddr) string {
	host := "127.0.0.1"
	if addr.IP != nil && !addr.IP.IsUnspecified() {
		host = addr.IP.String()
	}
	return net.JoinHostPort(host, strconv.Itoa(addr.Port))
}

// OpenFile writes the page that forwards a browser to url (the address with the token) into a new
// folder under dir that only this user may enter (0700), as a file only this user may read (0600),
// and returns its path and what removes the folder. `serve --open` hands the browser this file, not
// the address: every user of the machine can read the arguments of every process (/proc), the
// arguments of the opener and of the browser it starts included, and a one-time address there
// would be theirs as soon as they read it first; the file's name is no secret, its content is the
// learner's (and root's) alone.
func OpenFile(dir, url string) (file string, remove func() error, err error) {
	folder, err := os.MkdirTemp(dir, ".workbook-open-")
	if err != nil {
		return "", nil, err
	}
	remove = func() error { return os.RemoveAll(folder) }
	if err := os.Chmod(folder, 0o700); err != nil {
		remove()
		return "", nil, err
	}
	u := html.EscapeString(url)
	page := `<!doctype html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0; url=` + u + `">
<title>workbook</title></head>
<body><p><a href="` + u + `" rel="noreferrer">workbook</a></p></body></html>
`
	file = filepath.Join(folder, "open.html")
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = f.WriteString(page)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		remove()
		return "", nil, err
	}
	return file, remove, nil
}

// OpenDir is the folder OpenFile writes into: the learner's workspace when there is one (root,
// "" for none), else workbook's folder in the user's cache folder, else the system's temporary
// folder, the first that is this user's alone (the last is shared, and the file's own folder, 0700,
// still keeps it). The workspace comes first because a browser confined to the user's own folders,
// as a snap package is, may read there, and not in the hidden folders of the home folder.
func OpenDir(root string) string {
	if root != "" && checker.TrustedDir(root) {
		return root
	}
	if c, err := os.UserCacheDir(); err == nil {
		d := filepath.Join(c, "workbook")
		if os.MkdirAll(d, 0o700) == nil && checker.TrustedDir(d) {
			return d
		}
	}
	return os.TempDir()
}

// OpenCommand returns the command that asks the system to open target (a file or an address) in
// the default browser.
func OpenCommand(target string) []string {
	switch runtime.GOOS {
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", target}
	case "darwin":
		return []string{"open", target}
	}
	return []string{"xdg-open", target}
}

// Open hands the browser the address url, which carries the session token, in a file only the
// learner may read (OpenFile, in OpenDir(root)): the opener's arguments name the file, never the
// token, since every user of the machine may read them. start runs the opener (StartCommand when
// nil). remove takes the file away once serving is over; it is never nil.
func Open(url, root string, start func(argv []string) error) (remove func(), err error) {
	file, rm, err := OpenFile(OpenDir(root), url)
	if err != nil {
		return func() {}, err
	}
	if start == nil {
		start = StartCommand
	}
	return func() { rm() }, start(OpenCommand(file))
}

// StartCommand starts the command argv and does not wait for it: a browser may live on long after.
func StartCommand(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

// ChartNote returns, for a hidden block of the lesson on topic that holds the data of a chart the
// lesson's page draws, a line in p's language that names the chart and gives the command that
// opens it in the browser; "" for any other block. The terminal keeps its own text pictures; these
// charts are in the browser only. The note is Markdown, like the rest of the lesson. It gives no
// address of a server: serve listens on a new port at each start (DefaultAddr), and an address
// kept from before could lead to another user's server.
func ChartNote(l *lesson.Lesson, topic string, b *lesson.Block, p *i18n.Printer) string {
	if b.Kind != lesson.OutputBlock || l.Lang == "" {
		return ""
	}
	title, id, ok := ChartTitle(slices.Index(l.Blocks, b), b.Text, p)
	if !ok {
		return ""
	}
	// As every command the tool suggests, written as it runs where the learner stands (in a clone:
	// go run ./cmd/workbook).
	cmd := p.Rewrite(fmt.Sprintf("workbook serve --open /%s/lessons/%s#%s", l.Lang, topic, id))
	// The command in a block of its own, so that it is not wrapped (a wrapped line cannot be
	// copied).
	return p.T("lesson_chart_in_browser", "Title", title) + "\n\n```text\n" + cmd + "\n```\n"
}
