package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// The chart of a scenario case, for the browser (`workbook serve`'s check result) and for
// report.html's student details: ScenarioFigure writes an HTML figure that charts.js (package
// internal/web/static) draws with Chart.js, as it draws the lessons' charts. As there, the chart
// draws only what the run measured (checker.ScenarioRun: the load, the answers, the course's
// policy's load, the first moment past a limit) and the limits the exercise states (the figures'
// Limit); it computes nothing. The figure carries a description, the figures as a table (name,
// value, limit, within it) and the series as a table for whoever does not see the canvas.
//
// It knows no scenario: a figure's limit is drawn by what its name says it measures (ScenarioAxis),
// so a figure a new scenario adds is drawn without a change here when its name follows the rule,
// and is in the table in any case.

// ScenarioAxis says where a figure's limit is drawn on a scenario's chart, by the figure's name:
// "x" for a time in seconds (a name ending in _s: a vertical line at the limit), "y" for requests a
// tick (a name ending in _load: a horizontal line), "" for a figure the chart has no axis for (only
// in the table).
func ScenarioAxis(metric string) string {
	switch {
	case strings.HasSuffix(metric, "_s"):
		return "x"
	case strings.HasSuffix(metric, "_load"):
		return "y"
	}
	return ""
}

// scenarioChart is the figure's data for charts.js: the run's series, one number a tick, and the
// lines of the limits, each with its label in the reader's language.
type scenarioChart struct {
	Chart     string      `json:"chart"` // "scenario"
	TickMs    int         `json:"tick_ms"`
	Down      int         `json:"down"` // ticks of the trigger
	Rate      int         `json:"rate"` // answers a tick once the service is up
	Load      []int       `json:"load"`
	Served    []int       `json:"served"`
	Reference []int       `json:"reference,omitempty"`
	FirstOver int         `json:"first_over"` // tick, -1 for none
	Lines     []limitLine `json:"lines"`
}

// limitLine is a figure's limit on the chart.
type limitLine struct {
	Metric string  `json:"metric"`
	Axis   string  `json:"axis"`  // ScenarioAxis
	At     float64 `json:"at"`    // the limit: seconds (x) or requests a tick (y)
	From   float64 `json:"from"`  // seconds from which a y limit holds: the end of the trigger
	Label  string  `json:"label"` // in the reader's language
	OK     bool    `json:"ok"`
}

// ScenarioFigure writes the chart of the scenario case cs as an HTML figure with the id id, in
// pr's language, and reports whether it wrote one: a case without a measured series (not a
// scenario case, or a run that reported nothing) has none. A hidden case's figure names neither
// its scenario nor its seed, as its report gives none of its arguments. With rows false the table
// of the series has its head only, and charts.js writes its rows from the figure's data when it is
// opened: for a page that holds many figures (a class's details), the numbers once, not twice.
func ScenarioFigure(w io.Writer, pr *i18n.Printer, cs checker.CaseResult, id string, rows bool) bool {
	run := cs.Scenario
	if run == nil || run.TickMs <= 0 || len(cs.Metrics) == 0 {
		return false
	}
	data := scenarioChart{Chart: "scenario", TickMs: run.TickMs, Down: run.Down, Rate: run.Rate,
		Load: orEmpty(run.Load), Served: orEmpty(run.Served), Reference: run.Reference, FirstOver: run.FirstOver, Lines: []limitLine{}}
	for _, m := range cs.Metrics {
		axis := ScenarioAxis(m.Name)
		if axis == "" {
			continue
		}
		l := limitLine{Metric: m.Name, Axis: axis, At: m.Limit, OK: m.OK,
			Label: pr.T("scenario_chart_line", "Name", MetricName(pr, m.Name), "Limit", metricValue(pr, m.Name, m.Limit))}
		if axis == "y" { // a load is judged from the end of the trigger on (the harness's peak)
			l.From = float64(run.Down*run.TickMs) / 1000
		}
		data.Lines = append(data.Lines, l)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return false
	}
	var js bytes.Buffer
	json.HTMLEscape(&js, raw)

	esc := html.EscapeString
	title := pr.T("scenario_chart_title", "Case", cs.Name)
	desc := scenarioDesc(pr, run)
	if run.Cost > 0 {
		desc += " " + pr.T("scenario_chart_cost", "Cost", run.Cost)
	}
	if len(run.Reference) > 0 {
		desc += " " + pr.T("scenario_chart_desc_reference")
	}
	if (cs.Visible || cs.Drawn) && run.Name != "" {
		desc += " " + pr.T("scenario_chart_seed", "Name", run.Name, "Seed", strconv.FormatUint(run.Seed, 10))
	}
	firstOver := ""
	if run.FirstOver >= 0 {
		firstOver = tickSeconds(pr, run, run.FirstOver)
	}
	labels := [][2]string{
		{"x-label", pr.T("web_chart_time_s")}, {"y-label", pr.T("scenario_chart_y")},
		{"yours-label", pr.T("chart_yours")}, {"reference-label", pr.T("chart_reference")},
		{"served-label", pr.T("scenario_chart_served")},
		{"capacity-label", pr.T("scenario_chart_capacity", "Rate", run.Rate)},
		{"down-label", pr.T("web_chart_server_down")},
		{"first-over-label", pr.T("scenario_chart_first_over", "Seconds", firstOver)},
	}
	fmt.Fprintf(w, `<figure class="chart chart-scenario" id="%s" data-chart="scenario" data-case="%s"`, esc(id), esc(cs.Name))
	for _, l := range labels {
		fmt.Fprintf(w, ` data-%s="%s"`, l[0], esc(l[1]))
	}
	fmt.Fprintf(w, ">\n<figcaption>%s</figcaption>\n", esc(title))
	fmt.Fprintf(w, `<p class="chart-desc" id="%s-desc">%s</p>`+"\n", esc(id), esc(desc))
	if run.Stopped >= 0 {
		fmt.Fprintf(w, `<p class="scenario-stopped">%s</p>`+"\n", esc(StoppedText(pr, run)))
	}
	if firstOver != "" {
		fmt.Fprintf(w, `<p class="scenario-first-over">%s</p>`+"\n", esc(pr.T("scenario_first_over", "Seconds", firstOver)))
	}
	fmt.Fprintf(w, `<div class="chart-box wide"><canvas role="img" aria-label="%s" aria-describedby="%s-desc"></canvas></div>`+"\n",
		esc(title), esc(id))
	fmt.Fprintf(w, `<script type="application/json" class="chart-data">%s</script>`+"\n", js.String())
	writeFigures(w, pr, cs.Metrics)
	writeSeries(w, pr, run, rows)
	io.WriteString(w, "</figure>\n")
	return true
}

