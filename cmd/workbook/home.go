package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runHome is what plain `workbook` does: where the learner stands, the two language settings and
// the one next step to take.
func runHome(ctx context.Context, e *env) error {
	w := e.stdout
	pt := e.paintFor(w)
	p := e.madeWorkspace()
	fmt.Fprintln(w, pt.Bold(e.ui.T("home_title")))
	fmt.Fprintln(w)
	if p == nil {
		if e.ws != nil {
			// A clone whose workspace the first command will make.
			fmt.Fprintln(w, e.ui.T("home_clone_new", "Dir", e.ws.Clone, "My", e.rel(e.ws.Root)))
		} else {
			fmt.Fprintln(w, e.ui.T("home_no_workspace"))
		}
		e.printSettings(w)
		fmt.Fprintln(w)
		if e.ws != nil {
			cmd, why := e.firstStep()
			fmt.Fprintln(w, e.ui.T("home_next_label")+" "+pt.Bold(e.runnable(cmd)))
			fmt.Fprintln(w, "  "+why)
		} else {
			fmt.Fprintln(w, e.ui.T("home_next_label")+" "+pt.Bold("workbook init"))
			fmt.Fprintln(w, "  "+e.ui.T("home_next_init", "Dir", workspace.DefaultFolder, "Lang", e.langName(e.content)))
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, pt.Dim(e.ui.T("home_more")))
		return nil
	}
	st, err := e.loadState(p)
	if err != nil {
		return err
	}
	steps, err := e.course.Plan(e.content)
	if err != nil {
		return err
	}
	list := steps.Exercises()
	passed := 0
	for _, ex := range list {
		if st.Lookup(ex.Name).Status() == progress.Passed {
			passed++
		}
	}
	fmt.Fprintln(w, e.ui.T("home_workspace", "Dir", p.Root, "Lang", e.langName(e.content), "Since", course.View{UI: e.ui}.Since(st.Started, time.Now())))
	e.printSettings(w)
	fmt.Fprintln(w, e.ui.N("home_passed", passed, "Total", len(list)))
	fmt.Fprintln(w)
	cmd, why := e.nextStep(p, st, steps)
	fmt.Fprintln(w, e.ui.T("home_next_label")+" "+pt.Bold(e.runnable(cmd)))
	fmt.Fprintln(w, "  "+why)
	fmt.Fprintln(w)
	fmt.Fprintln(w, pt.Dim(e.ui.T("home_more")))
	return nil
}

// printSettings shows the two language settings, where each came from, and how to change them.
func (e *env) printSettings(w io.Writer) {
	fmt.Fprintln(w, e.ui.T("home_settings",
		"Content", e.langName(e.content), "ContentFrom", e.ui.T("lang_from_"+workspace.SourceKey(e.choice.ContentFrom)),
		"Messages", e.langName(e.ui.Lang()), "MessagesFrom", e.ui.T("lang_from_"+workspace.SourceKey(e.choice.MessagesFrom))))
	fmt.Fprintln(w, "  "+e.ui.T("home_settings_change"))
}

// firstStep is the course's first step, for a clone whose workspace is not made yet: as in a new
// workspace, its first lesson, then that lesson's first exercise (course.Plan.FirstStep).
func (e *env) firstStep() (cmd, why string) {
	steps, err := e.course.Plan(e.content)
	if err != nil {
		return "workbook list", ""
	}
	n := steps.FirstStep(e.content)
	if n.Kind == course.ReadLesson {
		return "workbook lesson " + n.Lesson.Topic, e.ui.T("home_next_clone_lesson", "Title", n.Lesson.Title, "Name", n.Exercise.Name)
	}
	return "workbook check " + n.Exercise.Name, e.ui.T("home_next_clone", "Name", n.Exercise.Name)
}

// nextStep is the one thing the learner should do next (course.Plan.NextStep): the command and why.
func (e *env) nextStep(p *workspace.Workspace, st *progress.State, steps course.Plan) (cmd, why string) {
	n := steps.NextStep(st, e.content)
	ex := n.Exercise
	switch n.Kind {
	case course.ReadLesson:
		return "workbook lesson " + n.Lesson.Topic, e.ui.T("next_read", "Title", n.Lesson.Title)
	case course.TakeQuiz:
		return "workbook quiz " + n.Lesson.Topic, e.ui.T("next_quiz", "Title", n.Lesson.Title)
	case course.CourseDone:
		return "workbook progress", e.ui.T("next_done")
	}
	task, main := e.rel(p.StatementPath(ex, e.content)), e.rel(filepath.Join(p.ExerciseDir(ex, e.content), "main.go"))
	title := ex.Title(e.content)
	switch n.Kind {
	case course.StartExercise:
		return "workbook watch " + ex.Name, e.ui.T("next_start", "Title", title, "Task", task, "Main", main)
	case course.TakeHint:
		return "workbook hint " + ex.Name, e.ui.N("next_hint_after", st.Lookup(ex.Name).Checks, "Title", title)
	}
	return "workbook watch " + ex.Name, e.ui.T("next_fix", "Title", title, "Main", main)
}
