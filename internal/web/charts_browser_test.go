package web

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// TestBrowserCharts opens every lesson page that has charts in Chromium, in both languages, once with
// the messages in the page's language and once with English messages (serve --messages en), each
// page once for all of its charts, and checks
//
//   - the legend of every chart (checkLegend): it explains every colour drawn, and with English
//     messages the chart's own words are English;
//   - with the page's own messages, that what Chart.js holds is, number for number, what the lesson
//     program printed in its verified output block (chartChecks, a check for every kind of chart);
//     that the canvas has been painted; and that the text alternative is there;
//   - that every chart of the page is drawn again when the theme turns dark, and again when it
//     turns light.
//
// A screenshot of each chart, in the light and the dark theme, is written to $WORKBOOK_SCREENSHOTS
// when it is set, else to the test's artifact directory, which is kept only when asked for:
//
//	mkdir -p /tmp/shots && go test ./internal/web -run TestBrowserCharts -artifacts -outputdir /tmp/shots
//
// puts them in /tmp/shots/_artifacts/*/chart-*.png; without -artifacts they are removed after the
// test.
func TestBrowserCharts(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("-short: the browser test starts Chromium")
	}
	t.Parallel() // tabs of its own in the shared browser, with servers of its own
	pages := pageCharts(t)
	kinds := map[string]bool{}
	for _, p := range pages {
		for _, c := range p.charts {
			kinds[c.kind] = true
		}
	}
	for k := range chartKinds {
		if !kinds[k] {
			t.Errorf("no lesson draws a %s chart: its legend and its numbers go untested", k)
		}
		if chartChecks[k] == nil {
			t.Errorf("no check of the numbers a %s chart draws", k)
		}
	}
	for _, messages := range []string{"", "en"} {
		b := newBrowserEnv(t, messages)
		if os.Getenv("WORKBOOK_SCREENSHOTS") == "" {
			b.shots = t.ArtifactDir()
		}
		for _, p := range pages {
			b.t = t
			b.openPage(p)
			// The legends first, as the page shows them when it opens.
			for _, c := range p.charts {
				name := "legend/" + p.lang + "/" + p.topic + "/" + c.id + "-" + c.kind
				if messages != "" {
					name += "/messages-" + messages
				}
				t.Run(name, func(t *testing.T) {
					b.t = t
					b.checkLegend("#"+c.id, messages)
				})
			}
			if messages != "" {
				continue
			}
			for _, c := range p.charts {
				t.Run(c.kind+"/"+p.lang, func(t *testing.T) {
					b.t = t
					chartChecks[c.kind](t, b, p.lang, "#"+c.id, c.raw)
				})
			}
			t.Run("themes/"+p.lang+"/"+p.topic, func(t *testing.T) {
				b.t = t
				b.themed(p, true)
				for _, c := range p.charts {
					b.snap("#"+c.id, "chart-"+c.kind+"-"+p.lang+"-dark")
				}
				b.themed(p, false)
			})
		}
	}
}

// chartEval evaluates js in the page and decodes its JSON result into v.
func (b *browserEnv) chartEval(js string, v any) {
	b.t.Helper()
	s := b.eval(`JSON.stringify(` + js + `)`)
	if err := json.Unmarshal([]byte(s), v); err != nil {
		b.t.Fatalf("%s: %v (%s)", js, err, s)
	}
}

// drawnSets is what a chart's figure shows: the choice it names (data-shown) and every data set
// drawn, each with its legend label and its numbers (gaps as 0).
type drawnSets struct {
	Shown string
	Sets  []struct {
		Label string
		Data  []int
	}
}

// drawn reads the drawnSets of the chart in the figure fig.
func (b *browserEnv) drawn(fig string) drawnSets {
	b.t.Helper()
	var got drawnSets
	b.chartEval(fmt.Sprintf(`(function () { var f = document.querySelector('%s'), c = Chart.getChart(f.querySelector('canvas'));
		return { Shown: f.dataset.shown, Sets: c.data.datasets.map(function (d) {
			return { Label: d.label, Data: d.data.map(function (v) { return v === null ? 0 : v; }) }; }) }; })()`, fig), &got)
	return got
}

