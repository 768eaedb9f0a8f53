package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/browsertest"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/testcache"
)

// The browser tests drive a real Chromium through chromedp against a real server, the way a
// learner uses the course: run a snippet and see its output, edit it, answer quizzes, check an
// exercise that fails, fix it and see it pass, in both languages, with a screenshot of each page.
//
// Chromium is looked for as $WORKBOOK_CHROMIUM, then chromium, chromium-browser, google-chrome on
// the PATH. Without it the tests are skipped, unless CI is set: then they fail (.ci/install-deps
// installs it). Screenshots go to $WORKBOOK_SCREENSHOTS when set, else to the test's temporary
// folder.

// browser is the one Chromium of the test binary: the first browser test starts it, every browser
// test drives it in a tab of its own (with its own server, so its own origin and storage), and
// TestMain closes it. Starting Chromium costs more than most of what a test does with it.
var browser struct {
	once  sync.Once
	ctx   context.Context // the browser's first tab; the tests' tabs are made from it
	close func()
	err   error
}

// sharedBrowser returns the context of the shared Chromium, started at the first call.
func sharedBrowser(t *testing.T, exe string) context.Context {
	t.Helper()
	browser.once.Do(func() {
		profile, err := os.MkdirTemp("", "workbook-chromium-")
		if err != nil {
			browser.err = err
			return
		}
		opts := append(browsertest.Options(exe, profile), chromedp.Flag("hide-scrollbars", true))
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		browser.ctx = ctx
		browser.close = func() { cancelCtx(); cancelAlloc(); os.RemoveAll(profile) }
		if err := chromedp.Do(ctx); err != nil { // start the browser
			browser.err = err
		}
	})
	if browser.err != nil {
		t.Fatalf("starting %s: %v", exe, browser.err)
	}
	return browser.ctx
}

// TestMain gives the package's tests the checker's caches of their own (testcache.Use), so that the
// programs the pages run and check stay warm from one run to the next, whatever the rest of
// `go test ./...` builds in between; and it closes the shared browser, if a test started it.
func TestMain(m *testing.M) {
	testcache.Use("internal-web")
	code := m.Run()
	if browser.close != nil {
		browser.close()
	}
	os.Exit(code)
}

// browserEnv is a server for a clone-like place in a temporary folder and a browser tab to drive it.
type browserEnv struct {
	t     *testing.T
	ctx   context.Context
	base  string
	place *Place
	shots string
}

// newBrowserEnv starts the server and a tab; messages, when given, is the server's message language
// (Config.Messages), as `serve --messages` sets it.
func newBrowserEnv(t *testing.T, messages ...string) *browserEnv {
	root := t.TempDir()
	place := &Place{
		Root:      root,
		StatePath: filepath.Join(root, progress.FileName),
		Dir: func(ex *course.Exercise, lang string) string {
			return filepath.Join(root, filepath.FromSlash(ex.StarterDir(lang)))
		},
		Fresh: func() *progress.State { return progress.New("", time.Now()) },
	}
	return newBrowserEnvAt(t, place, messages...)
}

// newBrowserEnvAt is newBrowserEnv with the learner's place given.
func newBrowserEnvAt(t *testing.T, place *Place, messages ...string) *browserEnv {
	exe := browsertest.Chromium(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Course: course.New(workbook.Content()), Lang: "ru", Place: place, Addr: ln.Addr().String(),
		Limits: checker.Limits{RunTime: 20 * time.Second}, Messages: strings.Join(messages, "")})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(s)
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	t.Cleanup(ts.Close)

	tab, cancelTab := chromedp.NewContext(sharedBrowser(t, exe))
	ctx, cancelTime := context.WithTimeout(tab, 6*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab() })
	if err := chromedp.Do(ctx); err != nil { // open the tab
		t.Fatalf("opening a tab of %s: %v", exe, err)
	}
	shots := os.Getenv("WORKBOOK_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	// As the learner does with serve --open: the browser opens the file that leads it on to the
	// address with the token in its fragment; the page keeps the token, and no address after it
	// carries one.
	file, remove, err := OpenFile(t.TempDir(), s.StartURL(ln.Addr().(*net.TCPAddr), "/ru/", ""))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { remove() })
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.ToSlash(file)),
		chromedp.WaitVisible(chromedp.CSS(".group"))); err != nil {
		t.Fatalf("opening %s: %v", file, err)
	}
	b := &browserEnv{t: t, ctx: ctx, base: ts.URL, place: place, shots: shots}
	if here := b.eval(`location.href`); here != ts.URL+"/ru/" {
		t.Fatalf("after the file, the browser is at %s, want %s/ru/ (no token)", here, ts.URL)
	}
	return b
}

