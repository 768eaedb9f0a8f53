package browsertest

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/report"
)

// ScenarioChart is what the page holds of a scenario case's figure (report.ScenarioFigure) once
// charts.js has drawn it: the data sets Chart.js draws, the figures' table and the note of the first
// moment past a limit. ScenarioChartJS reads it; CheckScenarioChart compares it with the case.
type ScenarioChart struct {
	Missing  bool
	Rendered bool
	Error    string
	Sets     []ScenarioSet
	Figures  []ScenarioFigureRow
	// FirstOver is the note of the first moment past a limit ("" without one).
	FirstOver string
	// Painted counts the canvas's pixels that are not transparent.
	Painted int
}

// ScenarioSet is one data set of the chart: its kind as charts.js names it (load, reference,
// served, capacity, limit, first_over), its label, a limit's figure and axis, and its points.
type ScenarioSet struct {
	Kind, Label, Metric, Axis string
	At                        float64
	Points                    []struct {
		X float64
		Y *float64 // nil: a gap (no request in that tick)
	}
}

// ScenarioFigureRow is a row of the figures' table as the page shows it, with the raw numbers its
// cells carry (data-v).
type ScenarioFigureRow struct {
	Metric, Name, Value, RawValue, Limit, RawLimit, OK string
}

// ScenarioChartJS is JavaScript that gives the ScenarioChart of the figure selected by sel, as JSON.
func ScenarioChartJS(sel string) string {
	q, _ := json.Marshal(sel)
	return fmt.Sprintf(`(function(){var f=document.querySelector(%s);if(!f)return JSON.stringify({Missing:true});
var c=window.Chart&&Chart.getChart(f.querySelector('canvas'));
var out={Rendered:!!f.dataset.rendered,Error:f.dataset.error||'',Sets:[],Figures:[],FirstOver:'',Painted:0};
if(c)out.Sets=c.data.datasets.map(function(d){return {Kind:d.kind||'',Label:d.label||'',Metric:d.metric||'',Axis:d.axis||'',At:d.at||0,
Points:d.data.map(function(p){return {X:p.x,Y:p.y}})}});
f.querySelectorAll('table.scenario-figures tbody tr').forEach(function(r){var td=r.querySelectorAll('td');
out.Figures.push({Metric:r.dataset.metric,Name:r.querySelector('th').textContent,Value:td[0].textContent,RawValue:td[0].dataset.v||'',
Limit:td[1].textContent,RawLimit:td[1].dataset.v||'',OK:td[2].textContent})});
var n=f.querySelector('.scenario-first-over');if(n)out.FirstOver=n.textContent;
var cv=f.querySelector('canvas');var px=cv.getContext('2d').getImageData(0,0,cv.width||1,cv.height||1).data;
for(var i=3;i<px.length;i+=4)if(px[i]>0)out.Painted++;
return JSON.stringify(out);})()`, q)
}

// ParseScenarioChart reads what ScenarioChartJS gave.
func ParseScenarioChart(s string) (ScenarioChart, error) {
	var c ScenarioChart
	err := json.Unmarshal([]byte(s), &c)
	return c, err
}

