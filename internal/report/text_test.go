package report

import (
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

func TestText(t *testing.T) {
	two := 2
	res := &checker.Result{
		Exercise: "exercise-deadline", Dir: "my", Verdict: checker.Fail, Passed: 1, Total: 4,
		Cases: []checker.CaseResult{
			{Name: "01", Title: "урок", Visible: true, Status: checker.Pass},
			{Name: "02", Title: "ред", Visible: true, Status: checker.Fail, Args: []string{"-deadline", "2"},
				Diff: &checker.Diff{Line: 2, Want: "опит 1", Got: "oпит 1", Notes: []string{checker.NoteLatinLookalike}}},
			{Name: "03", Title: "скрит", Visible: false, Status: checker.Timeout, Want: "тайна"},
			{Name: "04", Title: "код", Visible: true, Status: checker.Fail, ExitCode: 0, WantExit: &two, Message: "exit_code"},
		},
	}
	tests := []struct {
		lang string
		want []string
		not  []string
	}{
		{"bg", []string{"тест 02: ред", "аргументи: -deadline 2", "Първата разлика е на ред 2:", "очаквано: „опит 1“",
			"получено: „oпит 1“", "латинска буква, която изглежда като кирилска: знак 1", "скрит тест: скрит",
			"Не завърши навреме", "Програмата завърши с код 0, а се очаква 2.", "Мина 1 тест от 4."},
			[]string{"тайна", "тест 01"}},
		{"ru", []string{"ожидалось: «опит 1»", "скрытый тест: скрит", "Пройден 1 тест из 4."}, []string{"тайна"}},
		{"en", []string{"expected: \"опит 1\"", "hidden case: скрит", "1 case of 4 passed."}, []string{"тайна"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			var b strings.Builder
			Text(&b, res, i18n.New(tt.lang), Options{})
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in\n%s", w, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("unexpected %q in\n%s", n, out)
				}
			}
			if strings.Contains(out, "\x1b[") {
				t.Error("colour codes without Color")
			}
		})
	}
}

func TestTextBuildError(t *testing.T) {
	res := &checker.Result{Exercise: "x", Verdict: checker.BuildError, BuildLog: "main.go:3:2: undefined: опит"}
	var b strings.Builder
	Text(&b, res, i18n.New("ru"), Options{Color: true})
	out := b.String()
	if !strings.Contains(out, "Программа не компилируется") || !strings.Contains(out, "main.go:3:2: undefined: опит") {
		t.Errorf("got\n%s", out)
	}
	if !strings.Contains(out, "\x1b[31m") {
		t.Error("no colour with Color")
	}
}
