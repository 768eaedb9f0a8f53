package report

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

func TestRunLines(t *testing.T) {
	ui := i18n.New("ru")
	for _, tc := range []struct {
		name string
		out  checker.RunOutput
		want []string
	}{
		{"ended", checker.RunOutput{Status: checker.Pass}, nil},
		{"crashed", checker.RunOutput{Status: checker.Crash, ExitCode: 1}, nil},
		{"time limit", checker.RunOutput{Status: checker.Timeout}, []string{ui.T("status_timeout"), ui.T("time_limit", "Seconds", "2,5", "Idle", "1,25")}},
		{"spun", checker.RunOutput{Status: checker.Timeout, Reason: checker.ReasonCPULimit}, []string{ui.T("status_timeout_cpu_limit"), ui.T("time_limit", "Seconds", "2,5", "Idle", "1,25")}},
		{"slept or waited", checker.RunOutput{Status: checker.Timeout, Reason: checker.ReasonBlocked}, []string{ui.T("status_timeout_blocked"), ui.T("time_limit", "Seconds", "2,5", "Idle", "1,25")}},
		{"slept", checker.RunOutput{Status: checker.Timeout, Reason: checker.ReasonSlept}, []string{ui.T("status_timeout_slept"), ui.T("time_limit", "Seconds", "2,5", "Idle", "1,25")}},
		{"waited", checker.RunOutput{Status: checker.Timeout, Reason: checker.ReasonWaited}, []string{ui.T("status_timeout_waited"), ui.T("time_limit", "Seconds", "2,5", "Idle", "1,25")}},
		{"output limit", checker.RunOutput{Status: checker.OutputLimit}, []string{ui.T("status_output_limit")}},
		{"not durable", checker.RunOutput{Status: checker.Crash, Reason: checker.ReasonNotDurable}, []string{ui.T("msg_vtime_not_durable")}},
	} {
		if got := RunLines(ui, tc.out, 2500*time.Millisecond); !slices.Equal(got, tc.want) {
			t.Errorf("%s: RunLines = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestJSON(t *testing.T) {
	res := &checker.Result{Exercise: "x", Verdict: checker.Fail, Cases: []checker.CaseResult{{Name: "c", Visible: true, Got: "a\u0085<b>\n"}}}
	var b strings.Builder
	if err := JSON(&b, res); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.Contains(got, `\u0085<b>`) || !strings.HasPrefix(got, "{\n  \"") {
		t.Errorf("JSON = %s, want indented, the C1 control escaped and <b> as it is", got)
	}
}
