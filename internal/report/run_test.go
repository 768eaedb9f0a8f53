package report

import (
	"slices"
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
		{"time limit", checker.RunOutput{Status: checker.Timeout}, []string{ui.T("status_timeout"), ui.T("time_limit", "Seconds", "2,5")}},
		{"output limit", checker.RunOutput{Status: checker.OutputLimit}, []string{ui.T("status_output_limit")}},
		{"not durable", checker.RunOutput{Status: checker.Crash, Reason: checker.ReasonNotDurable}, []string{ui.T("msg_vtime_not_durable")}},
	} {
		if got := RunLines(ui, tc.out, 2500*time.Millisecond); !slices.Equal(got, tc.want) {
			t.Errorf("%s: RunLines = %q, want %q", tc.name, got, tc.want)
		}
	}
}
