package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/learn"
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
	h, err := e.session(p).Hint(learn.HintRequest{Exercise: ex, All: *all})
	if errors.Is(err, learn.ErrNoHints) {
		return e.usageErr("err_no_hints", "Name", ex.Name)
	}
	if err != nil {
		return e.stateErr(p.StatePath(), err)
	}
	pt := e.paintFor(e.stdout)
	for i, step := range h.Shown() {
		fmt.Fprintln(e.stdout, pt.Bold(e.ui.T("hint_heading", "N", h.From+i, "Total", h.Total, "Title", ex.Title(e.content), "Name", ex.Name)))
		fmt.Fprintln(e.stdout)
		if err := e.printMarkdown(step); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout)
	}
	switch {
	case p == nil && !*all:
		fmt.Fprintln(e.stdout, pt.Dim(e.ui.T("hint_not_kept")))
	case h.To < h.Total:
		fmt.Fprintln(e.stdout, pt.Dim(e.ui.N("hint_more", h.Total-h.To, "Name", ex.Name)))
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
