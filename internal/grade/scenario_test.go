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
	js, err := os.ReadFile(filepath.Join(dir, DetailFile(0)))
	if err != nil {
		t.Fatal(err)
	}
	arg := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(js)), "reportDetail(0,"), ");")
	var page string
	if err := json.Unmarshal([]byte(arg), &page); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
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
