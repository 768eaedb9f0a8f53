package grade

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// scoreNote says, in the feedback, the student's score and how it was made: the share of the
// cases passed, by their weights when they are not all alike, and the late penalty taken off.
func scoreNote(w *bytes.Buffer, pr *i18n.Printer, rep *Report, st Student) {
	lang := pr.Lang()
	weights := map[string]float64{}
	alike := true
	for _, c := range rep.Cases {
		weights[c.Name] = c.Weight
		if c.Weight != rep.Cases[0].Weight {
			alike = false
		}
	}
	fmt.Fprintf(w, "\n%s\n", report.MarkdownEscape(pr.T("grade_fb_score", "Score", i18n.Score(lang, st.Score))))
	// A program that never ran (no program, a refused archive) has no cases to weigh.
	weighed := !alike && len(st.Result.Cases) > 0
	if weighed {
		passed, all := weightsPassed(st.Result.Cases, weights)
		fmt.Fprintf(w, "\n- %s\n", report.MarkdownEscape(pr.T("grade_fb_score_weights", "Passed", i18n.Score(lang, passed), "All", i18n.Score(lang, all))))
	}
	if st.Penalty > 0 {
		id := "grade_fb_score_late_flag"
		if !rep.Due.IsZero() && st.TimeFrom != "" && !st.Submitted.IsZero() && st.Submitted.After(rep.Due) {
			id = "grade_fb_score_late_days"
		}
		line := pr.N(id, st.DaysLate, "Points", i18n.Score(lang, st.Penalty))
		if !weighed {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "- %s\n", report.MarkdownEscape(line))
	}
}

// withTop puts top (the score and the most useful hints) right under the first lines of a feedback
// file, its heading and the count of cases passed, before the failed cases one by one.
func withTop(md []byte, top []byte) []byte {
	if len(bytes.TrimSpace(top)) == 0 {
		return md
	}
	// The heading, a blank line, the count: the third line ends the head.
	head, n := md, 0
	for i := 0; i < 3; i++ {
		k := bytes.IndexByte(head[n:], '\n')
		if k < 0 {
			return append(md, top...)
		}
		n += k + 1
	}
	if !strings.HasPrefix(string(md[bytes.LastIndex(md[:n-1], []byte("\n"))+1:n]), "**") {
		return append(md, top...)
	}
	out := append([]byte{}, md[:n]...)
	out = append(out, top...)
	return append(out, md[n:]...)
}
