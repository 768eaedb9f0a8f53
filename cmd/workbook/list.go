package main

import (
	"context"
	"time"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
)

// runList shows the course in order (course.View.List): each lesson, then its exercises with their status, difficulty
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
	course.View{W: e.stdout, UI: e.ui, Paint: e.paintFor(e.stdout)}.List(steps, st, lang)
	return nil
}