// CheckScenarioChart compares the chart the page drew with the case as the checker reported it
// (check --json): the load of the learner's clients, the course's policy's and the answers, tick by
// tick; a line at every limit the chart has an axis for (report.ScenarioAxis); the first moment past
// a limit marked exactly when the run reported one, and at that instant; the figures' table, row by
// row: each figure's value and limit, in the page's language (decimal) and as raw numbers, and
// whether it is within its limit.
func CheckScenarioChart(t testing.TB, name string, got ScenarioChart, cs checker.CaseResult, decimal func(float64) string) {
	t.Helper()
	run := cs.Scenario
	if got.Missing || !got.Rendered || got.Error != "" {
		t.Errorf("%s: the chart is not drawn (missing %v, rendered %v, error %q)", name, got.Missing, got.Rendered, got.Error)
		return
	}
	if got.Painted == 0 {
		t.Errorf("%s: nothing painted on the canvas", name)
	}
	sets := map[string][]ScenarioSet{}
	for _, s := range got.Sets {
		sets[s.Kind] = append(sets[s.Kind], s)
	}
	n := max(len(run.Load), len(run.Served), len(run.Reference))
	series := func(kind string, want []int) {
		if len(want) == 0 && kind != "load" { // a run with no answer (or no policy beside it) draws none
			if len(sets[kind]) != 0 {
				t.Errorf("%s: a %s series is drawn that the run did not report", name, kind)
			}
			return
		}
		if len(sets[kind]) != 1 {
			t.Errorf("%s: %d %s series drawn, want 1", name, len(sets[kind]), kind)
			return
		}
		pts := sets[kind][0].Points
		if len(pts) != n {
			t.Errorf("%s: %s has %d points, want %d", name, kind, len(pts), n)
			return
		}
		for i, p := range pts {
			w := 0
			if i < len(want) {
				w = want[i]
			}
			g := 0.0
			if p.Y != nil {
				g = *p.Y
			}
			if g != float64(w) || math.Abs(p.X-float64(i*run.TickMs)/1000) > 1e-9 {
				t.Errorf("%s: %s at tick %d is (%v, %v), the run measured %d at %v s", name, kind, i, p.X, g, w, float64(i*run.TickMs)/1000)
				return
			}
		}
	}
	series("load", run.Load)
	series("reference", run.Reference)
	series("served", run.Served)
	if len(sets["capacity"]) != 1 {
		t.Errorf("%s: %d capacity lines, want 1", name, len(sets["capacity"]))
	}
	for _, m := range cs.Metrics {
		axis := report.ScenarioAxis(m.Name)
		found := false
		for _, l := range sets["limit"] {
			if l.Metric == m.Name {
				found = l.Axis == axis && l.At == m.Limit
				if !found {
					t.Errorf("%s: %s's line on axis %q at %v, want %q at %v", name, m.Name, l.Axis, l.At, axis, m.Limit)
				}
			}
		}
		if axis != "" && !found {
			t.Errorf("%s: no line at the limit of %s", name, m.Name)
		}
	}
	if run.FirstOver >= 0 {
		at := float64(run.FirstOver*run.TickMs) / 1000
		if len(sets["first_over"]) != 1 || math.Abs(sets["first_over"][0].At-at) > 1e-9 {
			t.Errorf("%s: the first moment past a limit (%v s) is not marked: %+v", name, at, sets["first_over"])
		}
		if !strings.Contains(got.FirstOver, decimal(at)) {
			t.Errorf("%s: the note %q does not say %s", name, got.FirstOver, decimal(at))
		}
	} else if len(sets["first_over"]) != 0 || got.FirstOver != "" {
		t.Errorf("%s: a first moment past a limit is marked that the run did not report", name)
	}
	if len(got.Figures) != len(cs.Metrics) {
		t.Errorf("%s: the table has %d figures, the run %d", name, len(got.Figures), len(cs.Metrics))
		return
	}
	for i, m := range cs.Metrics {
		row := got.Figures[i]
		raw := ""
		if m.Reached {
			raw = strconv.FormatFloat(m.Value, 'f', -1, 64)
			if !strings.Contains(row.Value, decimal(m.Value)) {
				t.Errorf("%s: %s shows %q, want %s in it", name, m.Name, row.Value, decimal(m.Value))
			}
		}
		if row.Metric != m.Name || row.RawValue != raw || row.RawLimit != strconv.FormatFloat(m.Limit, 'f', -1, 64) ||
			!strings.Contains(row.Limit, decimal(m.Limit)) || strings.Contains(row.OK, "✓") != m.OK || row.Name == "" {
			t.Errorf("%s: row %d of the table is %+v, the run's figure %+v", name, i, row, m)
		}
	}
}