// painted reports how many pixels of the canvases under sel are not transparent.
func (b *browserEnv) painted(sel string) int {
	b.t.Helper()
	var n int
	b.chartEval(fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).reduce(function (sum, c) {
		var px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, n = 0;
		for (var i = 3; i < px.length; i += 4) if (px[i] > 0) n++;
		return sum + n; }, 0)`, sel), &n)
	return n
}

// pageCharts lists the charts of every lesson, page by page (a topic in a language), each with the
// id of its figure, its kind and the text of the output block it was drawn from, which verify checks
// against the program's output.
func pageCharts(t *testing.T) []chartPage {
	t.Helper()
	topics, err := lesson.Topics(workbook.Content(), "lessons")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{cfg: Config{Course: course.New(workbook.Content())}, lessons: map[string]*lessonPage{}}
	var pages []chartPage
	for _, topic := range topics {
		for _, lang := range lesson.Langs {
			lp, err := s.lessonPage(topic, lang)
			if err != nil {
				t.Fatal(err)
			}
			p := chartPage{topic: topic, lang: lang}
			for i, bl := range lp.l.Blocks {
				if k := chartKind(bl.Text); bl.Kind == lesson.OutputBlock && k != "" {
					p.charts = append(p.charts, pageChart{id: fmt.Sprintf("chart-%d", i), kind: k, raw: strings.TrimSpace(bl.Text)})
				}
			}
			if len(p.charts) > 0 {
				pages = append(pages, p)
			}
		}
	}
	return pages
}

// chartPage is a lesson page with charts.
type chartPage struct {
	topic, lang string
	charts      []pageChart
}

// pageChart is one chart of a page: its figure's id, its kind, and the JSON it was drawn from.
type pageChart struct{ id, kind, raw string }

// openPage opens the page and waits until each of its charts has been drawn, without an error.
func (b *browserEnv) openPage(p chartPage) {
	b.t.Helper()
	steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(b.base + "/" + p.lang + "/lessons/" + p.topic)}
	for _, c := range p.charts {
		steps = append(steps, chromedp.WaitVisible(chromedp.CSS("#"+c.id+"[data-rendered]")))
	}
	b.do(steps...)
	for _, c := range p.charts {
		if e := b.eval(fmt.Sprintf(`document.querySelector('#%s').dataset.error || ''`, c.id)); e != "" {
			b.t.Fatalf("#%s: %s", c.id, e)
		}
	}
}

// snap scrolls the chart into view and saves what the window shows.
func (b *browserEnv) snap(fig, name string) {
	b.t.Helper()
	b.scrollTo(fig)
	b.screenshot(name)
}

// themed switches the theme and waits until every chart of the page has been drawn again for it
// (charts.js counts its drawings in data-rendered).
func (b *browserEnv) themed(p chartPage, dark bool) {
	b.t.Helper()
	count := func(c pageChart) string {
		return fmt.Sprintf(`Number(document.querySelector('#%s').dataset.rendered || 0)`, c.id)
	}
	before := make([]string, len(p.charts))
	for i, c := range p.charts {
		before[i] = b.eval(`String(` + count(c) + `)`)
	}
	b.dark(dark)
	for i, c := range p.charts {
		err := chromedp.Do(b.ctx, void(chromedp.Poll[bool](count(c)+` > `+before[i],
			chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))))
		if err != nil {
			b.t.Fatalf("#%s (%s) was not drawn again for the %s theme (drawn %s times before): %v", c.id, c.kind,
				map[bool]string{true: "dark", false: "light"}[dark], before[i], err)
		}
	}
}

func pad(a []int, n int) []int {
	out := make([]int, n)
	copy(out, a)
	return out
}

// chartChecks are the checks of each kind of chart against the data its lesson program printed (raw,
// the text of the output block it was drawn from), run in the page already open with the chart
// under fig drawn. Each leaves a screenshot of the chart in the light theme; TestBrowserCharts
// takes the dark one.
var chartChecks = map[string]func(t *testing.T, b *browserEnv, lang, fig, raw string){
	"storm": func(t *testing.T, b *browserEnv, lang, fig, raw string) {
		var want stormData
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		var rules, costs []string
		b.chartEval(fmt.Sprintf(`Array.from(document.querySelectorAll('%s fieldset[data-name=rule] label')).map(function (l) { return l.textContent.trim(); })`, fig), &rules)
		b.chartEval(fmt.Sprintf(`Array.from(document.querySelectorAll('%s fieldset[data-name=cost] label')).map(function (l) { return l.textContent.trim(); })`, fig), &costs)
		if len(rules)*len(costs) != len(want.Runs) || len(rules) != 6 {
			t.Fatalf("rules %q, costs %q for %d runs", rules, costs, len(want.Runs))
		}
		for _, r := range want.Runs {
			ri, ci := slices.Index(rules, r.Rule), -1
			for i, c := range costs {
				if strings.Contains(c, fmt.Sprintf("cost = %d)", r.Cost)) {
					ci = i
				}
			}
			if ri < 0 || ci < 0 {
				t.Fatalf("run %s/%d has no buttons among %q %q", r.Rule, r.Cost, rules, costs)
			}
			b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s fieldset[data-name=rule] input[value="%d"]`, fig, ri))),
				chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s fieldset[data-name=cost] input[value="%d"]`, fig, ci))))
			var got struct {
				Shown             string
				Load, Answer, Cap []int
				Labels            int
				LoadName, CapName string
			}
			b.chartEval(fmt.Sprintf(`(function () { var f = document.querySelector('%s'), c = Chart.getChart(f.querySelector('canvas')),
				z = function (a) { return a.map(function (v) { return v === null ? 0 : v; }); };
				return { Shown: f.dataset.shown, Load: z(c.data.datasets[0].data), Answer: z(c.data.datasets[1].data),
					Cap: z(c.data.datasets[2].data), Labels: c.data.labels.length,
					LoadName: c.data.datasets[0].label, CapName: c.data.datasets[2].label }; })()`, fig), &got)
			if got.Shown != fmt.Sprintf("%s/%d", r.Rule, r.Cost) {
				t.Errorf("shown %q after choosing %s/%d", got.Shown, r.Rule, r.Cost)
			}
			if got.Labels != want.Ticks || !slices.Equal(got.Load, pad(r.Load, want.Ticks)) || !slices.Equal(got.Answer, pad(r.Answered, want.Ticks)) {
				t.Errorf("%s/%d: the chart draws other numbers than the program printed", r.Rule, r.Cost)
			}
			for tick, v := range got.Cap {
				if w := map[bool]int{true: want.Rate, false: 0}[tick >= want.Down]; v != w {
					t.Fatalf("capacity at tick %d: %d, want %d", tick, v, w)
				}
			}
			if got.LoadName == "" || got.CapName == "" {
				t.Errorf("datasets without labels: %+v", got)
			}
		}
		if n := b.painted(fig + " canvas"); n < 5000 {
			t.Errorf("the canvas is nearly empty: %d pixels painted", n)
		}
		// The text alternative: every tick of the first run, knocked / answered.
		cell := fmt.Sprintf("%d / %d", want.Runs[0].Load[0], want.Runs[0].Answered[0])
		if row := b.text(fig + " .chart-table tbody tr:first-child"); !strings.Contains(row, cell) {
			t.Errorf("table's first row %q lacks %q", row, cell)
		}
		// The legend names every colour the bars are drawn in, not only the first.
		var legend []string
		b.chartEval(fmt.Sprintf(`Chart.getChart(document.querySelector(%q)).legend.legendItems.map(function (i) { return i.text; })`, fig+" canvas"), &legend)
		for _, w := range []string{"web_chart_knocks_within", "web_chart_knocks_over", "web_chart_knocks_down"} {
			if want := i18n.New(lang).T(w); !slices.Contains(legend, want) {
				t.Errorf("the legend %q lacks %q", legend, want)
			}
		}
		// For the screenshots: full jitter with costly refusals, a flood that ebbs while the server is
		// down; and, left shown for the dark one, doubling with costly refusals, the waves that never
		// get through.
		b.do(chromedp.Click(chromedp.CSS(fig+` fieldset[data-name=rule] input[value="3"]`)),
			chromedp.Click(chromedp.CSS(fig+` fieldset[data-name=cost] input[value="1"]`)))
		b.snap(fig, "chart-storm-"+lang+"-full-costly")
		b.do(chromedp.Click(chromedp.CSS(fig+` fieldset[data-name=rule] input[value="2"]`)),
			chromedp.Click(chromedp.CSS(fig+` fieldset[data-name=cost] input[value="0"]`)))
		b.snap(fig, "chart-storm-"+lang)
	},
	"dots": func(t *testing.T, b *browserEnv, lang, fig, raw string) {
		var want dotsData
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		var got []struct {
			Label  string
			Pauses []int
			X      []float64
		}
		b.chartEval(fmt.Sprintf(`Array.from(document.querySelectorAll('%s canvas')).map(function (cv) {
			var d = Chart.getChart(cv).data.datasets[0];
			return { Label: cv.getAttribute('aria-label'), Pauses: d.data.map(function (p) { return p.pause; }), X: d.data.map(function (p) { return p.x; }) }; })`, fig), &got)
		if len(got) != len(want.Rules) {
			t.Fatalf("%d charts for %d rules", len(got), len(want.Rules))
		}
		for i, r := range want.Rules {
			var flat []int
			for _, row := range r.Pauses {
				flat = append(flat, row...)
			}
			if got[i].Label != r.Rule || !slices.Equal(got[i].Pauses, flat) {
				t.Errorf("chart %d (%s): other pauses than the program printed", i, got[i].Label)
			}
			for k, x := range got[i].X {
				if x != float64(flat[k]*want.TickMS)/1000 {
					t.Fatalf("%s: dot %d at %v s for a pause of %d ticks", r.Rule, k, x, flat[k])
				}
			}
		}
		if n := b.painted(fig + " canvas"); n < 5000 {
			t.Errorf("the canvases are nearly empty: %d pixels painted", n)
		}
		if cap := b.text(fig + " .chart-table caption"); cap != want.Rules[0].Rule {
			t.Errorf("table caption %q", cap)
		}
		b.snap(fig, "chart-dots-"+lang)
	},
	"breaker": func(t *testing.T, b *browserEnv, lang, fig, raw string) {
		var want breakerData
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		n := len(want.Steps)
		type view struct {
			Shown  string
			Now    string
			States []*string
			Probes []*string
			Calls  []*int
			Cells  int
			Future int
		}
		look := func() view {
			var v view
			b.chartEval(fmt.Sprintf(`(function () { var f = document.querySelector('%s'), c = Chart.getChart(f.querySelector('canvas'));
				return { Shown: f.dataset.shown, Now: f.querySelector('.chart-now').textContent,
					States: c.data.datasets[0].data, Probes: c.data.datasets[1].data, Calls: c.data.datasets[2].data,
					Cells: f.querySelectorAll('.breaker-cell').length, Future: f.querySelectorAll('.breaker-cell.future').length }; })()`, fig), &v)
			return v
		}
		// All the ticks at first: the states, the probes and the calls the program printed.
		v := look()
		if v.Shown != strconv.Itoa(n) || v.Cells != n || v.Future != 0 || v.Now != want.Steps[n-1].Line+"\n"+want.Summary {
			t.Fatalf("at first: %+v", v)
		}
		probes := 0
		for i, s := range want.Steps {
			if v.States[i] == nil || *v.States[i] != s.State || v.Calls[i] == nil || *v.Calls[i] != s.Calls {
				t.Errorf("tick %d: drawn state %v calls %v, the program printed %s and %d", s.Tick, v.States[i], v.Calls[i], s.State, s.Calls)
			}
			if (v.Probes[i] != nil) != (s.During == want.States[1]) {
				t.Errorf("tick %d: probe drawn %v, the program's state deciding %s", s.Tick, v.Probes[i] != nil, s.During)
			}
			if s.During == want.States[1] {
				probes++
			}
		}
		if probes != 2 {
			t.Errorf("%d probes, the lesson has two (ticks 6 and 10)", probes)
		}
		// Step: to the start, then tick by tick; each step shows the program's line for it.
		b.do(chromedp.Click(chromedp.CSS(fig + " .step-first")))
		if v := look(); v.Shown != "0" || v.Future != n || v.States[0] != nil {
			t.Fatalf("at the start: %+v", v)
		}
		for k := 1; k <= 7; k++ {
			b.do(chromedp.Click(chromedp.CSS(fig + " .step-next")))
			v := look()
			if v.Shown != strconv.Itoa(k) || v.Now != want.Steps[k-1].Line || v.Future != n-k || v.States[k-1] == nil || v.States[k] != nil {
				t.Fatalf("step %d: %+v", k, v)
			}
		}
		b.do(chromedp.Click(chromedp.CSS(fig + " .step-back")))
		if v := look(); v.Now != want.Steps[5].Line {
			t.Fatalf("a step back: %+v", v)
		}
		if at := b.text(fig + " .step-at"); !strings.Contains(at, "5") || !strings.Contains(at, strconv.Itoa(n)) {
			t.Errorf("position %q", at)
		}
		b.snap(fig, "chart-breaker-"+lang+"-step")
		// Play runs to the end by itself.
		b.eval(fmt.Sprintf(`document.querySelector('%s').dataset.stepMs = '60', ''`, fig))
		b.do(chromedp.Click(chromedp.CSS(fig+" .step-play")),
			void(chromedp.Poll[bool](fmt.Sprintf(`document.querySelector('%s').dataset.shown === '%d'`, fig, n), chromedp.WithPollingInterval(slowly))))
		if v := look(); v.Now != want.Steps[n-1].Line+"\n"+want.Summary {
			t.Fatalf("after play: %+v", v)
		}
		if n := b.painted(fig + " canvas"); n < 3000 {
			t.Errorf("the canvas is nearly empty: %d pixels painted", n)
		}
		if row := b.text(fig + " .chart-table tbody tr:last-child"); !strings.Contains(row, want.Steps[n-1].Result) {
			t.Errorf("table's last row %q", row)
		}
		b.snap(fig, "chart-breaker-"+lang)
	},
	"depth": func(t *testing.T, b *browserEnv, lang, fig, raw string) {
		var want depthData
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Labels []string
			Sets   []struct {
				Label string
				Data  []int
			}
		}
		b.chartEval(fmt.Sprintf(`(function () { var c = Chart.getChart(document.querySelector('%s canvas'));
			return { Labels: c.data.labels, Sets: c.data.datasets.map(function (d) { return { Label: d.label, Data: d.data }; }) }; })()`, fig), &got)
		if len(got.Sets) != len(want.Series) || !slices.Equal(got.Labels, want.Series[0].Layers) {
			t.Fatalf("drawn %+v", got)
		}
		for i, s := range want.Series {
			if !slices.Equal(got.Sets[i].Data, s.Calls) || !strings.Contains(got.Sets[i].Label, strconv.Itoa(s.Tries)) {
				t.Errorf("series %d: drawn %+v, the program printed %d tries: %v", i, got.Sets[i], s.Tries, s.Calls)
			}
		}
		if n := b.painted(fig + " canvas"); n < 3000 {
			t.Errorf("the canvas is nearly empty: %d pixels painted", n)
		}
		last := want.Series[len(want.Series)-1]
		if row := b.text(fig + " .chart-table tbody tr:last-child"); !strings.Contains(row, strconv.Itoa(last.Calls[len(last.Calls)-1])) {
			t.Errorf("table's last row %q", row)
		}
		b.snap(fig, "chart-depth-"+lang)
	},
	"failover": func(t *testing.T, b *browserEnv, lang, fig, raw string) {
		var want failoverData
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		if len(want.Runs) != 4 {
			t.Fatalf("%d runs, the lesson compares four", len(want.Runs))
		}
		for mi, m := range failoverMetrics {
			b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s fieldset[data-name=metric] input[value="%d"]`, fig, mi))))
			got := b.drawn(fig)
			if got.Shown != m || len(got.Sets) < len(want.Runs) {
				t.Fatalf("%s: shown %q with %d lines", m, got.Shown, len(got.Sets))
			}
			for i, r := range want.Runs {
				series := map[string][]int{"load": r.Load, "useful": r.Useful, "queue": r.Queue, "lost": r.Lost}[m]
				if got.Sets[i].Label != r.Name || !slices.Equal(got.Sets[i].Data, series) {
					t.Errorf("%s of %s: drawn %v, the program printed %v", m, r.Name, got.Sets[i].Data, series)
				}
			}
			if m == "load" && (len(got.Sets) != len(want.Runs)+1 || got.Sets[len(want.Runs)].Data[0] != want.Capacity) {
				t.Errorf("no capacity line at %d", want.Capacity)
			}
		}
		notes := b.text(fig + " .chart-notes")
		for _, r := range want.Runs {
			if !strings.Contains(notes, r.Name) || (r.Recovery >= 0 && !strings.Contains(notes, strconv.Itoa(r.Recovery))) {
				t.Errorf("notes %q lack %s (%d)", notes, r.Name, r.Recovery)
			}
		}
		if n := b.painted(fig + " canvas"); n < 5000 {
			t.Errorf("the canvas is nearly empty: %d pixels painted", n)
		}
		b.do(chromedp.Click(chromedp.CSS(fig + ` fieldset[data-name=metric] input[value="0"]`)))
		b.snap(fig, "chart-failover-"+lang)
	},
	"queue": func(t *testing.T, b *browserEnv, lang, fig, raw string) {
		var want queueData
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		if len(want.Runs) != 3 {
			t.Fatalf("%d runs, the lesson compares three rules", len(want.Runs))
		}
		for i, r := range want.Runs {
			b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s fieldset[data-name=policy] input[value="%d"]`, fig, i))))
			got := b.drawn(fig)
			if got.Shown != r.Policy || len(got.Sets) != 3 {
				t.Fatalf("%s: shown %q with %d data sets", r.Policy, got.Shown, len(got.Sets))
			}
			if !slices.Equal(got.Sets[0].Data, r.Useful) || !slices.Equal(got.Sets[1].Data, r.Wasted) {
				t.Errorf("%s: drawn %v and %v, the program printed %v and %v", r.Policy,
					got.Sets[0].Data, got.Sets[1].Data, r.Useful, r.Wasted)
			}
			if got.Sets[2].Data[0] != want.Demand {
				t.Errorf("%s: the demand line at %d, want %d", r.Policy, got.Sets[2].Data[0], want.Demand)
			}
			for _, l := range got.Sets {
				if l.Label == "" {
					t.Errorf("%s: a data set without a legend label", r.Policy)
				}
			}
		}
		if n := b.painted(fig + " canvas"); n < 5000 {
			t.Errorf("the canvas is nearly empty: %d pixels painted", n)
		}
		b.do(chromedp.Click(chromedp.CSS(fig + ` fieldset[data-name=policy] input[value="0"]`)))
		b.snap(fig, "chart-queue-"+lang)
	},
}
