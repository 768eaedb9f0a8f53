package main

import (
	"context"
	"fmt"
	"time"

	"github.com/workbook-course/workbook/internal/course"
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
	v := course.View{W: e.stdout, UI: e.ui, Paint: e.paintFor(e.stdout)}
	v.Exercises(steps, st, time.Now())
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, e.ui.T("progress_hints_total", "Count", st.HintsUsed()))
	fmt.Fprintln(e.stdout)
	v.Quizzes(steps, st)
	return nil
}
