package grade

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/browsertest"
	"github.com/workbook-course/workbook/internal/i18n"
)

// scenarioClass is a class of two: one student whose client stormed the service (a failed
// scenario case, with the course's policy beside it and a first moment past a limit), one who
// passed it.
func scenarioClass() *Report {
	load := make([]int, 140)
	served := make([]int, 140)
	load[0], load[100], load[127] = 2000, 1900, 2000
	served[100], served[127] = 50, 50
	failed := checker.CaseResult{Name: "01-storm", Visible: true, Status: checker.Fail, Message: checker.MsgMetricLimit,
		Args: []string{"-scenario", "storm", "-seed", "1", "-reference"},
		Metrics: []checker.Metric{
			{Name: "peak_load", Value: 2000, Reached: true, Limit: 100},
			{Name: "all_served_s", Limit: 32},
			{Name: "requests_per_client", Value: 12.5, Reached: true, Limit: 12},
			{Name: "clients_stuck", Value: 0, Reached: true, Limit: 0, OK: true},
		},
		Scenario: &checker.ScenarioRun{Name: "storm", Seed: 1, Clients: 2000, Rate: 50, Down: 100, TickMs: 100,
			Load: load, Served: served, Reference: []int{2000, 0, 0, 40, 44}, FirstOver: 127, Stopped: -1}}
	passed := failed
	passed.Status, passed.Message = checker.Pass, ""
	passed.Metrics = []checker.Metric{{Name: "peak_load", Value: 40, Reached: true, Limit: 100, OK: true}}
	rep := &Report{Exercise: "exercise-storm-client", Cases: []CaseInfo{{Name: "01-storm", Visible: true}}}
	rep.Students = []Student{
		{Name: "Анна", Status: StatusFail, Total: 1, Lang: "ru",
			Result: &checker.Result{Verdict: checker.Fail, Total: 1, Cases: []checker.CaseResult{failed}}},
		{Name: "Борис", Status: StatusPass, Total: 1, Passed: 1, Score: 100, Lang: "ru",
			Result: &checker.Result{Verdict: checker.Pass, Total: 1, Passed: 1, Cases: []checker.CaseResult{passed}}},
	}
	rep.Finalize()
	return rep
}

// TestScenarioChartInReport opens report.html from the disk in Chromium, as an instructor does, and
// a student's details: the failed scenario case's chart is drawn by the course's charts.js, which
// the report carries beside it, from the series the run measured, with the limits' lines, the first
// moment past a limit marked and the figures as a table in the instructor's language; the series'
// table is written when it is opened.
func TestScenarioChartInReport(t *testing.T) {
	exe := browsertest.Chromium(t)
	out := t.TempDir()
	rep := scenarioClass()
	if err := Write(out, rep, "ru"); err != nil {
		t.Fatal(err)
	}
	do, eval, shot, shots := reportBrowser(t, exe, "grade-scenario-", 2*time.Minute)
	do(chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, HTMLFile))+"#st-0"),
		chromedp.WaitVisible(chromedp.CSS("#detail figure.chart-scenario[data-rendered]")))
	fig := "#detail figure.chart-scenario"
	chart, err := browsertest.ParseScenarioChart(eval(browsertest.ScenarioChartJS(fig)))
	if err != nil {
		t.Fatal(err)
	}
	cs := rep.Students[0].Result.Cases[0]
	browsertest.CheckScenarioChart(t, "Анна", chart, cs, func(v float64) string { return i18n.Decimal("ru", v, -1) })
	if !strings.Contains(chart.FirstOver, "Первый выход за предел: 12,7") {
		t.Errorf("the note of the first moment past a limit: %q", chart.FirstOver)
	}
	// The series' table: its head in the page, its rows written when it is opened.
	table := fig + " details.chart-table"
	if n := eval(`String(document.querySelectorAll('` + table + ` tbody tr').length)`); n != "0" {
		t.Errorf("the series' table has %s rows before it is opened, want them written when it is", n)
	}
	eval(`(function(){ document.querySelector('` + table + `').open = true; return ''; })()`)
	do(chromedp.WaitVisible(chromedp.CSS(table + " tbody tr")))
	rows := eval(`(function(){ var r = document.querySelectorAll('` + table + ` tbody tr'); return r.length + '|' + r[127].textContent; })()`)
	if want := "140|12712,7\u00a0с2000050"; rows != want {
		t.Errorf("the series' table: %q, want %q", rows, want)
	}
	shot("details")
	t.Logf("screenshots in %s", shots)
}

// TestReportChartFiles: the report carries the chart's scripts beside the details when a student's
// details hold a chart, and only then.
func TestReportChartFiles(t *testing.T) {
	for _, tt := range []struct {
		name  string
		rep   *Report
		files bool
	}{{"scenario", scenarioClass(), true}, {"plain", browserClass(), false}} {
		out := t.TempDir()
		if err := Write(out, tt.rep, "en"); err != nil {
			t.Fatal(err)
		}
		for _, f := range ChartFiles {
			_, err := os.Stat(filepath.Join(out, DetailsDir, f))
			if (err == nil) != tt.files {
				t.Errorf("%s: %s/%s: %v, want it there %v", tt.name, DetailsDir, f, err, tt.files)
			}
		}
	}
}
