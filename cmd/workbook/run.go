package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/report"
)

// runRun builds the learner's program of an exercise as check does (in virtual time when the
// exercise runs in it) and runs it once with the arguments after "--", printing its stdout and
// stderr: the program's transcript, minutes of virtual backoff in a blink. A goroutine it leaves
// blocked, a deadlock, or a wait outside virtual time is explained on stderr. The exit code is 0 when
// the program exited 0, 1 when it did not, 2 for a usage or tool error.
func runRun(ctx context.Context, e *env, args []string) error {
	own, progArgs := cli.SplitDashes(args)
	fs := e.newFlags()
	dir := fs.String("dir", "", e.ui.T("flag_dir"))
	timeout := fs.Duration("timeout", 10*time.Second, e.ui.T("flag_run_timeout"))
	pos, err := e.parse(fs, own)
	if err != nil {
		return err
	}
	_, ex, src, err := e.programTarget(*dir, pos, "err_run_args")
	if err != nil {
		return err
	}
	bctx, done := e.busyBuild(ctx, e.ui.T("busy_run", "Dir", e.rel(src)))
	prog, failed, err := ex.Build(bctx, src, *timeout)
	done()
	var te *course.ToolError
	switch {
	case failed != nil:
		failed.Lang, failed.Dir = e.content, e.rel(src)
		report.Text(e.stdout, failed, e.ui, report.Options{Color: e.colorOK(e.stdout), Title: ex.Title(e.content)})
		return errFailed
	case errors.As(err, &te):
		return e.usageErr("err_check_tool", "Err", te.Err.Error())
	case err != nil:
		return err
	}
	defer prog.Close()
	out := prog.Run(ctx, "", progArgs, "")
	if ctx.Err() != nil {
		return ctx.Err()
	}
	fmt.Fprint(e.stdout, report.Escape(out.Stdout))
	fmt.Fprint(e.stderr, report.Escape(out.OwnStderr()))
	for _, l := range report.RunLines(e.ui, out, *timeout) {
		fmt.Fprintln(e.stderr, "workbook: "+report.EscapeLine(l))
	}
	if out.Status != checker.Pass && out.Status != checker.Crash || out.ExitCode != 0 {
		return &cli.ExitError{Code: 1, Msg: e.ui.T("run_exit", "Code", out.ExitCode)}
	}
	return nil
}
