package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Tab starts Chromium (exe) for one test, bounded by limit (a stuck browser only: nothing is
// judged by how long it took), and gives the test three steps: do runs actions, eval evaluates
// JavaScript to a string (a promise's once it is settled, so a test can wait for the frames a page
// draws), shot saves a screenshot as shots/NAME.png (nothing when shots is ""). Each step ends the
// test on an error.
func Tab(t testing.TB, exe string, limit time.Duration, shots string) (do func(...chromedp.Action[chromedp.Void]), eval func(string) string, shot func(string)) {
	t.Helper()
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), Options(exe, t.TempDir())...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, limit)
	t.Cleanup(cancelT)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	do = func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	eval = func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	shot = func(name string) {
		t.Helper()
		if shots == "" {
			return
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return do, eval, shot
}
