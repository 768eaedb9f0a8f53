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
	"github.com/workbook-course/workbook/internal/learn"
	"github.com/workbook-course/workbook/internal/paths"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runCheck builds the learner's program and runs every case of the exercise against it, through
// the learner's session (learn.Session.Check), as the browser does.
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
	s := e.session(ws)
	mine := ws != nil && ws.Mine(ex, e.content, src)
	c, err := e.checkProgram(ctx, s, learn.CheckRequest{Exercise: ex, Dir: src,
		Limits: checker.Limits{RunTime: *timeout}, Seed: *seed, Mine: mine})
	if err != nil {
		return err
	}
	if *asJSON {
		if err := report.JSON(e.stdout, c.Result); err != nil {
			return err
		}
	} else {
		s.Report(e.stdout, c, learn.Look{Color: e.colorOK(e.stdout), SideBySide: *sideBySide})
		for _, line := range s.Says(c) {
			fmt.Fprintln(e.stdout, line)
		}
		if c.Result.Verdict != checker.Pass && mine {
			fmt.Fprintln(e.stdout, e.ui.T("check_where", "Task", e.rel(ws.StatementPath(ex, e.content)), "Main", e.rel(filepath.Join(ws.ExerciseDir(ex, e.content), "main.go"))))
		}
	}
	if c.Result.Verdict != checker.Pass {
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

// findClone returns the root of the clone of this repository that holds the working directory, or "".
func findClone() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return workspace.CloneRoot(wd)
}

// checkProgram makes the check req in session s, saying it is busy when that takes a while. Ctrl-C
// is exit 130 with nothing reported or recorded; a checker that fails is a tool error; a progress
// file that cannot be written is a warning (the check itself is done and is reported).
func (e *env) checkProgram(ctx context.Context, s *learn.Session, req learn.CheckRequest) (*learn.Checked, error) {
	ctx, done := e.busyBuild(ctx, e.ui.T("busy_check", "Dir", e.rel(req.Dir)))
	c, err := s.Check(ctx, req)
	done()
	var te *course.ToolError
	switch {
	case ctx.Err() != nil:
		// Whatever the runs cut short look like, nothing of it is the program's verdict.
		return nil, &cli.ExitError{Code: 130, Msg: e.ui.T("err_check_interrupted")}
	case errors.As(err, &te):
		return nil, e.usageErr("err_check_tool", "Err", te.Err.Error())
	case c == nil:
		return nil, err
	case err != nil:
		fmt.Fprintln(e.stderr, "workbook: "+e.stateErr(s.Place.StatePath, err).Error())
	}
	return c, nil
}
