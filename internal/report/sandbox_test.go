package report

import (
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// TestSandboxMessages checks the lines the sandbox adds to a report: missing protections (only when
// some are missing), the known cause of a failed build, and why a run was stopped.
func TestSandboxMessages(t *testing.T) {
	all := &checker.Isolation{Level: "namespaces", Applied: []string{"time", "output", "env", "process_tree", "network",
		"filesystem", "private_tmp", "memory", "cpu", "processes"}}
	basic := &checker.Isolation{Level: "basic", Applied: []string{"time", "output", "env"},
		Missing: []string{"process_tree", "network", "filesystem", "private_tmp", "memory", "cpu", "processes"}}
	crashed := func(msg string) []checker.CaseResult {
		return []checker.CaseResult{{Name: "01", Visible: true, Status: checker.Crash, ExitCode: 1, Message: msg, Args: []string{}}}
	}
	tests := []struct {
		name, lang string
		res        checker.Result
		want       []string
		notWant    []string
	}{
		{"all protections", "ru", checker.Result{Verdict: checker.Pass, Isolation: all}, nil, []string{"Внимание"}},
		{"missing protections ru", "ru", checker.Result{Verdict: checker.Pass, Isolation: basic},
			[]string{"Внимание: на этой системе программа запускается без таких защит: остановка всех запущенных ею процессов, изоляция от сети,"}, nil},
		{"missing protections bg", "bg", checker.Result{Verdict: checker.Pass, Isolation: basic},
			[]string{"Внимание: на тази система програмата се изпълнява без следните защити:", "ограничение на броя процеси."}, nil},
		{"go version", "bg", checker.Result{Verdict: checker.BuildError, Message: "go_version", BuildLog: "go: go.mod requires go >= 1.99"},
			[]string{"go.mod изисква версия на Go", "„go version“"}, nil},
		{"cgo", "ru", checker.Result{Verdict: checker.BuildError, Message: "cgo", BuildLog: "package learner: build constraints exclude all Go files in ."},
			[]string{"Программа использует cgo"}, nil},
		{"not main", "ru", checker.Result{Verdict: checker.NoProgram, Message: "not_main", BuildLog: "package retry, not package main"},
			[]string{"(package retry, а не package main)"}, nil},
		{"network", "bg", checker.Result{Verdict: checker.Crash, Cases: crashed(checker.ReasonNetwork)},
			[]string{"Програмата се опита да използва мрежата."}, []string{"network"}},
		{"memory", "en", checker.Result{Verdict: checker.MemoryLimit, Cases: []checker.CaseResult{{Name: "01", Visible: true,
			Status: checker.MemoryLimit, ExitCode: 2, Message: checker.ReasonMemoryLimit, Args: []string{}}}},
			[]string{"Ran out of memory: stopped at the memory limit.", "more memory than one run may have"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			res := tt.res
			res.Exercise, res.Lang, res.Total = "exercise-deadline", tt.lang, len(res.Cases)
			Text(&b, &res, i18n.New(tt.lang), Options{})
			got := b.String()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the report lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("the report holds %q:\n%s", w, got)
				}
			}
		})
	}
}
