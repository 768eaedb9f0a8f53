package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// ScenarioLines explains a scenario case (checker.CaseResult.Metrics): each figure against its
// limit, the first moment the client crossed one, and a chart of the load over the run beside the
// course's policy, when the case asked for it. It gives nothing for any other case. A hidden case
// says it too: the figures are the learner's own client's and give none of the case away.
func ScenarioLines(pr *i18n.Printer, cs checker.CaseResult) []string {
	if len(cs.Metrics) == 0 {
		if cs.Message == checker.MsgNoMetrics {
			return []string{pr.T("msg_no_metrics")}
		}
		return nil
	}
	var lines []string
	for _, m := range cs.Metrics {
		mark := "✓ "
		if !m.OK {
			mark = "✗ "
		}
		lines = append(lines, mark+MetricText(pr, m))
	}
	run := cs.Scenario
	if run == nil {
		return lines
	}
	if run.Stopped >= 0 {
		lines = append(lines, StoppedText(pr, run))
	}
	if run.FirstOver >= 0 {
		lines = append(lines, pr.T("scenario_first_over", "Seconds", tickSeconds(pr, run, run.FirstOver)))
	}
	return append(lines, loadChart(pr, cs)...)
}

// MetricText says one figure and its limit in pr's language.
func MetricText(pr *i18n.Printer, m checker.Metric) string {
	limit := pr.Decimal(m.Limit, -1)
	if !m.Reached {
		return pr.T("metric_"+m.Name+"_never", "Limit", limit)
	}
	return pr.T("metric_"+m.Name, "Value", pr.Decimal(m.Value, -1), "Limit", limit)
}

// StoppedText says when and why a run was stopped for the requests its clients had sent: the bound
// is per kind of scenario (checker/scenario: a storm's 40 requests a client, a call chain's 40
// database calls a user request, an open system's 40 attempts for every call of the run;
// TestStoppedBound there keeps them so).
func StoppedText(pr *i18n.Printer, run *checker.ScenarioRun) string {
	key := "scenario_stopped"
	switch {
	case run.Layers > 0:
		key = "scenario_stopped_chain"
	case run.Calls > 0:
		key = "scenario_stopped_open"
	}
	return pr.T(key, "Seconds", tickSeconds(pr, run, run.Stopped))
}

// tickSeconds writes the instant of a tick in seconds.
func tickSeconds(pr *i18n.Printer, run *checker.ScenarioRun, tick int) string {
	return pr.Decimal(float64(tick*run.TickMs)/1000, -1)
}

// chartLevels are the heights of a chart's cell, from none to full.
var chartLevels = []rune(" ▁▂▃▄▅▆▇█")

// loadChart draws the requests a tick as one line a policy: a column a second (the busiest tick of
// that second), on a scale from 0 to twice the peak's limit, ▲ above it; the limit is the middle
// height, ▄, drawn from the end of the trigger on (· before). It draws nothing when the scenario has
// no peak limit.
func loadChart(pr *i18n.Printer, cs checker.CaseResult) []string {
	run := cs.Scenario
	limit := 0.0
	for _, m := range cs.Metrics {
		if m.Name == "peak_load" {
			limit = m.Limit
		}
	}
	if limit <= 0 || run.TickMs <= 0 || len(run.Load) == 0 {
		return nil
	}
	per := max(1, 1000/run.TickMs) // ticks a column
	cols := (max(len(run.Load), len(run.Reference)) + per - 1) / per
	row := func(load []int) string {
		var b strings.Builder
		for c := range cols {
			most := 0
			for t := c * per; t < (c+1)*per && t < len(load); t++ {
				most = max(most, load[t])
			}
			switch {
			case float64(most) > 2*limit:
				b.WriteRune('▲')
			default:
				b.WriteRune(chartLevels[int(float64(most)/(2*limit)*8+0.5)])
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	labels := []string{pr.T("chart_yours"), pr.T("chart_reference"), pr.T("chart_limit", "Limit", pr.Decimal(limit, -1))}
	width := 0
	for _, l := range labels {
		width = max(width, len([]rune(l)))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-len([]rune(s))+2) }
	lines := []string{pr.T("chart_title", "Top", pr.Decimal(2*limit, -1)), pad(labels[0]) + row(run.Load)}
	if len(run.Reference) > 0 {
		lines = append(lines, pad(labels[1])+row(run.Reference))
	}
	var lim strings.Builder
	for c := range cols {
		if c*per < run.Down {
			lim.WriteRune('·') // the trigger: no limit on the load yet
		} else {
			lim.WriteRune('▄')
		}
	}
	lines = append(lines, pad(labels[2])+lim.String())
	axis := pr.T("chart_axis", "Seconds", pr.Decimal(float64(cols*per*run.TickMs)/1000, -1))
	return append(lines, pad("")+axis)
}

// writeScenario writes ScenarioLines indented by ind.
func writeScenario(w io.Writer, pr *i18n.Printer, cs checker.CaseResult, ind string) {
	for _, l := range ScenarioLines(pr, cs) {
		fmt.Fprintln(w, ind+EscapeLine(l))
	}
}
