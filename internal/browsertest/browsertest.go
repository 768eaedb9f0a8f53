// Package browsertest finds and starts the Chromium that the project's browser tests drive through
// chromedp, the same way for every package that has such tests, and reads what a page drew of a
// scenario case's chart (ScenarioChartJS, CheckScenarioChart), for the browser's check and
// report.html alike.
//
//	exe := browsertest.Chromium(t) // skips without Chromium, fails under CI=true
//	do, eval, shot := browsertest.Tab(t, exe, 2*time.Minute, shots) // or, by hand:
//	actx, cancel := chromedp.NewExecAllocator(ctx, browsertest.Options(exe, t.TempDir())...)
package browsertest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// Chromium is the browser of the browser tests: $WORKBOOK_CHROMIUM, else chromium,
// chromium-browser or google-chrome on the PATH. Without one the test is skipped, unless CI is
// set: then it fails (.ci/install-deps installs it).
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("WORKBOOK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed, and CI is set: the browser tests must run (.ci/install-deps installs it)")
	}
	t.Skip("chromium is not installed: skipping the browser tests (install it with .ci/install-deps; with CI=true they fail instead)")
	return ""
}

// Options are the allocator options of a headless Chromium at exe with its profile in profile, at
// 1280×900: no sandbox (tests run as root in CI), no GPU, no first-run or default-browser check, and
// none of the background connections this offline machine would refuse.
func Options(exe, profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	}
}
