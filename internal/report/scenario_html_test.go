package report

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// TestScenarioAxis: a figure's limit is drawn by what its name says it measures, whatever scenario
// printed it.
func TestScenarioAxis(t *testing.T) {
	tests := []struct{ metric, want string }{
		{"peak_load", "y"}, {"deep_load", "y"}, {"all_served_s", "x"}, {"recovered_s", "x"},
		{"requests_per_client", ""}, {"clients_stuck", ""}, {"amplification", ""},
	}
	for _, tt := range tests {
		if got := ScenarioAxis(tt.metric); got != tt.want {
			t.Errorf("ScenarioAxis(%q) = %q, want %q", tt.metric, got, tt.want)
		}
	}
}

// figureCase is a failed scenario case as the checker records it: the storm's figures, a figure
// of a scenario kind the chart has never heard of, and the course's policy beside the client.
func figureCase() checker.CaseResult {
	return checker.CaseResult{Name: "01-storm", Title: "storm", Visible: true, Status: checker.Fail, Message: checker.MsgMetricLimit,
		Metrics: []checker.Metric{
			{Name: "peak_load", Value: 2000, Reached: true, Limit: 100},
			{Name: "all_served_s", Limit: 32},
			{Name: "requests_per_client", Value: 9.9, Reached: true, Limit: 12, OK: true},
			{Name: "layer_factor", Value: 2.5, Reached: true, Limit: 3, OK: true},
		},
		Scenario: &checker.ScenarioRun{Name: "storm", Seed: 17, Clients: 2000, Rate: 50, Cost: 10, Down: 100, TickMs: 100,
			Load: []int{2000, 0, 7}, Served: []int{0, 0, 7}, Reference: []int{2000, 3},
			FirstOver: 127, Stopped: -1}}
}

// TestScenarioFigure: a scenario case's figure carries, for charts.js, exactly the series the run
// measured and a line at each limit the chart has an axis for; its figures as a table (name, value,
// limit, within it) and its series as a table; a description and the first moment past a limit,
// in each language. A hidden case's figure names no seed; a case of any other kind has none.
func TestScenarioFigure(t *testing.T) {
	tests := []struct {
		lang string
		want []string
	}{
		{"ru", []string{"Запросов за такт в тесте 01-storm", "Клиентов: 2000", "Первые 10\u00a0с сервер лежит",
			"Отказ стоит серверу 10\u00a0% ответа.", "Рядом\u00a0— нагрузка от политики курса", "Сценарий storm, зерно 17.",
			"Первый выход за предел: 12,7\u00a0с от начала.",
			`<th scope="row">пик после подъёма сервера, запросов за такт</th><td data-v="2000">2000</td><td data-v="100">100</td><td>✗ нет</td>`,
			`<th scope="row">все клиенты обслужены</th><td data-v="">не достигнуто</td><td data-v="32">32` + "\u00a0с</td><td>✗ нет</td>",
			`<td data-v="9.9">9,9</td><td data-v="12">12</td><td>✓ да</td>`,
			`<th scope="row">layer_factor</th><td data-v="2.5">2,5</td>`,
			"<tr><th>2</th><td>0,2\u00a0с</td><td>7</td><td>0</td><td>7</td></tr>"}},
		{"bg", []string{"Заявки на тик в тест 01-storm", "Клиенти: 2000", "Сценарий storm, начална стойност 17.",
			"Първо излизане извън граница: 12,7\u00a0с от началото.", "<td>✓ да</td>", "не е достигнат"}},
		{"en", []string{"Requests a tick in case 01-storm", "Clients: 2000", "Scenario storm, seed 17.",
			"First past a limit: 12.7\u00a0s from the start.", `<td data-v="9.9">9.9</td>`, "never reached", "<td>✗ no</td>"}},
	}
	for _, tt := range tests {
		pr := i18n.New(tt.lang)
		var b strings.Builder
		if !ScenarioFigure(&b, pr, figureCase(), "fig-1", true) {
			t.Fatalf("%s: no figure", tt.lang)
		}
		page := b.String()
		text := html.UnescapeString(page)
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the figure lacks %q:\n%s", tt.lang, w, text)
			}
		}
		data := figureData(t, page)
		if got, want := ints(data.Load), "2000 0 7"; got != want {
			t.Errorf("%s: load %q, want %q", tt.lang, got, want)
		}
		if got, want := ints(data.Reference), "2000 3"; got != want {
			t.Errorf("%s: reference %q, want %q", tt.lang, got, want)
		}
		if data.FirstOver != 127 || data.Rate != 50 || data.Down != 100 || data.TickMs != 100 {
			t.Errorf("%s: %+v", tt.lang, data)
		}
		var lines []string
		for _, l := range data.Lines {
			lines = append(lines, l.Metric+" "+l.Axis+" "+checkerFloat(l.At)+" from "+checkerFloat(l.From))
		}
		if got, want := strings.Join(lines, "; "), "peak_load y 100 from 10; all_served_s x 32 from 0"; got != want {
			t.Errorf("%s: lines %q, want %q", tt.lang, got, want)
		}
	}

	hidden := figureCase()
	hidden.Visible = false
	var b strings.Builder
	ScenarioFigure(&b, i18n.New("en"), hidden, "fig-2", false)
	if strings.Contains(b.String(), "seed") || strings.Contains(b.String(), "17") {
		t.Errorf("a hidden case's figure names its seed:\n%s", b.String())
	}
	if !strings.Contains(b.String(), `data-rows="series" data-seconds="{S}`+"\u00a0s\"") || strings.Contains(b.String(), "<tr><th>0</th>") {
		t.Errorf("without rows, the series table should have its head only and say how to write seconds:\n%s", b.String())
	}
	// The outage: no figure with an axis, so no line; charts.js still gets a list.
	outage := figureCase()
	outage.Metrics = outage.Metrics[2:3]
	b.Reset()
	ScenarioFigure(&b, i18n.New("en"), outage, "fig-3", true)
	if !strings.Contains(b.String(), `"lines":[]`) {
		t.Errorf("a figure without lines should carry an empty list:\n%s", b.String())
	}
	for _, cs := range []checker.CaseResult{{Name: "01", Status: checker.Fail, Diff: &checker.Diff{Line: 1}},
		{Name: "02", Status: checker.Fail, Message: checker.MsgNoMetrics}} {
		b.Reset()
		if ScenarioFigure(&b, i18n.New("ru"), cs, "x", true) || b.Len() != 0 {
			t.Errorf("case %s got a figure: %q", cs.Name, b.String())
		}
	}
}

