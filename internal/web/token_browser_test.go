package web

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// TestBrowserToken: in Chromium, the token opened once (newBrowserEnv opens the file of serve
// --open) is in no address, no history entry and no cookie; the pages opened after it, a reload and
// an address without the token (a chart's, as a terminal lesson prints it) get their content;
// the address of serve --open PAGE goes on to the chart it names; without the token, or with the
// token of a server that ran before, the page says where the address is and shows nothing of the
// learner's.
func TestBrowserToken(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("-short: the browser tests start Chromium")
	}
	t.Parallel()
	b := newBrowserEnv(t)
	if got := b.eval(`document.cookie + '|' + location.href`); got != "|"+b.base+"/ru/" {
		t.Errorf("cookie and address: %s, want none and %s/ru/", got, b.base)
	}
	var history page.GetNavigationHistoryResult
	b.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var err error
		history, err = cdp.Call(ctx, t, page.GetNavigationHistory, cdp.Empty{})
		return err
	}))
	// The addresses of the tab's history (its back button); the browser's own memory of where a
	// redirection began (UserTypedURL) is the learner's profile, out of every page's reach.
	for _, e := range history.Entries {
		if strings.Contains(e.URL, "token") {
			t.Errorf("the tab's history holds %s", e.URL)
		}
	}
	if n := len(history.Entries); n == 0 || history.Entries[n-1].URL != b.base+"/ru/" {
		t.Errorf("the tab's history ends elsewhere than %s/ru/", b.base)
	}

	// A page opened later, and the address of a chart, as `workbook lesson` prints it.
	b.do(chromedp.Navigate(b.base+"/ru/exercises/exercise-retry"), chromedp.WaitVisible(chromedp.CSS(".exercise-editor .check")))
	if got := b.text("#page-footer"); !strings.Contains(got, b.place.Root) {
		t.Errorf("footer %q, want the learner's folder", got)
	}
	b.do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(".exercise-editor .check")))
	s, _ := newTestServer(t, false)
	lp, err := s.lessonPage("slow-neighbour", "ru")
	if err != nil {
		t.Fatal(err)
	}
	id := ""
	for i, bl := range lp.l.Blocks {
		if bl.Kind == lesson.OutputBlock && id == "" {
			if _, cid, ok := ChartTitle(i, bl.Text, i18n.New("ru")); ok {
				id = cid
			}
		}
	}
	if id == "" {
		t.Fatal("the lesson slow-neighbour has no chart")
	}
	b.do(chromedp.Navigate(b.base+"/ru/lessons/slow-neighbour#"+id), chromedp.WaitVisible(chromedp.CSS("#"+id+"[data-rendered]")))
	if got := b.eval(`String(Math.round(document.getElementById('` + id + `').getBoundingClientRect().top < innerHeight))`); got != "1" {
		t.Errorf("the chart #%s is not scrolled into view", id)
	}

	// The address of serve --open PAGE for a chart, as a terminal lesson gives the command: the page
	// takes the token, and the chart's anchor takes its place in the address.
	token := b.eval(`localStorage.getItem('workbook:token')`)
	b.do(chromedp.Navigate(b.base+"/ru/"), chromedp.WaitVisible(chromedp.CSS(".group")))
	b.do(chromedp.Navigate(b.base+"/ru/lessons/slow-neighbour#token="+token+"&at="+id), chromedp.WaitVisible(chromedp.CSS("#"+id+"[data-rendered]")))
	if got := b.eval(`location.href`); got != b.base+"/ru/lessons/slow-neighbour#"+id {
		t.Errorf("after serve --open's address of a chart, the browser is at %s, want %s/ru/lessons/slow-neighbour#%s", got, b.base, id)
	}
	if got := b.eval(`String(Math.round(document.getElementById('` + id + `').getBoundingClientRect().top < innerHeight))`); got != "1" {
		t.Errorf("the chart #%s of serve --open's address is not scrolled into view", id)
	}

	// Any page may send the browser to an address with a made-up token: the page opens with the
	// token it keeps, and keeps it.
	kept := b.eval(`localStorage.getItem('workbook:token')`)
	b.do(chromedp.Navigate(b.base+"/ru/exercises/exercise-retry#token=00ff"), chromedp.WaitVisible(chromedp.CSS(".exercise-editor .check")))
	if got := b.eval(`location.href + ' ' + localStorage.getItem('workbook:token')`); got != b.base+"/ru/exercises/exercise-retry "+kept {
		t.Errorf("after a made-up token: %s", got)
	}

	// Without the token, as another browser profile would be, and with a token of old.
	for _, tc := range []struct{ name, setup string }{
		{"no token", `localStorage.removeItem('workbook:token')`},
		{"a token of old", `localStorage.setItem('workbook:token', '0123abcd')`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.t = t
			saved := b.eval(`localStorage.getItem('workbook:token')`)
			b.eval(tc.setup + `; ''`)
			b.do(chromedp.Navigate(b.base+"/ru/exercises/exercise-retry"), chromedp.WaitVisible(chromedp.CSS(".page-status.bad")))
			if got := b.text(".page-status"); !strings.Contains(got, "workbook serve") {
				t.Errorf("the page says %q, want where the address is", got)
			}
			if n := b.eval(`String(document.querySelectorAll('.exercise-editor').length) + document.getElementById('page-footer').textContent`); n != "0" {
				t.Errorf("without the token the page shows %q", n)
			}
			if got := b.eval(`String(localStorage.getItem('workbook:token'))`); got != "null" {
				t.Errorf("the refused token is kept: %q", got)
			}
			b.screenshot("token-refused-" + strings.ReplaceAll(tc.name, " ", "-"))
			// The address that serve printed, pasted: the page takes the token and drops it.
			b.do(chromedp.Navigate(b.base+"/ru/#token="+saved), chromedp.WaitVisible(chromedp.CSS(".group")))
			if got := b.eval(`location.href + ' ' + localStorage.getItem('workbook:token')`); got != b.base+"/ru/ "+saved {
				t.Errorf("after the printed address: %s", got)
			}
		})
	}
}
