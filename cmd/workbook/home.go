package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/workbook-course/workbook/internal/progress"
)

// runHome is what plain `workbook` does: where the learner stands and the one next step to take.
func runHome(ctx context.Context, e *env) error {
	w := e.stdout
	pt := e.paintFor(w)
	p := e.where("")
	fmt.Fprintln(w, pt.bold(e.ui.T("home_title")))
	fmt.Fprintln(w)
	if p == nil {
		fmt.Fprintln(w, e.ui.T("home_no_workspace"))
		fmt.Fprintln(w)
		fmt.Fprintln(w, e.ui.T("home_next_label")+" "+pt.bold("workbook init"))
		fmt.Fprintln(w, "  "+e.ui.T("home_next_init", "Dir", defaultWorkspace, "Lang", e.langName(e.content)))
		fmt.Fprintln(w)
		fmt.Fprintln(w, pt.dim(e.ui.T("home_more")))
		return nil
	}
	st, err := e.loadState(p)
	if err != nil {
		return err
	}
	steps, err := e.plan(p.lang)
	if err != nil {
		return err
	}
	list := exercisesInOrder(steps)
	passed := 0
	for _, ex := range list {
		if st.Lookup(ex.Name).Status() == progress.Passed {
			passed++
		}
	}
	if p.kind == inWorkspace {
		fmt.Fprintln(w, e.ui.T("home_workspace", "Dir", p.root, "Lang", e.langName(p.lang), "Since", e.since(st.Started, time.Now())))
	} else {
		fmt.Fprintln(w, e.ui.T("home_clone", "Dir", p.root, "Lang", e.langName(p.lang)))
	}
	fmt.Fprintln(w, e.ui.N("home_passed", passed, "Total", len(list)))
	fmt.Fprintln(w)
	cmd, why := e.nextStep(p, st, steps)
	fmt.Fprintln(w, e.ui.T("home_next_label")+" "+pt.bold(cmd))
	fmt.Fprintln(w, "  "+why)
	fmt.Fprintln(w)
	fmt.Fprintln(w, pt.dim(e.ui.T("home_more")))
	return nil
}

// nextStep is the one thing the learner should do next: the command and why, in this order: read
// the lesson of the next exercise, solve the exercise (check it, then ask for a hint once it has
// failed), answer the quizzes of the lessons whose exercises are done, and finally celebrate.
func (e *env) nextStep(p *place, st *progress.State, steps []step) (cmd, why string) {
	ex := nextExercise(steps, st)
	if ex != nil {
		lesson := lessonOf(steps, ex)
		x := st.Lookup(ex.Name)
		if lesson != nil && !begun(st, steps, lesson) {
			return "workbook lesson " + lesson.Topic, e.ui.T("next_read", "Title", lesson.Title)
		}
		task, main := p.taskFile(ex), filepath.Join(p.exerciseDir(ex), "main.go")
		for _, f := range []*string{&task, &main} {
			if rel, err := filepath.Rel(p.root, *f); err == nil {
				*f = rel
			}
		}
		title := ex.Title(p.lang)
		if x.Status() == progress.NotStarted {
			return "workbook watch " + ex.Name, e.ui.T("next_start", "Title", title, "Task", task, "Main", main)
		}
		hints, _ := ex.Hints(p.lang)
		if x.Hints < len(hints) && x.Checks >= 2*(x.Hints+1) {
			return "workbook hint " + ex.Name, e.ui.N("next_hint_after", x.Checks, "Title", title)
		}
		return "workbook watch " + ex.Name, e.ui.T("next_fix", "Title", title, "Main", main)
	}
	for _, s := range steps {
		if s.Lesson == nil {
			continue
		}
		if _, done := st.Quizzes[s.Lesson.Topic]; !done && s.Lesson.Quizzes > 0 {
			return "workbook quiz " + s.Lesson.Topic, e.ui.T("next_quiz", "Title", s.Lesson.Title)
		}
	}
	return "workbook progress", e.ui.T("next_done")
}

// begun reports whether the learner has started on a lesson: opened it, or checked one of its
// exercises.
func begun(st *progress.State, steps []step, lesson *lessonInfo) bool {
	if _, read := st.Lessons[lesson.Topic]; read {
		return true
	}
	for _, s := range steps {
		if s.Lesson != lesson {
			continue
		}
		for _, ex := range s.Exercises {
			if st.Lookup(ex.Name).Status() != progress.NotStarted {
				return true
			}
		}
	}
	return false
}
