package report

import (
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// TestScenarioLines: a scenario case says each figure against its limit, the first moment past
// one and a chart of what the run measured, in every language; the text and Markdown reports carry
// them for visible and hidden cases alike, and no case of another kind gets any.
func TestScenarioLines(t *testing.T) {
	load := make([]int, 300)
	load[0], load[1] = 2000, 2000
	load[127], load[255] = 2000, 1950 // a wave at 12.7 s and at 25.5 s
	cs := checker.CaseResult{Name: "01-storm", Title: "storm", Visible: true, Status: checker.Fail,
		Message: checker.MsgMetricLimit, Args: []string{"-scenario", "storm", "-seed", "1"},
		Metrics: []checker.Metric{
			{Name: "peak_load", Value: 2000, Reached: true, Limit: 100},
			{Name: "all_served_s", Limit: 32},
			{Name: "requests_per_client", Value: 9.9, Reached: true, Limit: 12, OK: true},
			{Name: "clients_stuck", Value: 0, Reached: true, Limit: 0, OK: true},
		},
		Scenario: &checker.ScenarioRun{Name: "storm", Seed: 1, Rate: 50, Down: 100, TickMs: 100, Load: load,
			Reference: []int{2000, 2000, 90, 40}, FirstOver: 127, Stopped: -1}}
	tests := []struct {
		lang string
		want []string
	}{
		{"ru", []string{"Цифры вышли за пределы.", "✗ пик после подъёма сервера: 2000 запросов за такт (предел 100)",
			"✗ обслужены не все клиенты (предел 32\u00a0с)", "✓ запросов на клиента: 9,9 (предел 12)",
			"Первый выход за предел: 12,7\u00a0с от начала.", "ваш клиент      ▲           ▲            ▲",
			"политика курса  ▲\n", "предел 100      ··········▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄"}},
		{"bg", []string{"Цифрите са извън границите.", "✗ връх след вдигането на сървъра: 2000 заявки на тик (граница 100)",
			"✓ заявки на клиент: 9,9 (граница 12)", "Първо излизане извън граница: 12,7\u00a0с от началото."}},
		{"en", []string{"Figures past their limits.", "✗ every client served", "not every client was served (limit 32\u00a0s)",
			"✓ requests per client: 9.9 (limit 12)", "First past a limit: 12.7\u00a0s from the start."}},
	}
	for _, tt := range tests {
		pr := i18n.New(tt.lang)
		for _, visible := range []bool{true, false} {
			c := cs
			c.Visible = visible
			res := (&checker.Result{Verdict: checker.Fail, Total: 1, Cases: []checker.CaseResult{c}}).Redacted()
			var text, md strings.Builder
			Text(&text, res, pr, Options{})
			Markdown(&md, res, pr, Options{})
			for _, want := range tt.want {
				if want == "✗ every client served" {
					continue
				}
				if !strings.Contains(text.String(), want) {
					t.Errorf("%s visible %v: text report lacks %q:\n%s", tt.lang, visible, want, text.String())
				}
				if !strings.Contains(md.String(), want) {
					t.Errorf("%s visible %v: Markdown report lacks %q:\n%s", tt.lang, visible, want, md.String())
				}
			}
			if strings.Contains(text.String(), "metric_limit") {
				t.Errorf("%s: the message code reached the report:\n%s", tt.lang, text.String())
			}
		}
	}
	if got := ScenarioLines(i18n.New("ru"), checker.CaseResult{Status: checker.Fail, Diff: &checker.Diff{Line: 1}}); got != nil {
		t.Errorf("a transcript case got scenario lines %q", got)
	}
}

// TestStoppedText: a stopped run says the bound of its own kind of scenario, in every language.
func TestStoppedText(t *testing.T) {
	storm := &checker.ScenarioRun{Name: "storm", TickMs: 100, Stopped: 31}
	chain := &checker.ScenarioRun{Name: "chain", TickMs: 100, Stopped: 31, Layers: 4, Arrivals: 20}
	open := &checker.ScenarioRun{Name: "metastable", TickMs: 100, Stopped: 31, Calls: 1, From: 20}
	tests := []struct {
		lang      string
		run       *checker.ScenarioRun
		want, not string
	}{
		{"ru", storm, "Прогон остановлен на 3,1\u00a0с: клиенты отправили по 40\u00a0запросов на каждого.", ""},
		{"ru", chain, "база данных получила по 40\u00a0вызовов на каждый запрос пользователя", "по 40\u00a0запросов"},
		{"ru", open, "в 40\u00a0раз больше попыток, чем вызовов во всём прогоне", "по 40\u00a0запросов"},
		{"bg", storm, "по 40\u00a0заявки на човек", ""},
		{"bg", chain, "базата данни е получила по 40\u00a0извиквания за всяка потребителска заявка", "на човек"},
		{"bg", open, "40\u00a0пъти повече опити", "на човек"},
		{"en", storm, "The run was stopped at 3.1\u00a0s: the clients had sent 40\u00a0requests each.", ""},
		{"en", chain, "the database had received 40\u00a0calls for every user request", "requests each"},
		{"en", open, "40\u00a0times as many attempts as the whole run has calls", "requests each"},
	}
	for _, tt := range tests {
		got := StoppedText(i18n.New(tt.lang), tt.run)
		if !strings.Contains(got, tt.want) || (tt.not != "" && strings.Contains(got, tt.not)) {
			t.Errorf("%s %s: %q, want %q", tt.lang, tt.run.Name, got, tt.want)
		}
	}
}

// TestScenarioPassedMarkdown: the Markdown report (a student's feedback file) names a passed
// scenario case with its figures against their limits and its chart, and no other passed case.
func TestScenarioPassedMarkdown(t *testing.T) {
	pass := checker.CaseResult{Name: "01-storm", Visible: true, Status: checker.Pass,
		Metrics: []checker.Metric{{Name: "peak_load", Value: 44, Reached: true, Limit: 100, OK: true}},
		Scenario: &checker.ScenarioRun{Name: "storm", Seed: 1, Rate: 50, Down: 100, TickMs: 100,
			Load: []int{2000, 2000, 44}, FirstOver: -1, Stopped: -1}}
	plain := checker.CaseResult{Name: "02-args", Visible: true, Status: checker.Pass}
	res := &checker.Result{Verdict: checker.Pass, Total: 2, Passed: 2, Cases: []checker.CaseResult{pass, plain}}
	var md strings.Builder
	Markdown(&md, res, i18n.New("en"), Options{})
	for _, want := range []string{"## ✓", "01-storm", "✓ peak after the service came back: 44 requests a tick (limit 100)", "your client"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown report lacks %q:\n%s", want, md.String())
		}
	}
	if strings.Contains(md.String(), "02-args") || strings.Contains(md.String(), "First past a limit") {
		t.Errorf("the Markdown report names a plain passed case or a limit never crossed:\n%s", md.String())
	}
}

