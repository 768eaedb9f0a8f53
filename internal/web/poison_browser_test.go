package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/browsertest"
	"github.com/workbook-course/workbook/internal/course"
)

// TestBrowserPoisonedOrigin: another user of the machine held the port of the learner's server
// while none of the learner's ran (the default one, when it was a fixed port), and the learner's
// browser opened a page of theirs there (an address of the course kept from before). That page
// registered a service worker, which answers every later page of the origin itself. The learner's
// next session, on the default address, must be on an origin of its own: the worker's page must
// not get the token from the address serve --open leads to, and the course's page must show.
func TestBrowserPoisonedOrigin(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("-short: the browser tests start Chromium")
	}
	exe := browsertest.Chromium(t)
	theirAddr := DefaultAddr
	if _, port, _ := net.SplitHostPort(DefaultAddr); port == "0" {
		theirAddr = "127.0.0.1:0" // no port is the learner's next: they hold one of their choice
	}
	theirs, err := net.Listen("tcp", theirAddr)
	if err != nil {
		t.Skipf("%s is taken: %v", theirAddr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `self.addEventListener('install', e => self.skipWaiting());
self.addEventListener('activate', e => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', e => {
  var path = new URL(e.request.url).pathname;
  if (e.request.mode === 'navigate') e.respondWith(new Response('<!doctype html><title>theirs</title><script src="/stolen.js"></script>', {headers: {'Content-Type': 'text/html'}}));
  else if (path === '/stolen.js') e.respondWith(new Response('document.title = "stolen " + location.hash', {headers: {'Content-Type': 'text/javascript'}}));
});`)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>bait</title><script>navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => document.title = 'ready', e => document.title = 'failed ' + e);</script>`)
	})
	hs := &http.Server{Handler: mux}
	go hs.Serve(theirs)
	tab, cancelTab := chromedp.NewContext(sharedBrowser(t, exe))
	ctx, cancel := context.WithTimeout(tab, 2*time.Minute)
	defer func() { cancel(); cancelTab() }()
	// eval reads js's value in the page. The pages here navigate on by themselves (the file leads
	// on to the server's address, a worker's page reloads), and an evaluation that a navigation cut
	// short ("Inspected target navigated or closed") is tried again until the test's time is up.
	eval := func(js string) string {
		for {
			s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
			if err == nil {
				return s
			}
			if ctx.Err() != nil {
				t.Fatalf("%s: %v", js, err)
			}
			time.Sleep(slowly)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+theirs.Addr().String()+"/ru/lessons/slow-neighbour")); err != nil {
		t.Fatal(err)
	}
	title := eval(`document.title`)
	for ; title == "bait"; time.Sleep(slowly) {
		title = eval(`document.title`)
	}
	if title != "ready" {
		t.Fatalf("their service worker: %s", title)
	}
	hs.Close()

	// The learner's next session, on the default address, opened as serve --open does.
	ln, err := net.Listen("tcp", DefaultAddr)
	if err != nil {
		t.Skipf("%s is taken: %v", DefaultAddr, err)
	}
	defer ln.Close()
	s, err := New(Config{Course: course.New(workbook.Content()), Lang: "ru", Addr: ln.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	go http.Serve(ln, s)
	file, remove, err := OpenFile(t.TempDir(), s.StartURL(ln.Addr().(*net.TCPAddr), "/ru/", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	// The course's index shows its groups once its content came with the token; their page, if it
	// answers, never does.
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.ToSlash(file))); err != nil {
		t.Fatal(err)
	}
	for title = eval(`document.title`); !strings.Contains(title, "stolen") && eval(`String(document.querySelectorAll('.group').length)`) == "0"; time.Sleep(slowly) {
		title = eval(`document.title`)
	}
	if strings.Contains(title, s.Token()) || strings.Contains(title, "stolen") {
		t.Errorf("their page was at the learner's address and read %q", title)
	}
}