// slowly is how often a wait for what takes the server a while (a build, a run, a check) looks
// again: often enough to add little to a test's time, seldom enough not to keep Chromium busy
// answering (chromedp looks every 5 ms for an element, and polls at every animation frame).
const slowly = 50 * time.Millisecond

func (b *browserEnv) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// void drops the value of an action, to run it among others with Do.
func void[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

func (b *browserEnv) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.TextContent(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func (b *browserEnv) eval(js string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return s
}

// setCode puts text in the editor under sel as if the learner had typed it.
func (b *browserEnv) setCode(sel, text string) {
	b.t.Helper()
	q, _ := json.Marshal(sel + " textarea")
	v, _ := json.Marshal(text)
	b.eval(fmt.Sprintf(`(function(){ var ta = document.querySelector(%s); ta.focus(); ta.select();
		document.execCommand('insertText', false, %s); return ta.value; })()`, q, v))
}

// scrollTo scrolls the element under sel to the top of the window, below the header.
func (b *browserEnv) scrollTo(sel string) {
	b.t.Helper()
	q, _ := json.Marshal(sel)
	b.eval(fmt.Sprintf(`(function(){ var e = document.querySelector(%s);
		window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 70); return ''; })()`, q))
}

// dark switches the page to the system's dark theme and back.
func (b *browserEnv) dark(on bool) {
	b.t.Helper()
	value := "light"
	if on {
		value = "dark"
	}
	b.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}},
		})
		return err
	}))
}

// screenshot saves what the window shows.
func (b *browserEnv) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatal(err)
	}
	file := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", file)
}

