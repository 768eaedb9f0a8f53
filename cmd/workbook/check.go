package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/paths"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runCheck builds the learner's program and runs every case of the exercise against it.
func runCheck(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags()
	dir := fs.String("dir", "", e.ui.T("flag_dir"))
	asJSON := fs.Bool("json", false, e.ui.T("flag_json"))
	timeout := fs.Duration("timeout", 2*time.Second, e.ui.T("flag_timeout"))
	sideBySide := fs.Bool("diff", false, e.ui.T("flag_diff"))
	seed := fs.Uint64("seed", 0, e.ui.T("flag_check_seed"))
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	ws, ex, src, err := e.checkTarget(*dir, pos)
	if err != nil {
		return err
	}
	res, err := e.checkProgram(ctx, ex, src, *timeout, *seed)
	if ctx.Err() != nil {
		// Ctrl-C: whatever the runs cut short look like, nothing of it is the program's verdict, so
		// nothing is reported or recorded.
		return &cli.ExitError{Code: 130, Msg: e.ui.T("err_check_interrupted")}
	}
	if err != nil {
		return err
	}
	if err := e.presentCheck(res, ex, *asJSON, *sideBySide, *timeout); err != nil {
		return err
	}
	kept := e.recordCheck(ws, ex, src, string(res.Verdict))
	if !*asJSON {
		if kept {
			fmt.Fprintln(e.stdout, e.runnable(e.ui.T("check_starter_kept_pass", "Name", ex.Name)))
		}
		e.afterCheck(ws, ex, src, res.Verdict == checker.Pass)
	}
	if res.Verdict != checker.Pass {
		return errFailed
	}
	return nil
}

// checkTarget finds what check checks (programTarget), with the workspace whose language it is
// checked in, nil for a folder outside any workspace.
func (e *env) checkTarget(dir string, pos []string) (ws *workspace.Workspace, ex *course.Exercise, src string, err error) {
	if ws, ex, src, err = e.programTarget(dir, pos, "err_check_args"); err != nil || ws != nil {
		return ws, ex, src, err
	}
	// A --dir inside a workspace is checked in the workspace's language; any other folder (a
	// clone's solutions/, a folder of one's own) in the language named, as it holds no
	// workspace's program.
	if ws = workspace.Find(src); ws != nil && ws.Exists() && paths.Under(ws.Root, src) {
		e.enter(ws)
		return ws, ex, src, nil
	}
	e.contentLang()
	return nil, ex, src, nil
}

// programTarget finds the program a command builds: the exercise named (or the one whose folder
// the learner is in) and the folder of its program (--dir, else the learner's copy in the
// workspace, which is then returned). Without either it is a usage error with message id usage.
func (e *env) programTarget(dir string, pos []string, usage string) (ws *workspace.Workspace, ex *course.Exercise, src string, err error) {
	// Without --dir the program is the learner's copy in the workspace (made now in a fresh clone);
	// without a name, the exercise is the one whose folder the learner is in.
	if dir == "" && len(pos) == 0 && e.ws == nil {
		return nil, nil, "", e.usageErr(usage)
	}
	if dir == "" {
		if ws, err = e.needWorkspace(); err != nil {
			if e.ws != nil || len(pos) != 1 {
				return nil, nil, "", err // a clone's workspace that could not be made
			}
			if _, uerr := e.exercise(pos[0]); uerr != nil {
				return nil, nil, "", uerr
			}
			return nil, nil, "", e.usageErr("err_no_place_dir", "Name", pos[0])
		}
	}
	if ex, err = e.exerciseArg(ws, pos, usage); err != nil {
		return nil, nil, "", err
	}
	if src, err = e.learnerDir(ws, ex, dir); err != nil {
		return nil, nil, "", err
	}
	return ws, ex, src, nil
}

// exercise looks an exercise up by name; an unknown one is a usage error that lists the others.
func (e *env) exercise(name string) (*course.Exercise, error) {
	ex, err := e.course.Exercise(name)
	if errors.Is(err, course.ErrUnknownExercise) {
		names := e.course.Names()
		msg := e.ui.T("err_unknown_exercise", "Name", name, "List", strings.Join(names, ", "))
		return nil, &cli.ExitError{Code: 2, Msg: cli.DidYouMean(e.ui, msg, name, names)}
	}
	return ex, err
}

