package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rogpeppe/go-internal/txtar"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/browsertest"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/web"
)

// TestScenarioChartInBrowser checks the storm exercise's reference and a wrong program (no jitter)
// in a real Chromium, as a learner does on the exercise's page, and compares each scenario case's
// chart with what `check --json` reports of the same program: the series tick by tick, a line at
// every limit, the first moment past a limit marked for the wrong program and for none of the
// reference's cases, and the table of the figures, value for value, in the page's words.
func TestScenarioChartInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and checks programs in Chromium")
	}
	exe := browsertest.Chromium(t)
	const ex = "exercise-storm-client"
	ref, err := os.ReadFile(filepath.Join(repoRoot, "solutions", ex, "ru", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(filepath.Join(repoRoot, "exercises", ex, "testdata", "wrong", "no-jitter.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var wrong []byte
	for _, f := range ar.Files {
		if f.Name == "main.go" {
			wrong = f.Data
		}
	}
	if wrong == nil {
		t.Fatal("no-jitter.txtar holds no main.go")
	}

	root, getenv := newParityWorkspace(t) // content in Russian, messages in English
	term := &terminalLearner{root: root, env: getenv}
	t.Chdir(root)
	base, token := serveForChromium(t, root, getenv)
	do, eval, shot := chromiumTab(t, exe)
	do(chromedp.Navigate(base+"/ru/exercises/"+ex+"#token="+token), chromedp.WaitVisible(chromedp.CSS(".exercise-editor .check")))

	for _, prog := range []struct {
		name string
		code []byte
		pass bool
	}{{"reference", ref, true}, {"no-jitter", wrong, false}} {
		// One tab for both programs: its steps end the test itself on an error, so no subtests.
		func() {
			dir := exerciseDir(t, root, ex)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "main.go"), prog.code, 0o644); err != nil {
				t.Fatal(err)
			}
			out, exit := term.run(t, "check", "--json", ex)
			var res checker.Result
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%s: check --json: %v\n%s", prog.name, err, out)
			}
			if (exit == 0) != prog.pass {
				t.Fatalf("%s: check --json: exit %d, want a pass %v", prog.name, exit, prog.pass)
			}

			// The page reads the file anew, then the learner checks it.
			do(chromedp.Navigate(base+"/ru/exercises/"+ex), chromedp.WaitVisible(chromedp.CSS(".exercise-editor .check")),
				chromedp.Click(chromedp.CSS(".exercise-editor .check")),
				voidOf(chromedp.Poll[bool](`(function(){ var v = document.querySelector('.check-result .verdict');
					return !!v && (v.classList.contains('ok') || v.classList.contains('bad')); })()`, chromedp.WithPollingInterval(50*time.Millisecond))))
			if cls := eval(`document.querySelector('.check-result .verdict').className`); strings.Contains(cls, "ok") != prog.pass {
				t.Fatalf("%s: the browser's verdict %q, want a pass %v", prog.name, cls, prog.pass)
			}
			// Every chart drawn and painted, the folded ones opened.
			eval(`(function(){ document.querySelectorAll('.check-result details.scenario-case').forEach(function (d) { d.open = true; }); return ''; })()`)
			do(voidOf(chromedp.Poll[bool](`(function(){ var f = document.querySelectorAll('.check-result figure.chart-scenario');
				return f.length > 0 && Array.from(f).every(function (e) { var c = e.querySelector('canvas');
					return e.dataset.rendered && c.width > 0 && c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some(function (v) { return v > 0; }); }); })()`,
				chromedp.WithPollingInterval(50*time.Millisecond))))

			decimal := func(v float64) string { return i18n.Decimal("en", v, -1) }
			firstOver, figures := 0, 0
			for i, cs := range res.Cases {
				if cs.Scenario == nil {
					continue
				}
				figures++
				sel := fmt.Sprintf(".check-result #scenario-%d", i)
				chart, err := browsertest.ParseScenarioChart(eval(browsertest.ScenarioChartJS(sel)))
				if err != nil {
					t.Fatal(err)
				}
				if cs.Drawn {
					// Drawn afresh at each check, with a scenario and a seed of its own: drawn and
					// painted, with its figures.
					if chart.Missing || !chart.Rendered || chart.Painted == 0 || len(chart.Figures) == 0 || len(chart.Sets) == 0 {
						t.Errorf("%s %s: the drawn case's chart: rendered %v, painted %d, %d figures, %d data sets",
							prog.name, cs.Name, chart.Rendered, chart.Painted, len(chart.Figures), len(chart.Sets))
					}
					continue
				}
				browsertest.CheckScenarioChart(t, prog.name+" "+cs.Name, chart, cs, decimal)
				if cs.Scenario.FirstOver >= 0 {
					firstOver++
				}
			}
			if n := eval(`String(document.querySelectorAll('.check-result figure.chart-scenario').length)`); n != fmt.Sprint(figures) {
				t.Errorf("%s: %s charts in the browser, %d scenario cases in check --json", prog.name, n, figures)
			}
			if prog.pass && firstOver != 0 || !prog.pass && firstOver == 0 {
				t.Errorf("%s: %d cases past a limit, want a pass %v", prog.name, firstOver, prog.pass)
			}
			shot("scenario-chart-" + prog.name)
		}()
	}
}

// serveForChromium serves the workspace at root as `workbook serve` does there, on a port of its
// own, and returns its address and session token.
func serveForChromium(t *testing.T, root string, getenv func(string) string) (base, token string) {
	t.Helper()
	e := &env{stdin: strings.NewReader(""), stdout: &syncBuffer{}, stderr: &syncBuffer{}, getenv: getenv,
		course: course.New(workbook.Content())}
	if err := e.decideLangs("", ""); err != nil {
		t.Fatal(err)
	}
	p, err := e.keepWorkspace()
	if err != nil || p == nil {
		t.Fatalf("the workspace at %s: %v", root, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := e.webConfig(p, 20*time.Second)
	cfg.Addr = ln.Addr().String()
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	t.Cleanup(ts.Close)
	return "http://" + ln.Addr().String(), srv.Token()
}

// chromiumTab starts Chromium (exe) for one test and gives its steps: do runs actions, eval
// evaluates JavaScript to a string, shot saves a screenshot in $WORKBOOK_SCREENSHOTS when it is
// set. Each step ends the test on an error; a stuck browser ends it after ten minutes (nothing is
// judged by how long it took).
func chromiumTab(t *testing.T, exe string) (do func(...chromedp.Action[chromedp.Void]), eval func(string) string, shot func(string)) {
	t.Helper()
	return browsertest.Tab(t, exe, 10*time.Minute, os.Getenv("WORKBOOK_SCREENSHOTS"))
}

// voidOf drops the value of an action, to run it among others with do.
func voidOf[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}
