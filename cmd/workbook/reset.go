package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

var resetCmd = &command{name: "reset", usage: "reset_usage", summary: "reset_summary"}

func init() {
	resetCmd.run = runReset
	register(resetCmd)
}

// runReset puts the pristine starter of an exercise back, from the course the binary carries. The
// learner's folder is copied, whole, into the workspace's backup folder first, so nothing is lost. Progress is untouched: it follows verdicts, and
// the next check gives the new one.
func runReset(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags(resetCmd)
	pos, err := e.parse(resetCmd, flags, args)
	if err != nil {
		return err
	}
	p, err := e.needWorkspace()
	if err != nil {
		return err
	}
	ex, err := e.exerciseArg(p, pos, "err_reset_args")
	if err != nil {
		return err
	}
	dir := p.ExerciseDir(ex)
	backup, err := p.Restore(e.course, ex, e.content, checker.GoVersion())
	if err != nil {
		var be *workspace.BackupError
		if errors.As(err, &be) {
			return e.usageErr("err_reset_backup", "Dir", dir, "Err", be.Err.Error())
		}
		return e.usageErr("err_reset_write", "Dir", dir, "Err", err.Error(), "Backup", backup)
	}
	if _, err := e.updateState(p, func(st *progress.State) error {
		st.Exercise(ex.Name).Resets++
		return nil
	}); err != nil {
		return err
	}
	if backup == "" {
		fmt.Fprintln(e.stdout, e.ui.T("reset_done_fresh", "Dir", dir))
	} else {
		fmt.Fprintln(e.stdout, e.ui.T("reset_done", "Dir", dir, "Backup", backup))
	}
	return nil
}
