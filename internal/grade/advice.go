package grade

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/vet"
)

// warmAdvice vets the exercise's reference solution, in a folder of work, while the class builds:
// the export data of the standard packages it imports (one go list, see package vet), which
// nearly every student's program imports too, is then known when the first students' advice is
// asked for, which otherwise waited for it after their cases, one go list per worker at once. It
// returns at once, with a function that waits for it to end.
func (g *grader) warmAdvice(ctx context.Context, work string) (wait func()) {
	if len(g.job.Solutions) == 0 {
		return func() {}
	}
	src := g.job.Solutions[0]
	dir := filepath.Join(work, "advice-warm")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for name, data := range src.Files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if os.MkdirAll(filepath.Dir(p), 0o755) != nil || os.WriteFile(p, data, 0o644) != nil {
				return
			}
		}
		vet.Dir(ctx, dir) // what it finds is nobody's advice: only the export data it lists is kept
	}()
	return func() { <-done }
}

// advise is internal/vet's advice on the code of the student's program in dir, in the student's
// language, for a program that was built (the others' verdict already says what is wrong). It is
// advice beside the verdict: the caller puts it in Result.Advice, which no score or status reads.
func advise(ctx context.Context, dir string, st Student, res *checker.Result) []checker.Advice {
	if dir == "" || ctx.Err() != nil {
		return nil
	}
	switch res.Verdict {
	case checker.BuildError, checker.NoProgram, NotGraded, BadArchive, TooBig, Unchanged, NoSubmission:
		return nil
	}
	return vet.Advise(ctx, dir, i18n.New(st.Lang))
}

// adviceRules is the rules of the student's advice, each once, in the order of vet.Rules.
func adviceRules(st Student) []string {
	if st.Result == nil {
		return nil
	}
	var out []string
	for _, r := range vet.Rules {
		for _, a := range st.Result.Advice {
			if a.Rule == r {
				out = append(out, r)
				break
			}
		}
	}
	for _, a := range st.Result.Advice {
		if !slices.Contains(out, a.Rule) {
			out = append(out, a.Rule) // a rule vet no longer knows, from an older report
		}
	}
	return out
}

// classRules is the rules any student of the class was advised on, in the order of vet.Rules.
func classRules(rep *Report) []string {
	seen := map[string]bool{}
	for _, st := range rep.Students {
		for _, r := range adviceRules(st) {
			seen[r] = true
		}
	}
	var out []string
	for _, r := range vet.Rules {
		if seen[r] {
			out = append(out, r)
			delete(seen, r)
		}
	}
	for _, st := range rep.Students {
		for _, r := range adviceRules(st) {
			if seen[r] {
				out = append(out, r)
				delete(seen, r)
			}
		}
	}
	return out
}

// ruleLabel is a rule's short name in pr's language (its code when there is none).
func ruleLabel(pr *i18n.Printer, rule string) string {
	if id := "vet_rule_" + rule; i18n.Has(pr.Lang(), id) {
		return pr.T(id)
	}
	return rule
}

// adviceNote writes the advice on the student's code at the end of the feedback, in the student's
// language, under a heading that says it does not change the grade: file:line, then the words.
func adviceNote(w *bytes.Buffer, pr *i18n.Printer, st Student) {
	if st.Result == nil || len(st.Result.Advice) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## %s\n\n", report.MarkdownEscape(pr.T("vet_grade_head")))
	for _, a := range st.Result.Advice {
		fmt.Fprintf(w, "- %s: %s\n", report.CodeSpan(fmt.Sprintf("%s:%d", a.File, a.Line)), report.MarkdownEscape(adviceText(pr, a)))
	}
}

// adviceText is the words of a piece of advice in pr's language: the rule's message, else the
// words the advice was stored with.
func adviceText(pr *i18n.Printer, a checker.Advice) string {
	if id := "vet_" + a.Rule; i18n.Has(pr.Lang(), id) {
		return pr.T(id)
	}
	return a.Message
}

// adviseOn is advise as check calls it: a variable, so that a test can make the grader's own code
// fail on one student's results (TestGraderFaultIsOneRow).
var adviseOn = advise
