package main

import (
	"context"
	"fmt"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runHint shows the next hint step of an exercise and records that it was used. Each call gives one
// more step; after the last, it shows the last again. --all shows every step given so far (outside a
// workspace, every step).
func runHint(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	all := flags.Bool("all", false, e.ui.T("flag_hint_all"))
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	p, err := e.keepWorkspace()
	if err != nil {
		return err
	}
	ex, err := e.exerciseArg(p, pos, "err_hint_args")
	if err != nil {
		return err
	}
	hints, err := ex.Hints(e.content)
	if err != nil || len(hints) == 0 {
		return e.usageErr("err_no_hints", "Name", ex.Name)
	}
	from, to := 1, 1 // the steps to show, from 1
	if p == nil {
		if *all {
			to = len(hints)
		}
	} else if _, err := e.updateState(p, func(st *progress.State) error {
		from, to = st.TakeHint(ex.Name, len(hints), *all)
		return nil
	}); err != nil {
		return err
	}
	pt := e.paintFor(e.stdout)
	for i := from; i <= to; i++ {
		fmt.Fprintln(e.stdout, pt.Bold(e.ui.T("hint_heading", "N", i, "Total", len(hints), "Title", ex.Title(e.content), "Name", ex.Name)))
		fmt.Fprintln(e.stdout)
		if err := e.printMarkdown(hints[i-1]); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout)
	}
	switch {
	case p == nil && !*all:
		fmt.Fprintln(e.stdout, pt.Dim(e.ui.T("hint_not_kept")))
	case to < len(hints):
		fmt.Fprintln(e.stdout, pt.Dim(e.ui.N("hint_more", len(hints)-to, "Name", ex.Name)))
	default:
		fmt.Fprintln(e.stdout, pt.Dim(e.ui.T("hint_last", "Name", ex.Name)))
	}
	return nil
}

// exerciseArg is the exercise a command is about: the one named, else the one whose folder the
// learner is in. Without either it is a usage error with message id usage.
func (e *env) exerciseArg(p *workspace.Workspace, pos []string, usage string) (*course.Exercise, error) {
	switch {
	case len(pos) == 1:
		return e.exercise(pos[0])
	case len(pos) > 1:
		return nil, e.usageErr(usage)
	}
	if ex := e.exerciseHere(p); ex != nil {
		return ex, nil
	}
	return nil, e.usageErr(usage)
}
