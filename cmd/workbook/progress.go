package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/tty"
)

// runProgress shows what the learner has done: exercises passed, hints used, quiz scores, and the
// time since the start.
func runProgress(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return e.usageErr("err_progress_args")
	}
	p, err := e.needWorkspace()
	if err != nil {
		return err
	}
	st, err := e.loadState(p)
	if err != nil {
		return err
	}
	steps, err := e.course.Plan(e.content)
	if err != nil {
		return err
	}
	pt := e.paintFor(e.stdout)
	e.printExercises(st, steps, pt)
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, e.ui.T("progress_hints_total", "Count", st.HintsUsed()))
	fmt.Fprintln(e.stdout)
	e.printQuizzes(st, steps, pt)
	return nil
}

// printExercises writes when the learner started and every exercise in course order with its
// status, checks and hints.
func (e *env) printExercises(st *progress.State, steps course.Plan, pt tty.Paint) {
	w := e.stdout
	now := time.Now()
	list := steps.Exercises()
	passed, nameWidth := 0, 0
	for _, ex := range list {
		if st.Lookup(ex.Name).Status() == progress.Passed {
			passed++
		}
		nameWidth = max(nameWidth, len(ex.Name))
	}
	fmt.Fprintln(w, pt.Bold(e.ui.T("progress_started", "Since", e.since(st.Started, now), "Date", st.Started.Local().Format("2006-01-02"))))
	fmt.Fprintln(w)
	fmt.Fprintln(w, pt.Bold(e.ui.N("home_passed", passed, "Total", len(list))))
	for _, ex := range list {
		x := st.Lookup(ex.Name)
		status := x.Status()
		line := fmt.Sprintf("  %s %s  %s", statusMark(pt, status), pad(ex.Name, nameWidth), e.statusText(status))
		var facts []string
		if x != nil && x.Checks > 0 {
			facts = append(facts, e.ui.N("progress_checks", x.Checks))
		}
		if x != nil && x.Hints > 0 {
			facts = append(facts, e.ui.N("progress_hints", x.Hints))
		}
		if x != nil && x.SolutionSeen {
			facts = append(facts, e.ui.T("progress_solution_seen"))
		}
		if len(facts) > 0 {
			line += " (" + strings.Join(facts, ", ") + ")"
		}
		fmt.Fprintln(w, line)
	}
}

// printQuizzes writes the score of every lesson's quiz taken, and the quizzes not taken yet.
func (e *env) printQuizzes(st *progress.State, steps course.Plan, pt tty.Paint) {
	w := e.stdout
	fmt.Fprintln(w, pt.Bold(e.ui.T("progress_quizzes")))
	any := false
	for _, s := range steps {
		if s.Lesson == nil {
			continue
		}
		q := st.Quizzes[s.Lesson.Topic]
		if q == nil {
			if s.Lesson.Quizzes() > 0 {
				fmt.Fprintln(w, "  "+pt.Dim("·")+" "+e.ui.T("progress_quiz_none", "Title", s.Lesson.Title, "Topic", s.Lesson.Topic))
				any = true
			}
			continue
		}
		any = true
		line := e.ui.T("progress_quiz_once", "Title", s.Lesson.Title, "Score", e.ui.N("quiz_score", q.Last, "Total", q.Total))
		if q.Best != q.Last {
			line = e.ui.T("progress_quiz", "Title", s.Lesson.Title,
				"Score", e.ui.N("quiz_score", q.Last, "Total", q.Total),
				"Best", e.ui.N("quiz_score", q.Best, "Total", q.Total))
		}
		fmt.Fprintln(w, "  "+quizMark(pt, q)+" "+line)
	}
	if !any {
		fmt.Fprintln(w, "  "+e.ui.T("progress_no_quizzes"))
	}
}

func quizMark(pt tty.Paint, q *progress.Quiz) string {
	if q.Best == q.Total {
		return pt.Green("✓")
	}
	return pt.Yellow("~")
}
