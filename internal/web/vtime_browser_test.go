package web

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserVirtualVerdict: in the page, a virtual-time snippet that leaves a goroutine blocked is
// named as the terminal names it, in the page's language: what happened, the goroutine and its place
// in the snippet, what that usually means; never a bare crash with a stack dump.
func TestBrowserVirtualVerdict(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("-short: the browser test builds and runs programs")
	}
	t.Parallel()
	b := newBrowserEnv(t)
	for _, tc := range []struct{ lang, message, place, hint string }{
		{"ru", "После выхода из main остались заблокированные горутины.", "в main.main.func1 (snippet.go:3)", "результат никто не читает"},
		{"bg", "След като main приключи, останаха блокирани горутини.", "в main.main.func1 (snippet.go:3)", "резултат, който никой не чете"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			b.t = t
			s, _ := newTestServer(t, false) // the same course: the block's number in the page
			sel := fmt.Sprintf(`.lesson .snippet[data-block="%d"]`, firstVirtualBlock(t, s, "real-go", tc.lang))
			b.do(chromedp.Navigate(b.base+"/"+tc.lang+"/lessons/real-go"), chromedp.WaitVisible(chromedp.CSS(sel+" .run")))
			b.setCode(sel, "func main() {\n\tc := make(chan int)\n\tgo func() { c <- 1 }()\n\tfmt.Println(\"x\")\n}\n")
			b.do(chromedp.Click(chromedp.CSS(sel+" .run")),
				chromedp.WaitVisible(chromedp.CSS(sel+" .result-status:not(.busy)"), chromedp.RetryInterval(slowly)))
			status := b.text(sel + " .result-status")
			notes := b.text(sel + " .result ul.notes")
			out := b.text(sel + " .result pre.output-text")
			if !strings.Contains(status, tc.message) || !strings.Contains(notes, tc.place) || !strings.Contains(notes, tc.hint) {
				t.Errorf("status %q, notes %q", status, notes)
			}
			if !strings.HasPrefix(out, "x") || strings.Contains(b.text(sel+" .result"), "goroutine ") {
				t.Errorf("output %q; the result shows the stack dump: %q", out, b.text(sel+" .result"))
			}
			b.scrollTo(sel + " .result")
			b.screenshot("lesson-" + tc.lang + "-vtime-leak")
		})
	}
}
