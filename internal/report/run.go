package report

import (
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// RunLines explains, in pr's language, how a single run of a program (workbook run) ended when its
// transcript does not say it: a goroutine left blocked, a deadlock or a wait outside virtual time
// (VirtualLines), the time limit (limit) or an output or memory limit. nil when it simply ended.
func RunLines(pr *i18n.Printer, out checker.RunOutput, limit time.Duration) []string {
	cs := checker.CaseResult{Visible: true, Status: out.Status, Message: out.Reason, Blocked: out.Blocked}
	if lines := VirtualLines(pr, cs); len(lines) > 0 {
		return lines
	}
	switch out.Status {
	case checker.Timeout:
		return []string{CaseStatus(pr, cs), timeLimit(pr, limit)}
	case checker.OutputLimit, checker.MemoryLimit:
		return []string{pr.T("status_" + string(out.Status))}
	}
	return nil
}
