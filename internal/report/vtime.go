package report

import (
	"fmt"
	"io"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// VirtualLines explains a virtual-time case that deadlocked, left goroutines blocked, or waited on
// something outside the bubble: what happened, which goroutine waits where in the learner's code,
// and what that usually means. It gives nothing for any other case. A hidden case says it too: the
// place is in the learner's own code and gives none of the case away.
func VirtualLines(pr *i18n.Printer, cs checker.CaseResult) []string {
	if cs.Message == checker.ReasonNotDurable {
		return []string{pr.T("msg_vtime_not_durable")}
	}
	b := cs.Blocked
	if b == nil {
		return nil
	}
	lines := []string{pr.T(b.Kind)}
	if b.Func != "" {
		lines = append(lines, pr.T("vtime_blocked", "G", b.Goroutine, "Wait", b.Wait, "Func", b.Func, "File", b.File, "Line", b.Line))
	} else if b.Wait != "" {
		lines = append(lines, pr.T("vtime_blocked_nowhere", "G", b.Goroutine, "Wait", b.Wait))
	}
	if b.Others > 0 {
		lines = append(lines, pr.N("vtime_others", b.Others))
	}
	return append(lines, pr.T(b.Kind+"_hint"))
}

// writeVirtual writes VirtualLines indented by ind.
func writeVirtual(w io.Writer, pr *i18n.Printer, cs checker.CaseResult, ind string) {
	for _, l := range VirtualLines(pr, cs) {
		fmt.Fprintln(w, ind+EscapeLine(l))
	}
}
