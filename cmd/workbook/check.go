package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/report"
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
	// Without a name, the exercise is the one whose folder the learner is in.
	var here *place
	if len(pos) == 0 && *dir == "" {
		if wd, err := os.Getwd(); err == nil {
			here = e.where(wd)
		}
	}
	ex, err := e.exerciseArg(here, pos, "err_check_args")
	if err != nil {
		return err
	}
	src, err := e.learnerDir(ex, *dir)
	if err != nil {
		return err
	}
	cases, err := ex.Cases()
	if err != nil {
		return err
	}
	res, err := checker.Check(ctx, src, cases, checker.Options{
		Exercise: ex.Name,
		Lang:     e.content,
		UILang:   e.ui.Lang(),
		Limits:   checker.Limits{RunTime: *timeout},
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return e.usageErr("err_check_tool", "Err", err.Error())
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(res.Redacted()); err != nil {
			return err
		}
	} else {
		report.Text(e.stdout, res, e.ui, report.Options{Color: e.colorOK(e.stdout), Title: ex.Title(e.content)})
		if res.Verdict != checker.Pass {
			if _, ok := commands["hint"]; ok {
				fmt.Fprintln(e.stdout, e.ui.T("next_hint", "Name", ex.Name))
			}
		}
	}
	e.recordCheck(ex, src, string(res.Verdict))
	if res.Verdict != checker.Pass {
		return errFailed
	}
	return nil
}

// exercise looks an exercise up by name; an unknown one is a usage error that lists the others.
func (e *env) exercise(name string) (*course.Exercise, error) {
	ex, err := e.course.Exercise(name)
	if errors.Is(err, course.ErrUnknownExercise) {
		return nil, e.usageErr("err_unknown_exercise", "Name", name, "List", strings.Join(e.course.Names(), ", "))
	}
	return ex, err
}

// learnerDir is the folder holding the learner's program: --dir when given, else the exercise's
// folder in the workspace (made by `workbook init`) or the clone of the repository the command runs
// in. In a workspace the content language becomes the workspace's.
func (e *env) learnerDir(ex *course.Exercise, dir string) (string, error) {
	p := e.where(dir)
	if dir == "" {
		if p == nil {
			return "", e.usageErr("err_no_place_dir", "Name", ex.Name)
		}
		dir = p.exerciseDir(ex)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return "", e.usageErr("err_no_dir", "Dir", dir)
	}
	if !info.IsDir() {
		return "", e.usageErr("err_not_dir", "Dir", dir)
	}
	return dir, nil
}

// findClone returns the root of the clone of this repository that holds the working directory, or "".
func findClone() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module github.com/workbook-course/workbook\n") {
			if fi, err := os.Stat(filepath.Join(dir, "exercises")); err == nil && fi.IsDir() {
				return dir
			}
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}
