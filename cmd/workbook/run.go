package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/workspace"
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
	var ws *workspace.Workspace
	if *dir == "" && len(pos) == 0 && e.ws == nil {
		return e.usageErr("err_run_args")
	}
	if *dir == "" {
		if ws, err = e.needWorkspace(); err != nil {
			if e.ws != nil || len(pos) != 1 {
				return err
			}
			if _, uerr := e.exercise(pos[0]); uerr != nil {
				return uerr
			}
			return e.usageErr("err_no_place_dir", "Name", pos[0])
		}
	}
	ex, err := e.exerciseArg(ws, pos, "err_run_args")
	if err != nil {
		return err
	}
	src, err := e.learnerDir(ws, ex, *dir)
	if err != nil {
		return err
	}
	done := e.busy(e.ui.T("busy_run", "Dir", e.rel(src)), busyAfter)
	prog, err := checker.Build(ctx, src, ex.Limits(checker.Limits{RunTime: *timeout}))
	done()
	var bf *checker.BuildFailure
	if errors.As(err, &bf) {
		res := &checker.Result{Exercise: ex.Name, Lang: e.content, Dir: e.rel(src), Verdict: bf.Verdict,
			BuildLog: bf.Log, Message: bf.Reason, Skipped: bf.Skipped, Cases: []checker.CaseResult{}}
		report.Text(e.stdout, res, e.ui, report.Options{Color: e.colorOK(e.stdout), Title: ex.Title(e.content)})
		return errFailed
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return e.usageErr("err_check_tool", "Err", err.Error())
	}
	defer prog.Close()
	out := prog.Run(ctx, "", progArgs, "")
	if ctx.Err() != nil {
		return ctx.Err()
	}
	fmt.Fprint(e.stdout, report.Escape(out.Stdout))
	fmt.Fprint(e.stderr, report.Escape(out.OwnStderr()))
	cs := checker.CaseResult{Visible: true, Status: out.Status, Message: out.Reason, Blocked: out.Blocked}
	lines := report.VirtualLines(e.ui, cs)
	switch {
	case len(lines) > 0:
	case out.Status == checker.Timeout:
		lines = []string{e.ui.T("status_timeout"), e.ui.T("time_limit", "Seconds", e.ui.Decimal(timeout.Seconds(), -1))}
	case out.Status == checker.OutputLimit, out.Status == checker.MemoryLimit:
		lines = []string{e.ui.T("status_" + string(out.Status))}
	}
	for _, l := range lines {
		fmt.Fprintln(e.stderr, "workbook: "+report.EscapeLine(l))
	}
	if out.Status != checker.Pass && out.Status != checker.Crash || out.ExitCode != 0 {
		return &cli.ExitError{Code: 1, Msg: e.ui.T("run_exit", "Code", out.ExitCode)}
	}
	return nil
}
