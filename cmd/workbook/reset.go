package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/progress"
)

var resetCmd = &command{name: "reset", usage: "reset_usage", summary: "reset_summary"}

func init() {
	resetCmd.run = runReset
	register(resetCmd)
}

// runReset puts the starter of an exercise back. The learner's folder is copied, whole, into the
// place's backup folder first, so nothing is lost. Progress is untouched: it follows verdicts, and
// the next check gives the new one.
func runReset(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags(resetCmd)
	pos, err := e.parse(resetCmd, flags, args)
	if err != nil {
		return err
	}
	p, err := e.mustPlace()
	if err != nil {
		return err
	}
	ex, err := e.exerciseArg(p, pos, "err_reset_args")
	if err != nil {
		return err
	}
	dir := p.exerciseDir(ex)
	backup := ""
	if _, err := os.Stat(dir); err == nil {
		// Backups are numbered 1, 2, 3… per exercise: the highest is the newest.
		for n := 1; ; n++ {
			backup = filepath.Join(p.backupRoot(), ex.Name, strconv.Itoa(n))
			if _, err := os.Stat(backup); errors.Is(err, fs.ErrNotExist) {
				break
			}
		}
		if err := copyTree(os.DirFS(dir), ".", backup); err != nil {
			return e.usageErr("err_reset_backup", "Dir", dir, "Err", err.Error())
		}
		// Empty the folder rather than move it: the learner's shell or editor may stand in it.
		entries, err := os.ReadDir(dir)
		if err != nil {
			return e.usageErr("err_reset_backup", "Dir", dir, "Err", err.Error())
		}
		for _, d := range entries {
			if err := os.RemoveAll(filepath.Join(dir, d.Name())); err != nil {
				return e.usageErr("err_reset_write", "Dir", dir, "Err", err.Error(), "Backup", backup)
			}
		}
	}
	var werr error
	if p.kind == inWorkspace {
		werr = writeExercise(e.course.FS(), ex, p.lang, dir, checker.GoVersion())
	} else {
		werr = copyTree(e.course.FS(), ex.StarterDir(p.lang), dir)
	}
	if werr != nil {
		return e.usageErr("err_reset_write", "Dir", dir, "Err", werr.Error(), "Backup", backup)
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
