package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/progress"
)

// runList shows the course in order: each lesson, then its exercises with their status, difficulty
// and estimated time. Outside a workspace every exercise is "not started".
func runList(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return e.usageErr("err_list_args")
	}
	p := e.madeWorkspace()
	lang := e.contentLang()
	st := progress.New(lang, time.Now())
	if p != nil {
		if st, err = e.loadState(p); err != nil {
			return err
		}
	}
	steps, err := e.course.Plan(lang)
	if err != nil {
		return err
	}
	w := e.stdout
	pt := e.paintFor(w)
	nameWidth := 0
	for _, ex := range steps.Exercises() {
		nameWidth = max(nameWidth, len(ex.Name))
	}
	for i, s := range steps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if s.Lesson != nil {
			mark := pt.Dim("·")
			if _, read := st.Lessons[s.Lesson.Topic]; read {
				mark = pt.Green("✓")
			}
			line := fmt.Sprintf("%s %s", mark, pt.Bold(e.ui.T("list_lesson", "N", i+1, "Title", s.Lesson.Title)))
			if q := st.Quizzes[s.Lesson.Topic]; q != nil {
				line += "  " + pt.Dim(e.ui.T("list_quiz", "Score", e.ui.N("quiz_score", q.Best, "Total", q.Total)))
			}
			fmt.Fprintln(w, line)
			fmt.Fprintln(w, "    "+pt.Dim("workbook lesson "+s.Lesson.Topic))
		} else {
			fmt.Fprintln(w, pt.Bold(e.ui.T("list_other")))
		}
		for _, ex := range s.Exercises {
			status := st.Lookup(ex.Name).Status()
			facts := []string{e.statusText(status)}
			if d := e.difficulty(ex); d != "" {
				facts = append(facts, d)
			}
			if ex.Minutes > 0 {
				facts = append(facts, e.ui.T("list_minutes", "Minutes", ex.Minutes))
			}
			fmt.Fprintf(w, "  %s %s  %s\n", statusMark(pt, status), pad(ex.Name, nameWidth), ex.Title(lang))
			fmt.Fprintf(w, "    %s  %s\n", strings.Repeat(" ", nameWidth), pt.Dim(strings.Join(facts, " · ")))
		}
	}
	return nil
}