func TestBrowser(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("-short: the browser test builds and runs programs")
	}
	t.Parallel() // a tab of its own in the shared browser, with a server of its own
	b := newBrowserEnv(t)

	t.Run("snippet", func(t *testing.T) {
		b.t = t
		first := `.lesson .snippet[data-block="0"]`
		b.do(chromedp.Navigate(b.base+"/ru/lessons/slow-neighbour"), chromedp.WaitVisible(chromedp.CSS(first+" .run")))
		if title := b.text("article h1"); !strings.HasPrefix(title, "Когда сосед тормозит") {
			t.Fatalf("lesson title %q", title)
		}
		b.do(chromedp.Click(chromedp.CSS(first+" .run")),
			chromedp.WaitVisible(chromedp.CSS(first+" .result-status:not(.busy)"), chromedp.RetryInterval(slowly)))
		// The output is shown once: the lesson's own stands below the snippet already.
		status := b.text(first + " .result-status")
		out := b.text(first + " .result pre.output-text")
		if !strings.Contains(status, "Тот же вывод, что в уроке") || out != "без таймаута: занято потоков 4 из 4, отказов каталога 5" {
			t.Fatalf("run: status %q, output %q", status, out)
		}
		if n := b.eval(`String(document.querySelectorAll('.lesson .snippet[data-block="0"] .result pre.output-text').length)`); n != "1" {
			t.Errorf("the run's output is shown %s times, want once", n)
		}
		// Edit: a pool of 8 threads; Ctrl+Enter runs it; the output now differs from the verified one.
		code := b.eval(`document.querySelector('.lesson .snippet[data-block="0"] textarea').value`)
		b.setCode(first, strings.Replace(code, "threads       = 4", "threads       = 8", 1))
		b.eval(`(function(){ var ta = document.querySelector('.lesson .snippet[data-block="0"] textarea');
			var i = ta.value.indexOf('providerDelay'); ta.focus(); ta.setSelectionRange(i, i + 13); return ''; })()`)
		b.scrollTo(first)
		b.screenshot("lesson-ru-edit")
		// The run's result replaces the status shown now, which is marked so as not to be taken for it.
		b.eval(`(document.querySelector('.lesson .snippet[data-block="0"] .result-status').dataset.seen = '1')`)
		b.do(chromedp.Focus(chromedp.CSS(first+" textarea")),
			chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
			chromedp.WaitVisible(chromedp.CSS(first+" .result-status:not(.busy):not([data-seen])"), chromedp.RetryInterval(slowly)))
		// An edited snippet is an experiment: its output once, a neutral word on how it differs.
		status = b.text(first + " .result-status")
		out = b.text(first + " .result pre.output-text")
		if !strings.Contains(status, "Эксперимент") || !strings.Contains(status, "расходится") || !strings.Contains(out, "занято потоков 8 из 8") {
			t.Fatalf("edited run: status %q, output %q", status, out)
		}
		if cls := b.eval(`document.querySelector('.lesson .snippet[data-block="0"] .result-status').className`); strings.Contains(cls, "bad") || strings.Contains(status, "✗") {
			t.Errorf("an experiment is shown as a failure: %q %q", cls, status)
		}
		if m := b.text(first + " .result mark"); !strings.Contains(m, "8 из 8") {
			t.Errorf("the differing line is not marked: %q", m)
		}
		b.scrollTo(first + " .result")
		b.screenshot("lesson-ru-run")
		b.dark(true)
		b.screenshot("lesson-ru-run-dark")
		b.dark(false)
		// The edit survives a reload (localStorage) and Reset brings the lesson's code back.
		b.do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(first+" .snippet-edited")))
		if v := b.eval(`document.querySelector('.lesson .snippet[data-block="0"] textarea').value`); !strings.Contains(v, "threads       = 8") {
			t.Fatalf("the edit was not kept")
		}
		b.do(chromedp.Click(chromedp.CSS(first+" .reset")), chromedp.WaitNotVisible(chromedp.CSS(first+" .snippet-edited")))
		if v := b.eval(`document.querySelector('.lesson .snippet[data-block="0"] textarea').value`); v != code {
			t.Fatalf("reset did not bring the code back")
		}
	})

	t.Run("quiz", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Navigate(b.base+"/ru/lessons/slow-neighbour"), chromedp.WaitVisible(chromedp.CSS(`form.quiz`)))
		lp, err := (&Server{cfg: Config{Course: course.New(workbook.Content())}, lessons: map[string]*lessonPage{}}).lessonPage("slow-neighbour", "ru")
		if err != nil {
			t.Fatal(err)
		}
		wrongFirst := 0                   // quizzes answered wrongly first: they count as wrong
		shot := map[lesson.QuizKind]int{} // the first quiz of each kind, for screenshots
		for i, q := range lp.l.Quizzes {
			if _, ok := shot[q.Kind]; !ok {
				shot[q.Kind] = i
			}
			right, wrong := answers(q)
			form := fmt.Sprintf(`form.quiz[data-quiz="%d"]`, i)
			answer := func(a string) (string, string) {
				switch q.Kind {
				case "fill":
					b.do(chromedp.SetValue(chromedp.CSS(form+" input.blank"), a))
				default:
					b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s input[name=answer][value="%s"]`, form, a))))
				}
				b.do(chromedp.Click(chromedp.CSS(form+" button[type=submit]")),
					void(chromedp.Poll[bool](fmt.Sprintf(`(function(){ var f = document.querySelector('%s .quiz-feedback');
						return f.classList.contains('ok') || f.classList.contains('bad'); })()`, form), chromedp.WithPollingInterval(slowly))))
				return b.eval(fmt.Sprintf(`document.querySelector('%s .quiz-feedback').className`, form)), b.text(form + " .quiz-feedback")
			}
			if q.Kind == lesson.Predict || q.Kind == lesson.Bug { // first a wrong answer
				wrongFirst++
				if cls, txt := answer(wrong); !strings.Contains(cls, "bad") {
					t.Errorf("quiz %d: wrong answer %q judged right: %q", i, wrong, txt)
				}
			}
			if cls, txt := answer(strings.TrimSpace(right)); !strings.Contains(cls, "ok") || !strings.Contains(txt, "Верно") {
				t.Errorf("quiz %d (%s): right answer %q: %q %q", i, q.Kind, right, cls, txt)
			}
			if q.Kind == "bug" {
				if fix := b.text(form + " .quiz-fix pre"); !strings.Contains(fix, `answer == "timeout"`) {
					t.Errorf("bug quiz: fix %q", fix)
				}
			}
		}
		total := len(lp.l.Quizzes)
		score := b.text(".quiz-score")
		if !strings.Contains(score, fmt.Sprintf(" %d ", total-wrongFirst)) ||
			!strings.Contains(score, fmt.Sprintf("из %d", total)) || !strings.Contains(score, "записан") {
			t.Errorf("score %q, want %d right of %d", score, total-wrongFirst, total)
		}
		st, err := progress.Load(b.place.StatePath)
		if err != nil {
			t.Fatal(err)
		}
		if q := st.Quizzes["slow-neighbour"]; q == nil || q.Last != total-wrongFirst || q.Total != total {
			t.Errorf("quiz progress %+v", q)
		}
		for _, kind := range []lesson.QuizKind{lesson.Predict, lesson.Bug, lesson.Fill, lesson.Choice} {
			b.scrollTo(fmt.Sprintf(`form.quiz[data-quiz="%d"]`, shot[kind]))
			b.screenshot("lesson-ru-quiz-" + string(kind))
		}
	})

	t.Run("bulgarian lesson", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Navigate(b.base+"/bg/lessons/slow-neighbour"), chromedp.WaitVisible(chromedp.CSS(".lesson .snippet .run")))
		if lang := b.eval(`document.documentElement.lang`); lang != "bg" {
			t.Fatalf("lang %q", lang)
		}
		if run := b.text(".lesson .snippet .run"); !strings.Contains(run, "Пусни") {
			t.Errorf("run button %q", run)
		}
		// A heading anchor with Cyrillic works.
		href := b.eval(`decodeURIComponent(document.querySelector('.toc a').getAttribute('href'))`)
		b.do(chromedp.Click(chromedp.CSS(".toc a")))
		// Wait for the anchor in the address; if it never comes, the check below says what came.
		hrefJS, _ := json.Marshal(href)
		if err := chromedp.Do(b.ctx, void(chromedp.Poll[bool](`decodeURIComponent(location.hash) === `+string(hrefJS),
			chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(5*time.Second)))); err != nil {
			t.Logf("waiting for %s in the address: %v", href, err)
		}
		if hash := b.eval(`decodeURIComponent(location.hash)`); hash != href || !strings.ContainsAny(hash, "абвгдежзийклмнопрстуфхцчшщъьюя") {
			t.Errorf("anchor %q, location %q", href, hash)
		}
		b.do(void(chromedp.Evaluate[bool](`window.scrollTo(0, 0), true`)))
		b.screenshot("lesson-bg")
	})

	t.Run("exercise", func(t *testing.T) {
		b.t = t
		c := course.New(workbook.Content())
		ex, err := c.Exercise("exercise-retry")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Extract(ex.StarterDir("bg"), b.place.Dir(ex, "bg")); err != nil {
			t.Fatal(err)
		}
		ed := ".exercise-editor"
		b.do(chromedp.Navigate(b.base+"/bg/exercises/exercise-retry"), chromedp.WaitVisible(chromedp.CSS(ed+" .check")))
		check := func() (string, string) {
			b.do(chromedp.Click(chromedp.CSS(ed+" .check")),
				void(chromedp.Poll[bool](`(function(){ var v = document.querySelector('.check-result .verdict');
					return !!v && (v.classList.contains('ok') || v.classList.contains('bad')); })()`, chromedp.WithPollingInterval(slowly))))
			return b.eval(`document.querySelector('.check-result .verdict').className`), b.text(".check-result")
		}
		cls, report := check()
		if !strings.Contains(cls, "bad") || !strings.Contains(report, "✗") || !strings.Contains(report, "теста от") {
			t.Fatalf("the starter: %q\n%s", cls, report)
		}
		if badge := b.text("#ex-status"); badge != "още не минава" {
			t.Errorf("status %q", badge)
		}
		b.do(chromedp.Click(chromedp.CSS(".hint-next")), chromedp.WaitVisible(chromedp.CSS(".hint-list .hint")))
		b.screenshot("exercise-bg-fail")
		sol, err := fs.ReadFile(c.FS(), path.Join(ex.SolutionDir("bg"), "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		b.setCode(ed, string(sol))
		cls, report = check()
		if !strings.Contains(cls, "ok") || !strings.Contains(report, "Всички тестове минават") {
			t.Fatalf("the solution: %q\n%s", cls, report)
		}
		if badge := b.text("#ex-status"); badge != "решена" {
			t.Errorf("status %q", badge)
		}
		saved, _ := os.ReadFile(filepath.Join(b.place.Dir(ex, "bg"), "main.go"))
		if strings.TrimSpace(string(saved)) != strings.TrimSpace(string(sol)) {
			t.Errorf("the file was not saved")
		}
		b.screenshot("exercise-bg-pass")
		st, err := progress.Load(b.place.StatePath)
		if err != nil {
			t.Fatal(err)
		}
		if x := st.Lookup(ex.Name); x.Status() != progress.Passed || x.Hints != 1 {
			t.Errorf("progress %+v", x)
		}
	})

	t.Run("index", func(t *testing.T) {
		b.t = t
		for _, lang := range []string{"ru", "bg"} {
			b.do(chromedp.Navigate(b.base+"/"+lang+"/"), chromedp.WaitVisible(chromedp.CSS(".group")))
			if n := b.eval(`String(document.querySelectorAll('.exercise-item.status-passed').length)`); n != "1" {
				t.Errorf("%s: %s exercises shown as solved, want 1", lang, n)
			}
			b.screenshot("index-" + lang)
		}
	})
}
