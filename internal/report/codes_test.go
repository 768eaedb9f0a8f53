package report

import (
	"regexp"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// caseStatuses are the statuses a case can have; messageCodes the codes of CaseResult.Message that
// need no number or pattern to be said (see checker's JSON doc).
var (
	caseStatuses = []checker.Verdict{checker.Pass, checker.Fail, checker.Timeout, checker.Crash,
		checker.OutputLimit, checker.MemoryLimit, checker.NotRun}
	messageCodes = []string{checker.ReasonCPULimit, checker.ReasonBlocked, checker.ReasonSlept, checker.ReasonWaited, checker.ReasonBudget,
		checker.ReasonMemoryLimit, checker.ReasonProcessLimit, checker.ReasonNetwork,
		checker.ReasonFileAccess, checker.ReasonSandbox, "exit_zero"}
)

// TestCodesSaidInWords checks that every status and message code of a case is said in words in
// every message language, in the terminal (and so the browser, which shows the terminal's report)
// and in Markdown (a student's feedback), and that no code is printed as it is: a timeout says
// whether the program spun until its CPU limit or slept or waited, and a sleeper is never asked
// about an endless loop.
func TestCodesSaidInWords(t *testing.T) {
	// Every code, in Russian and Bulgarian; in English those that are not also English words.
	codes := regexp.MustCompile(`\b(` + strings.Join(append(messageCodes, "timeout", "not_run", "output_limit"), "|") + `)\b`)
	enCodes := regexp.MustCompile(`\b(blocked|budget|[a-z]+_[a-z_]+)\b`)
	for _, lang := range []string{"ru", "bg", "en"} {
		pr := i18n.New(lang)
		for _, s := range caseStatuses {
			if !i18n.Has(lang, "status_"+string(s)) {
				t.Errorf("%s: status %s has no words", lang, s)
			}
		}
		for _, m := range messageCodes {
			if _, ok := MessageText(pr, m); !ok {
				t.Errorf("%s: message %s has no words", lang, m)
			}
		}
		for _, tc := range []struct {
			status  checker.Verdict
			message string
			id      string // the headline it must have
			mdID    string // the headline of the Markdown feedback, when it says more ("" for id)
		}{
			{checker.Timeout, checker.ReasonCPULimit, "status_timeout_cpu_limit", ""},
			{checker.Timeout, checker.ReasonBlocked, "status_timeout_blocked", ""},
			{checker.Timeout, checker.ReasonSlept, "status_timeout_slept", ""},
			{checker.Timeout, checker.ReasonWaited, "status_timeout_waited", ""},
			{checker.Timeout, "", "status_timeout", ""},
			{checker.Crash, checker.ReasonProcessLimit, "status_crash", ""},
			{checker.Crash, checker.ReasonNetwork, "status_crash", ""},
			{checker.Crash, checker.ReasonFileAccess, "status_crash", ""},
			{checker.Crash, checker.ReasonSandbox, "status_crash", ""},
			{checker.MemoryLimit, checker.ReasonMemoryLimit, "status_memory_limit", ""},
			// A case failed by its exit code alone is told so in the feedback, hidden or not.
			{checker.Fail, "exit_zero", "status_fail", "msg_exit_zero"},
		} {
			cs := checker.CaseResult{Name: "01", Title: "t", Visible: true, Status: tc.status, Message: tc.message, Args: []string{"x"}}
			if got, want := CaseStatus(pr, cs), pr.T(tc.id); got != want {
				t.Errorf("%s: %s/%s: headline %q, want %q", lang, tc.status, tc.message, got, want)
			}
			idle := tc.message == checker.ReasonBlocked || tc.message == checker.ReasonSlept || tc.message == checker.ReasonWaited
			if idle && (strings.Contains(CaseStatus(pr, cs), "цикъл") ||
				strings.Contains(CaseStatus(pr, cs), "цикл") || strings.Contains(CaseStatus(pr, cs), "loop")) {
				t.Errorf("%s: a sleeper is asked about a loop: %q", lang, CaseStatus(pr, cs))
			}
			if tc.message == checker.ReasonWaited && strings.Contains(CaseStatus(pr, cs), "Sleep") {
				t.Errorf("%s: a waiter is said to sleep: %q", lang, CaseStatus(pr, cs))
			}
			res := &checker.Result{Verdict: tc.status, Total: 1, Cases: []checker.CaseResult{cs}}
			var text, md strings.Builder
			Text(&text, res, pr, Options{})
			Markdown(&md, res, pr, Options{})
			for name, out := range map[string]string{"terminal": text.String(), "markdown": md.String()} {
				id := tc.id
				if name == "markdown" && tc.mdID != "" {
					id = tc.mdID
				}
				if !strings.Contains(out, pr.T(id)) && !strings.Contains(out, MarkdownEscape(pr.T(id))) {
					t.Errorf("%s: %s/%s: the %s report lacks its headline:\n%s", lang, tc.status, tc.message, name, out)
				}
				code := codes
				if lang == "en" {
					code = enCodes
				}
				if m := code.FindString(out); m != "" {
					t.Errorf("%s: %s/%s: the %s report shows the code %q:\n%s", lang, tc.status, tc.message, name, m, out)
				}
			}
		}
	}
}