// MetricName is a figure's short name in pr's language (metric_name_NAME), or its name as the run
// printed it when the catalogue has none.
func MetricName(pr *i18n.Printer, metric string) string {
	id := "metric_name_" + metric
	if s := pr.T(id); s != id {
		return s
	}
	return metric
}

// metricValue writes a figure's value or limit in pr's language, in seconds for a time.
func metricValue(pr *i18n.Printer, metric string, v float64) string {
	s := pr.Decimal(v, -1)
	if ScenarioAxis(metric) == "x" {
		return pr.T("web_chart_seconds", "S", s)
	}
	return s
}

// writeFigures writes the figures against their limits as a table: name, value, limit, within it.
func writeFigures(w io.Writer, pr *i18n.Printer, ms []checker.Metric) {
	esc := html.EscapeString
	fmt.Fprintf(w, "<table class=\"scenario-figures\">\n<caption>%s</caption>\n<thead><tr>", esc(pr.T("scenario_chart_figures")))
	for _, h := range []string{"scenario_chart_col_name", "scenario_chart_col_value", "scenario_chart_col_limit", "scenario_chart_col_ok"} {
		fmt.Fprintf(w, `<th scope="col">%s</th>`, esc(pr.T(h)))
	}
	io.WriteString(w, "</tr></thead>\n<tbody>\n")
	for _, m := range ms {
		value, raw := pr.T("scenario_chart_never"), ""
		if m.Reached {
			value, raw = metricValue(pr, m.Name, m.Value), strconv.FormatFloat(m.Value, 'f', -1, 64)
		}
		ok, cls := pr.T("scenario_chart_ok"), "ok"
		if !m.OK {
			ok, cls = pr.T("scenario_chart_over"), "bad"
		}
		fmt.Fprintf(w, `<tr data-metric="%s" class="%s"><th scope="row">%s</th><td data-v="%s">%s</td><td data-v="%s">%s</td><td>%s</td></tr>`+"\n",
			esc(m.Name), cls, esc(MetricName(pr, m.Name)), raw, esc(value),
			strconv.FormatFloat(m.Limit, 'f', -1, 64), esc(metricValue(pr, m.Name, m.Limit)), esc(ok))
	}
	io.WriteString(w, "</tbody></table>\n")
}

