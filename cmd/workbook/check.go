package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/workspace"
)

var checkCmd = &command{name: "check", usage: "check_usage", summary: "check_summary"}

func init() {
	checkCmd.run = runCheck
	register(checkCmd)
}

// runCheck builds the learner's program and runs every case of the exercise against it.
func runCheck(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags(checkCmd)
	dir := fs.String("dir", "", e.ui.T("flag_dir"))
	asJSON := fs.Bool("json", false, e.ui.T("flag_json"))
	timeout := fs.Duration("timeout", 2*time.Second, e.ui.T("flag_timeout"))
	pos, err := e.parse(checkCmd, fs, args)
	if err != nil {
		return err
	}
	// Without --dir the program is the learner's copy in the workspace (made now in a fresh clone);
	// without a name, the exercise is the one whose folder the learner is in.
	var ws *workspace.Workspace
	if *dir == "" && len(pos) == 0 && e.ws == nil {
		return e.usageErr("err_check_args")
	}
	if *dir == "" {
		if ws, err = e.needWorkspace(); err != nil {
			if e.ws != nil || len(pos) != 1 {
				return err // a clone's workspace that could not be made
			}
			if _, uerr := e.exercise(pos[0]); uerr != nil {
				return uerr
			}
			return e.usageErr("err_no_place_dir", "Name", pos[0])
		}
	}
	ex, err := e.exerciseArg(ws, pos, "err_check_args")
	if err != nil {
		return err
	}
	src, err := e.learnerDir(ws, ex, *dir)
	if err != nil {
		return err
	}
	if ws == nil {
		// A --dir inside a workspace is checked in the workspace's language; any other folder (a
		// clone's solutions/, a folder of one's own) in the language named, as it holds no
		// workspace's program.
		if ws = workspace.Find(src); ws != nil && ws.Exists() && inside(src, ws.Root) {
			e.enter(ws)
		} else {
			ws = nil
			e.contentLang()
		}
	}
	cases, err := ex.CheckCases(ctx, e.content) // the exercise's cases and a few drawn afresh
	if err != nil {
		return err
	}
	done := e.busy(e.ui.T("busy_check", "Dir", e.rel(src)), busyAfter)
	res, err := checker.Check(ctx, src, cases, checker.Options{
		Exercise: ex.Name,
		Lang:     e.content,
		UILang:   e.ui.Lang(),
		Limits:   ex.Limits(checker.Limits{RunTime: *timeout}),
	})
	done()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return e.usageErr("err_check_tool", "Err", err.Error())
	}
	if *asJSON {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(res.Redacted()); err != nil {
			return err
		}
		e.stdout.Write(report.EscapeJSON(buf.Bytes())) // no raw DEL or C1 control of the program's reaches the terminal
	} else {
		report.Text(e.stdout, res, e.ui, report.Options{Color: e.colorOK(e.stdout), Title: ex.Title(e.content), ShowPass: true, Group: true, TimeLimit: *timeout})
		e.afterCheck(ws, ex, src, res.Verdict == checker.Pass)
	}
	e.recordCheck(ws, ex, src, string(res.Verdict))
	if res.Verdict != checker.Pass {
		return errFailed
	}
	return nil
}

// exercise looks an exercise up by name; an unknown one is a usage error that lists the others.
func (e *env) exercise(name string) (*course.Exercise, error) {
	ex, err := e.course.Exercise(name)
	if errors.Is(err, course.ErrUnknownExercise) {
		names := e.course.Names()
		msg := e.ui.T("err_unknown_exercise", "Name", name, "List", strings.Join(names, ", "))
		return nil, &exitError{code: 2, msg: e.didYouMean(msg, name, names)}
	}
	return ex, err
}

// learnerDir is the folder holding the learner's program: --dir when given, else the exercise's
// folder in the workspace. A folder without the Go files of a package main is a usage error that
// names the folder expected.
func (e *env) learnerDir(ws *workspace.Workspace, ex *course.Exercise, dir string) (string, error) {
	if dir == "" {
		dir = ws.ExerciseDir(ex)
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
	if !hasMain(dir) {
		return "", e.usageErr("err_no_main", "Dir", e.rel(dir), "Name", ex.Name)
	}
	return dir, nil
}

// hasMain reports whether dir holds a Go file of package main (test files aside).
func hasMain(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	fset := token.NewFileSet()
	for _, d := range entries {
		name := d.Name()
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err != nil || f.Name.Name == "main" {
			return true // a file that does not parse is the build's to report
		}
	}
	return false
}

// afterCheck ends a check's report with what to do next: after a pass the next exercise (or the
// lesson it follows), after a failure the hint, and always where the statement is and which file to
// edit when the program checked is the learner's own.
func (e *env) afterCheck(ws *workspace.Workspace, ex *course.Exercise, src string, passed bool) {
	w := e.stdout
	mine := ws != nil && sameDir(src, ws.ExerciseDir(ex))
	if passed {
		if !mine {
			return
		}
		steps, err := e.plan(e.content)
		if err != nil {
			return
		}
		list := exercisesInOrder(steps)
		for i, x := range list {
			if x.Name != ex.Name {
				continue
			}
			if i+1 == len(list) {
				fmt.Fprintln(w, e.ui.T("next_after_pass_last"))
				return
			}
			next := list[i+1]
			if l := lessonOf(steps, next); l != nil && l != lessonOf(steps, x) {
				fmt.Fprintln(w, e.ui.T("next_after_pass_lesson", "Title", l.Title, "Topic", l.Topic, "Name", next.Name))
				return
			}
			fmt.Fprintln(w, e.ui.T("next_after_pass", "Title", next.Title(e.content), "Name", next.Name))
			return
		}
		return
	}
	fmt.Fprintln(w, e.ui.T("next_hint", "Name", ex.Name))
	if mine {
		fmt.Fprintln(w, e.ui.T("check_where", "Task", e.rel(ws.StatementPath(ex)), "Main", e.rel(filepath.Join(ws.ExerciseDir(ex), "main.go"))))
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

// inside reports whether path is root or below it.
func inside(path, root string) bool {
	p, err1 := filepath.Abs(path)
	r, err2 := filepath.Abs(root)
	return err1 == nil && err2 == nil && workspace.Within(p, r)
}