// TestScenarioFigures: the check's charts come under one heading, a failed case's open, a passed
// one's folded, or the first open when none failed; a result without scenario cases has none.
func TestScenarioFigures(t *testing.T) {
	failed, passed := figureCase(), figureCase()
	passed.Name, passed.Status = "02-storm-cost", checker.Pass
	tests := []struct {
		cases []checker.CaseResult
		want  string // the cases' details elements, "name open" or "name"
	}{
		{[]checker.CaseResult{passed, failed, {Name: "03-plain", Status: checker.Pass}}, "02-storm-cost; 01-storm open"},
		{[]checker.CaseResult{passed, passed}, "02-storm-cost open; 02-storm-cost"},
		{[]checker.CaseResult{{Name: "03-plain", Status: checker.Pass}}, ""},
	}
	re := regexp.MustCompile(`<details class="scenario-case" data-case="([^"]*)"( open)?>`)
	for _, tt := range tests {
		var b strings.Builder
		ok := ScenarioFigures(&b, i18n.New("en"), &checker.Result{Cases: tt.cases}, "scenario")
		var got []string
		for _, m := range re.FindAllStringSubmatch(b.String(), -1) {
			got = append(got, m[1]+m[2])
		}
		if strings.Join(got, "; ") != tt.want || ok != (tt.want != "") {
			t.Errorf("got %q (%v), want %q", got, ok, tt.want)
		}
		if ok && (!strings.Contains(b.String(), "What your clients did") || !strings.Contains(b.String(), `id="scenario-1"`)) {
			t.Errorf("no heading or no figure id of the case's index:\n%s", b.String())
		}
	}
}

// figureData is the JSON charts.js reads from a figure.
func figureData(t *testing.T, page string) scenarioChart {
	t.Helper()
	_, rest, ok := strings.Cut(page, `<script type="application/json" class="chart-data">`)
	raw, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		t.Fatalf("no data in the figure:\n%s", page)
	}
	var d scenarioChart
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		t.Fatal(err)
	}
	if d.Chart != "scenario" {
		t.Errorf("chart kind %q", d.Chart)
	}
	return d
}

func ints(a []int) string {
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = checkerFloat(float64(v))
	}
	return strings.Join(s, " ")
}

func checkerFloat(v float64) string { return i18n.Decimal("en", v, -1) }

// TestScenarioDesc: a chart's description says what kind of incident the run was, from the header
// of the run's report (checker.ParseScenario): a crowd at once, a call chain or an open system.
func TestScenarioDesc(t *testing.T) {
	header := map[string]string{
		"storm":      "scenario storm seed 1 clients 2000 rate 50 cost 0 down 100 tick 100ms\nload 1\n",
		"chain":      "scenario chain seed 1 clients 4000 rate 50 cost 0 down 80 tick 100ms layers 4 arrivals 20\nload 1\n",
		"metastable": "scenario metastable seed 1 clients 8 rate 10 cost 0 down 50 tick 100ms from 20 slow 4 calls 1 deadline 30 fail 5\nload 1\n",
	}
	tests := []struct {
		lang, kind string
		want       []string
	}{
		{"ru", "storm", []string{"Клиентов: 2000", "разом", "10\u00a0с"}},
		{"ru", "chain", []string{"цепочку из 4 слоёв", "20 за такт", "8\u00a0с"}},
		{"ru", "metastable", []string{"Клиентов: 8", "с 2 до 5\u00a0с", "только на 4"}},
		{"bg", "chain", []string{"верига от 4 слоя", "20 на тик"}},
		{"bg", "metastable", []string{"от 2 до 5\u00a0с", "само на 4"}},
		{"en", "chain", []string{"a chain of 4 layers", "For the first 8 s"}},
		{"en", "metastable", []string{"from 2 s to 5 s", "only 4"}},
	}
	for _, tt := range tests {
		run, _, ok := checker.ParseScenario(header[tt.kind])
		if !ok {
			t.Fatalf("%s: no scenario", tt.kind)
		}
		got := scenarioDesc(i18n.New(tt.lang), run)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s %s: %q lacks %q", tt.lang, tt.kind, got, w)
			}
		}
	}
}
