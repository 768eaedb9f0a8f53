package verify

import (
	"fmt"
	"io"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// WriteText writes the report for a person, in ui's language: the problems, the mutation scores,
// what came from the cache, and the verdict (WriteJSON is its twin for programs).
func (r *Report) WriteText(w io.Writer, ui *i18n.Printer) {
	for _, p := range r.Problems {
		p.writeText(w, ui)
	}
	if len(r.Problems) > 0 && len(r.Scores) > 0 {
		fmt.Fprintln(w)
	}
	for _, s := range r.Scores {
		id := "verify_mutation"
		if s.Cached {
			id = "verify_mutation_cached"
		}
		fmt.Fprintln(w, ui.T(id, "Name", s.Exercise, "Mutants", s.Mutants, "Killed", s.Killed,
			"Equivalent", s.Equivalent, "Survivors", s.Survivors, "Score", ui.Decimal(s.Score, 1), "Seconds", ui.Decimal(s.Seconds, 1)))
	}
	t := r.Targets
	if r.CacheReads && t.Lessons > 0 {
		fmt.Fprintln(w, ui.T("verify_cache", "Unchanged", ui.N("verify_n_lessons_unchanged", r.LessonsCached),
			"Analysed", ui.N("verify_n_lessons_analysed", t.Lessons-r.LessonsCached)))
	}
	if r.CacheReads && len(t.Exercises) > 0 {
		fmt.Fprintln(w, ui.T("verify_cache", "Unchanged", ui.N("verify_n_unchanged", r.Cached),
			"Analysed", ui.N("verify_n_analysed", len(t.Exercises)-r.Cached)))
	}
	checked := []any{
		"Lessons", ui.N("verify_n_lessons", t.Lessons),
		"Exercises", ui.N("verify_n_exercises", len(t.Exercises)),
	}
	if len(r.Problems) == 0 {
		fmt.Fprintln(w, ui.T("verify_ok", checked...))
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, ui.T("verify_failed", append(checked, "Problems", ui.N("verify_n_problems", len(r.Problems)))...))
}

// writeText writes one problem: "file:line: message", then the first differing line and what the
// compiler or the program said, indented.
func (p ReportLine) writeText(w io.Writer, ui *i18n.Printer) {
	loc := p.File
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	fmt.Fprintf(w, "%s: %s\n", loc, p.Message)
	ind := "    "
	if d := p.Diff; d != nil {
		dt := report.Explain(ui, d)
		fmt.Fprintln(w, ind+ui.T("want_label")+" "+dt.Want)
		fmt.Fprintln(w, ind+ui.T("got_label")+" "+dt.Got)
		for _, msg := range dt.Notes {
			fmt.Fprintln(w, ind+"! "+msg)
		}
	}
	if p.Detail != "" {
		for _, l := range strings.Split(p.Detail, "\n") {
			fmt.Fprintln(w, ind+l)
		}
	}
}