// learnerDir is the folder holding the learner's program: --dir when given, else the exercise's
// folder in the workspace. A folder without the Go files of a package main is a usage error that
// names the folder expected.
func (e *env) learnerDir(ws *workspace.Workspace, ex *course.Exercise, dir string) (string, error) {
	if dir == "" {
		dir = ws.ExerciseDir(ex, e.content)
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return "", e.usageErr("err_no_exercise_dir", "Dir", e.rel(dir), "Name", ex.Name)
		}
	}
	info, err := os.Stat(dir)
	if err != nil {
		return "", e.usageErr("err_no_dir", "Dir", dir)
	}
	if !info.IsDir() {
		return "", e.usageErr("err_not_dir", "Dir", dir)
	}
	if !checker.HasPackageMain(dir) {
		return "", e.usageErr("err_no_main", "Dir", e.rel(dir), "Name", ex.Name)
	}
	return dir, nil
}

// afterCheck ends a check's report with what to do next: after a pass the first exercise of the
// course not passed yet (or the lesson it needs, when that is another lesson not begun), after a
// failure the hint, and always where the statement is and which file to edit when the program
// checked is the learner's own. The check is recorded already.
func (e *env) afterCheck(ws *workspace.Workspace, ex *course.Exercise, src string, passed bool) {
	w := e.stdout
	mine := ws != nil && ws.Mine(ex, e.content, src)
	if passed {
		if !mine {
			return
		}
		steps, err := e.course.Plan(e.content)
		if err != nil {
			return
		}
		st, err := e.loadState(ws)
		if err != nil {
			return
		}
		switch next, l := steps.AfterPass(st, ex); {
		case next == nil:
			fmt.Fprintln(w, e.runnable(e.ui.T("next_after_pass_all")))
		case l != nil:
			fmt.Fprintln(w, e.runnable(e.ui.T("next_after_pass_lesson", "Title", l.Title, "Topic", l.Topic, "Name", next.Name)))
		default:
			fmt.Fprintln(w, e.runnable(e.ui.T("next_after_pass", "Title", next.Title(e.content), "Name", next.Name)))
		}
		return
	}
	fmt.Fprintln(w, e.runnable(e.ui.T("next_hint", "Name", ex.Name)))
	if mine {
		fmt.Fprintln(w, e.ui.T("check_where", "Task", e.rel(ws.StatementPath(ex, e.content)), "Main", e.rel(filepath.Join(ws.ExerciseDir(ex, e.content), "main.go"))))
	}
}

// findClone returns the root of the clone of this repository that holds the working directory, or "".
func findClone() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return workspace.CloneRoot(wd)
}

// checkProgram checks the program in src against ex's cases (course.Exercise.Check) in the content
// language, saying it is busy when that takes a while. A checker that fails is a tool error.
// seed, when not 0, draws the drawn cases of an earlier check again and shows them in full.
func (e *env) checkProgram(ctx context.Context, ex *course.Exercise, src string, timeout time.Duration, seed uint64) (*checker.Result, error) {
	ctx, done := e.busyBuild(ctx, e.ui.T("busy_check", "Dir", e.rel(src)))
	res, err := ex.CheckSeeded(ctx, src, checker.Options{Lang: e.content, UILang: e.ui.Lang(), Limits: checker.Limits{RunTime: timeout}}, seed)
	done()
	var te *course.ToolError
	if errors.As(err, &te) {
		return nil, e.usageErr("err_check_tool", "Err", te.Err.Error())
	}
	return res, err
}

// presentCheck writes a check's result: as JSON, or as the report for a reader (with the outputs
// side by side when asked).
func (e *env) presentCheck(res *checker.Result, ex *course.Exercise, asJSON, sideBySide bool, timeout time.Duration) error {
	if asJSON {
		return report.JSON(e.stdout, res)
	}
	opt := report.Options{Color: e.colorOK(e.stdout), Title: ex.Title(e.content), ShowPass: true, Group: true, TimeLimit: timeout}
	if res.Seed != 0 {
		opt.Replay = e.runnable(fmt.Sprintf("workbook check %s --seed %d", ex.Name, res.Seed))
	}
	report.Text(e.stdout, res, e.ui, opt)
	if sideBySide {
		report.SideBySide(e.stdout, res, e.ui, opt)
	}
	return nil
}
