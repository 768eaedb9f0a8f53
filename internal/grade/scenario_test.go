package grade

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestScenarioInReport: a student's scenario case shows in report.html as its figures against
// their limits and the chart, never as the harness's raw report, and results.json carries the
// figures.
func TestScenarioInReport(t *testing.T) {
	cs := checker.CaseResult{Name: "01-storm", Visible: true, Status: checker.Fail, Message: checker.MsgMetricLimit,
		Got:     "scenario storm seed 1\nload 2000 2000\nmetric peak_load 2000 100\n",
		Metrics: []checker.Metric{{Name: "peak_load", Value: 2000, Reached: true, Limit: 100}},
		Scenario: &checker.ScenarioRun{Name: "storm", Seed: 1, TickMs: 100, Down: 100, Load: []int{2000, 2000},
			FirstOver: -1, Stopped: -1}}
	rep := &Report{Exercise: "exercise-storm-client", Cases: []CaseInfo{{Name: "01-storm", Visible: true}}}
	rep.Students = append(rep.Students, Student{Name: "anna", Status: StatusFail, Total: 1,
		Result: &checker.Result{Verdict: checker.Fail, Total: 1, Cases: []checker.CaseResult{cs}}})
	rep.Finalize()
	// The student's failures are in their details beside report.html (details/st-0.js), which the
	// page loads when the student is opened: a JSON string of HTML.
	dir := t.TempDir()
	if err := Details(dir, rep, "en"); err != nil {
		t.Fatal(err)
	}
	page := detailHTML(t, dir, 0)
	for _, want := range []string{"Figures past their limits.", "✗ peak after the service came back: 2000 requests a tick (limit 100)", "your client"} {
		if !strings.Contains(page, want) {
			t.Errorf("the student's details lack %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "metric peak_load") {
		t.Error("the student's details show the harness's raw report")
	}
	data, err := json.Marshal(rep.Students[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"metrics":[{"name":"peak_load","value":2000,"reached":true,"limit":100,"ok":false}]`) {
		t.Errorf("results.json's student lacks the figures: %s", data)
	}
}

// TestScenarioPassedInReport: a passed scenario case shows too, in the student's details (its
// figures against their limits and its chart, below the failures), in the feedback file, and
// results.json carries its figures; the main page holds no chart, whatever the class's size.
func TestScenarioPassedInReport(t *testing.T) {
	load := make([]int, 300)
	load[0], load[1], load[100], load[150] = 2000, 2000, 44, 30
	pass := checker.CaseResult{Name: "01-storm", Visible: true, Status: checker.Pass,
		Args: []string{"-scenario", "storm", "-seed", "1", "-reference"},
		Metrics: []checker.Metric{
			{Name: "peak_load", Value: 44, Reached: true, Limit: 100, OK: true},
			{Name: "all_served_s", Value: 29.6, Reached: true, Limit: 32, OK: true},
		},
		Scenario: &checker.ScenarioRun{Name: "storm", Seed: 1, Rate: 50, TickMs: 100, Down: 100, Load: load,
			Reference: []int{2000, 2000, 90, 40}, FirstOver: -1, Stopped: -1}}
	fail := checker.CaseResult{Name: "02-outage", Visible: true, Status: checker.Fail, Message: checker.MsgMetricLimit,
		Metrics: []checker.Metric{{Name: "requests_per_client", Value: 40, Reached: true, Limit: 20}},
		Scenario: &checker.ScenarioRun{Name: "outage", Seed: 1, Rate: 50, TickMs: 100, Down: 600, Load: []int{2000},
			FirstOver: -1, Stopped: -1}}
	tests := []struct {
		name  string
		cases []checker.CaseResult
	}{
		{"all-passed", []checker.CaseResult{pass}},
		{"one-failed", []checker.CaseResult{pass, fail}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			passed := 0
			for _, c := range tt.cases {
				if c.Status == checker.Pass {
					passed++
				}
			}
			verdict, status := checker.Pass, StatusPass
			if passed < len(tt.cases) {
				verdict, status = checker.Fail, StatusFail
			}
			rep := &Report{Exercise: "exercise-storm-client"}
			for _, c := range tt.cases {
				rep.Cases = append(rep.Cases, CaseInfo{Name: c.Name, Visible: true})
			}
			rep.Students = append(rep.Students, Student{Name: "anna", Status: status, Total: len(tt.cases), Passed: passed,
				Result: &checker.Result{Verdict: verdict, Total: len(tt.cases), Passed: passed, Cases: tt.cases}})
			rep.Finalize()
			dir := t.TempDir()
			if err := Details(dir, rep, "en"); err != nil {
				t.Fatal(err)
			}
			page := detailHTML(t, dir, 0)
			for _, want := range []string{"What passed: the scenarios", `id="st-0-c-0" class="pass"`,
				"✓ peak after the service came back: 44 requests a tick (limit 100)", `id="st-0-fig-0"`, "your client"} {
				if !strings.Contains(page, want) {
					t.Errorf("the student's details lack %q:\n%s", want, page)
				}
			}
			for _, f := range ChartFiles {
				if _, err := os.Stat(filepath.Join(dir, DetailsDir, f)); err != nil {
					t.Errorf("the chart's files are not beside the details: %v", err)
				}
			}
			var main strings.Builder
			if err := HTML(&main, rep, "en"); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(main.String(), "chart-scenario") || strings.Contains(main.String(), "What passed") {
				t.Error("report.html itself holds a scenario's figures or chart: they belong in the details")
			}
			data, err := json.Marshal(rep.Students[0])
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), `{"name":"peak_load","value":44,"reached":true,"limit":100,"ok":true}`) {
				t.Errorf("results.json's student lacks the passed case's figures: %s", data)
			}
		})
	}
}