// writeSeries writes the series tick by tick as a table, in a closed details element; with rows
// false, its head only (data-rows: charts.js writes the rows, seconds as data-seconds says).
func writeSeries(w io.Writer, pr *i18n.Printer, run *checker.ScenarioRun, rows bool) {
	n := max(len(run.Load), len(run.Served), len(run.Reference))
	if n == 0 {
		return
	}
	esc := html.EscapeString
	head := []string{pr.T("web_chart_tick"), pr.T("web_chart_time"), pr.T("chart_yours")}
	if len(run.Reference) > 0 {
		head = append(head, pr.T("chart_reference"))
	}
	head = append(head, pr.T("scenario_chart_served"))
	attr := ""
	if !rows {
		attr = fmt.Sprintf(` data-rows="series" data-seconds="%s"`, esc(pr.T("web_chart_seconds", "S", "{S}")))
	}
	fmt.Fprintf(w, "<details class=\"chart-table\"%s><summary>%s</summary>\n<div class=\"chart-table-scroll\"><table>\n<caption>%s</caption>\n<thead><tr>",
		attr, esc(pr.T("web_chart_table")), esc(pr.T("scenario_chart_series")))
	for _, h := range head {
		fmt.Fprintf(w, `<th scope="col">%s</th>`, esc(h))
	}
	io.WriteString(w, "</tr></thead>\n<tbody>\n")
	var b strings.Builder
	for t := range n {
		if !rows {
			break
		}
		b.Reset()
		fmt.Fprintf(&b, "<tr><th>%d</th><td>%s</td><td>%d</td>", t, esc(pr.T("web_chart_seconds", "S", tickSeconds(pr, run, t))), tickAt(run.Load, t))
		if len(run.Reference) > 0 {
			fmt.Fprintf(&b, "<td>%d</td>", tickAt(run.Reference, t))
		}
		fmt.Fprintf(&b, "<td>%d</td></tr>\n", tickAt(run.Served, t))
		io.WriteString(w, b.String())
	}
	io.WriteString(w, "</tbody></table></div>\n</details>\n")
}

// tickAt is a[i], 0 past its end (a series stops at its last number that is not 0).
func tickAt(a []int, i int) int {
	if i < len(a) {
		return a[i]
	}
	return 0
}

func orEmpty(a []int) []int {
	if a == nil {
		return []int{}
	}
	return a
}

// ScenarioFigures writes the charts of res's scenario cases under a heading, and reports whether
// there was one: each case's figure (ScenarioFigure) with the id prefix-N, N the case's index; a
// failed case's figure shown, a passed one's folded under its name, unless no case failed: then
// the first is shown too.
func ScenarioFigures(w io.Writer, pr *i18n.Printer, res *checker.Result, prefix string) bool {
	type fig struct {
		name, summary, body string
		failed              bool
	}
	var figs []fig
	anyFailed := false
	for i, cs := range res.Cases {
		var b strings.Builder
		if !ScenarioFigure(&b, pr, cs, fmt.Sprintf("%s-%d", prefix, i), true) {
			continue
		}
		f := fig{name: cs.Name, summary: "✓ " + cs.Name + caseTitle(cs), body: b.String(), failed: cs.Status != checker.Pass}
		if f.failed {
			f.summary = "✗ " + cs.Name + caseTitle(cs)
			anyFailed = true
		}
		figs = append(figs, f)
	}
	if len(figs) == 0 {
		return false
	}
	fmt.Fprintf(w, "<h3 class=\"scenario-charts-head\">%s</h3>\n", html.EscapeString(pr.T("scenario_charts_head")))
	for i, f := range figs {
		open := ""
		if f.failed || (!anyFailed && i == 0) {
			open = " open"
		}
		fmt.Fprintf(w, "<details class=\"scenario-case\" data-case=\"%s\"%s><summary>%s</summary>\n",
			html.EscapeString(f.name), open, html.EscapeString(f.summary))
		io.WriteString(w, f.body)
		io.WriteString(w, "</details>\n")
	}
	return true
}

// caseTitle is ": title" of a case that has one.
func caseTitle(cs checker.CaseResult) string {
	if cs.Title == "" {
		return ""
	}
	return ": " + cs.Title
}

// scenarioDesc says what the run of a scenario was, by its kind: a storm (a crowd at once), a call
// chain (scenario.Chain) or an open system (scenario.Open).
func scenarioDesc(pr *i18n.Printer, run *checker.ScenarioRun) string {
	switch {
	case run.Layers > 0:
		return pr.T("scenario_chart_desc_chain", "Layers", run.Layers, "Arrivals", run.Arrivals,
			"Down", tickSeconds(pr, run, run.Down), "Rate", run.Rate, "Tick", run.TickMs)
	case run.Calls > 0:
		return pr.T("scenario_chart_desc_open", "Clients", run.Clients, "Calls", run.Calls,
			"From", tickSeconds(pr, run, run.From), "To", tickSeconds(pr, run, run.Down),
			"Slow", run.Slow, "Rate", run.Rate, "Tick", run.TickMs)
	}
	return pr.T("scenario_chart_desc", "Clients", run.Clients, "Down", tickSeconds(pr, run, run.Down),
		"Rate", run.Rate, "Tick", run.TickMs)
}
