package gradebook

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// Summary is a student's course summary, in the language of the student's programs: a row per
// exercise (its title, weight, result and score, a late penalty said) and the total, as Markdown.
func (b *Book) Summary(r Row) []byte {
	p := i18n.New(r.Lang)
	cell := func(s string) string {
		return strings.ReplaceAll(report.EscapeLine(s), "|", `\|`)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# %s\n\n", p.T("book_summary_title", "Name", report.EscapeLine(r.Name)))
	fmt.Fprintf(&buf, "| %s | %s | %s | %s |\n|---|---:|---|---:|\n",
		p.T("book_summary_exercise"), p.T("book_summary_weight"), p.T("book_summary_result"), p.T("book_summary_score"))
	for k, c := range r.Cells {
		col := b.Exercises[k]
		result := p.T("book_summary_not_graded")
		if c.Graded {
			result = p.T("grade_status_" + c.Status)
			if c.Total > 0 {
				result += ", " + p.N("book_summary_tests", c.Total, "Passed", c.Passed)
			}
			if c.Penalty > 0 {
				result += "; " + p.T("book_summary_late", "Penalty", i18n.Score(r.Lang, c.Penalty))
			}
		}
		fmt.Fprintf(&buf, "| %s | %s | %s | %s |\n", cell(col.Title(r.Lang)), i18n.Score(r.Lang, col.Weight), cell(result), i18n.Score(r.Lang, c.Score))
	}
	fmt.Fprintf(&buf, "\n%s\n", p.T("book_summary_total", "Total", i18n.Score(r.Lang, r.Total)))
	return buf.Bytes()
}