// TestScenarioPassedText: check's text lists a visible scenario case that passed with its figures
// and chart when passed cases are listed; a hidden one that passed, and a plain case, by name alone.
func TestScenarioPassedText(t *testing.T) {
	run := &checker.ScenarioRun{Name: "storm", Seed: 1, Rate: 50, Down: 100, TickMs: 100,
		Load: []int{2000, 2000, 44}, FirstOver: -1, Stopped: -1}
	metrics := []checker.Metric{{Name: "peak_load", Value: 44, Reached: true, Limit: 100, OK: true}}
	visible := checker.CaseResult{Name: "01-storm", Visible: true, Status: checker.Pass, Metrics: metrics, Scenario: run}
	hidden := checker.CaseResult{Name: "02-hidden", Status: checker.Pass, Metrics: []checker.Metric{{Name: "peak_load", Value: 45, Reached: true, Limit: 100, OK: true}}, Scenario: run}
	plain := checker.CaseResult{Name: "03-args", Visible: true, Status: checker.Pass}
	res := &checker.Result{Verdict: checker.Pass, Total: 3, Passed: 3, Cases: []checker.CaseResult{visible, hidden, plain}}
	for _, tt := range []struct {
		showPass bool
		want     []string
		wantNot  []string
	}{
		{true, []string{"01-storm", "✓ peak after the service came back: 44 requests a tick (limit 100)", "your client", "03-args"}, []string{"45 requests"}},
		{false, nil, []string{"01-storm", "44 requests", "your client"}},
	} {
		var out strings.Builder
		Text(&out, res, i18n.New("en"), Options{ShowPass: tt.showPass})
		for _, want := range tt.want {
			if !strings.Contains(out.String(), want) {
				t.Errorf("ShowPass %v: the text lacks %q:\n%s", tt.showPass, want, out.String())
			}
		}
		for _, not := range tt.wantNot {
			if strings.Contains(out.String(), not) {
				t.Errorf("ShowPass %v: the text has %q:\n%s", tt.showPass, not, out.String())
			}
		}
	}
}
