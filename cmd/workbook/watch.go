package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/learn"
	"github.com/workbook-course/workbook/internal/render"
	"github.com/workbook-course/workbook/internal/tty"
	"github.com/workbook-course/workbook/internal/watch"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runWatch checks an exercise, then again on every save, one check at a time. When it passes, it
// moves on to the next exercise of the course that has not passed. Ctrl-C ends it; so do --once (after
// the first pass) and --for (after that long), which scripts and tests use.
func runWatch(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	once := flags.Bool("once", false, e.ui.T("flag_watch_once"))
	limit := flags.Duration("for", 0, e.ui.T("flag_watch_for"))
	timeout := flags.Duration("timeout", 2*time.Second, e.ui.T("flag_timeout"))
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return e.usageErr("err_watch_args")
	}
	p, err := e.needWorkspace()
	if err != nil {
		return err
	}
	steps, err := e.course.Plan(e.content)
	if err != nil {
		return err
	}
	var ex *course.Exercise
	if len(pos) == 1 {
		if ex, err = e.exercise(pos[0]); err != nil {
			return err
		}
	} else if ex = e.exerciseHere(p); ex == nil {
		st, err := e.loadState(p)
		if err != nil {
			return err
		}
		if ex = steps.Next(st); ex == nil {
			fmt.Fprintln(e.stdout, e.ui.T("watch_all_done"))
			return nil
		}
	}
	// --for ends the watching, never a check under way: a check that a busy machine makes slow is
	// shown whole (Ctrl-C stops both).
	checks := ctx
	if *limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *limit)
		defer cancel()
	}
	if f, ok := e.stdout.(*os.File); ok {
		if tty.IsTerminal(f) {
			// Old Windows consoles need to be told to understand the escape that clears the screen.
			if restore, err := render.EnableEscapes(f); err == nil {
				defer restore()
			}
		}
	}
	w := &watcher{e: e, p: p, steps: steps, timeout: *timeout, checks: checks}
	err = w.loop(ctx, ex, *once)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintln(e.stdout)
		fmt.Fprintln(e.stdout, e.ui.T("watch_stopped"))
		return nil // Ctrl-C (or --for) is how watching ends
	}
	return err
}

type watcher struct {
	e       *env
	p       *workspace.Workspace
	steps   course.Plan
	timeout time.Duration
	checks  context.Context // what stops a check under way: Ctrl-C, not --for
}

// loop watches ex until it passes, then the next exercise, until the course is done or ctx ends.
func (w *watcher) loop(ctx context.Context, ex *course.Exercise, once bool) error {
	e := w.e
	fsw, err := watch.New(func(err error) { e.warn("warn_watch", "Err", err.Error()) })
	if err != nil {
		return e.usageErr("err_watch_start", "Err", err.Error())
	}
	defer fsw.Close()
	for ex != nil {
		dir := w.p.ExerciseDir(ex, e.content)
		err := fsw.Until(ctx, dir, func(context.Context) (bool, error) { return w.check(w.checks, ex, dir) })
		var de *watch.DirError
		if errors.As(err, &de) {
			return e.usageErr("err_watch_dir", "Dir", dir, "Err", de.Err.Error(), "Name", ex.Name)
		}
		if err != nil {
			return err
		}
		if once {
			return nil
		}
		st, err := e.loadState(w.p)
		if err != nil {
			return err
		}
		next := w.steps.Next(st)
		if next == nil {
			fmt.Fprintln(e.stdout)
			fmt.Fprintln(e.stdout, e.paintFor(e.stdout).Green(e.ui.T("watch_all_done")))
			return nil
		}
		fmt.Fprintln(e.stdout)
		fmt.Fprintln(e.stdout, e.ui.T("watch_next", "Title", next.Title(e.content), "Name", next.Name))
		// Give the learner a moment to read the good news before the screen clears.
		if err := watch.Sleep(ctx, 2*time.Second); err != nil {
			return err
		}
		ex = next
	}
	return nil
}

// check clears the screen, checks ex in dir, reports and records the verdict.
func (w *watcher) check(ctx context.Context, ex *course.Exercise, dir string) (bool, error) {
	e := w.e
	out := e.stdout
	pt := e.paintFor(out)
	if tty.IsTerminal(out) {
		fmt.Fprint(out, "\x1b[H\x1b[2J\x1b[3J")
	} else {
		fmt.Fprintln(out, strings.Repeat("─", 60))
	}
	fmt.Fprintln(out, pt.Dim(e.ui.T("watch_checking", "Time", time.Now().Format("15:04:05"))))
	// The exercise's cases and a few drawn afresh, recorded, as check has (learn.Session.Check).
	s := e.session(w.p)
	c, err := e.checkProgram(ctx, s, learn.CheckRequest{Exercise: ex, Dir: dir,
		Limits: checker.Limits{RunTime: w.timeout}, Mine: w.p.Mine(ex, e.content, dir)})
	if ctx.Err() != nil {
		return false, ctx.Err() // stopped in the middle: no verdict to show or record
	}
	if err != nil {
		return false, err
	}
	s.Report(out, c, learn.Look{Color: pt.On})
	if c.KeptPass {
		fmt.Fprintln(out, e.ui.T("check_starter_kept_pass", "Name", ex.Name))
	}
	if c.Result.Verdict == checker.Pass {
		return true, nil
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, pt.Dim(e.ui.T("watch_waiting", "Dir", dir, "Name", ex.Name)))
	return false, nil
}
