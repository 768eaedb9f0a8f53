package verify

import (
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/i18n"
)

func TestReportWriteText(t *testing.T) {
	ui := i18n.New("en")
	for _, tc := range []struct {
		name string
		r    *Report
		want []string // lines, in this order
	}{
		{"clean", &Report{Targets: &Targets{Lessons: 2}}, []string{
			ui.T("verify_ok", "Lessons", ui.N("verify_n_lessons", 2), "Exercises", ui.N("verify_n_exercises", 0)),
		}},
		{"problems", &Report{Targets: &Targets{Lessons: 1}, Problems: []ReportLine{
			{File: "lessons/timeout/ru.md", Line: 7, Message: "the output differs", Detail: "first\nsecond"},
			{File: "exercises/x", Message: "no line"},
		}}, []string{
			"lessons/timeout/ru.md:7: the output differs", "    first", "    second", "exercises/x: no line", "",
			ui.T("verify_failed", "Lessons", ui.N("verify_n_lessons", 1), "Exercises", ui.N("verify_n_exercises", 0), "Problems", ui.N("verify_n_problems", 2)),
		}},
	} {
		var b strings.Builder
		tc.r.WriteText(&b, ui)
		if got, want := b.String(), strings.Join(tc.want, "\n")+"\n"; got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, want)
		}
	}
}
