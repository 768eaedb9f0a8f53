package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/tty"
)

// runVerify checks lessons and exercises as an author needs them checked.
func runVerify(ctx context.Context, e *env, args []string) error {
	fset := e.newFlags()
	asJSON := fset.Bool("json", false, e.ui.T("flag_json"))
	noCache := fset.Bool("no-cache", false, e.ui.T("flag_no_cache"))
	pos, err := e.parse(fset, args)
	if err != nil {
		return err
	}
	t, err := e.verifyTargets(pos)
	if err != nil {
		return err
	}
	v, err := e.verify(ctx, t, course.OpenCache(*noCache))
	if err != nil {
		return err
	}
	if *asJSON {
		err = v.WriteJSON(e.stdout)
	} else {
		e.printVerify(v)
	}
	if err == nil && len(v.Problems) > 0 {
		return errFailed
	}
	return err
}

// verifyTargets finds what verify checks: what the paths name, or with none the whole course (the
// clone's when the command runs in one, so that an author sees their edits, else the embedded one).
func (e *env) verifyTargets(paths []string) (*course.Targets, error) {
	t := course.NewTargets()
	if len(paths) == 0 {
		fsys := e.course.FS()
		if root := findClone(); root != "" {
			fsys = os.DirFS(root)
		}
		if err := t.AddCourse(fsys); err != nil {
			return nil, err
		}
	}
	for _, p := range paths {
		if err := t.AddPath(p); err != nil {
			var te *course.TargetError
			if !errors.As(err, &te) {
				return nil, err
			}
			if te.Code == "tool" {
				return nil, e.usageErr("err_verify_tool", "Err", te.Err.Error())
			}
			return nil, e.usageErr("err_verify_"+te.Code, "Path", te.Path)
		}
	}
	return t, nil
}

// print writes the report for a person: the problems, the mutation scores, what came from the
// cache, and the verdict.
func (e *env) printVerify(v *course.Report) {
	for _, p := range v.Problems {
		e.printProblem(e.stdout, p)
	}
	if len(v.Problems) > 0 && len(v.Scores) > 0 {
		fmt.Fprintln(e.stdout)
	}
	for _, s := range v.Scores {
		id := "verify_mutation"
		if s.Cached {
			id = "verify_mutation_cached"
		}
		fmt.Fprintln(e.stdout, e.ui.T(id, "Name", s.Exercise, "Mutants", s.Mutants, "Killed", s.Killed,
			"Equivalent", s.Equivalent, "Survivors", s.Survivors, "Score", e.ui.Decimal(s.Score, 1), "Seconds", e.ui.Decimal(s.Seconds, 1)))
	}
	t := v.Targets
	if v.CacheReads && t.Lessons > 0 {
		fmt.Fprintln(e.stdout, e.ui.T("verify_cache", "Unchanged", e.ui.N("verify_n_lessons_unchanged", v.LessonsCached),
			"Analysed", e.ui.N("verify_n_lessons_analysed", t.Lessons-v.LessonsCached)))
	}
	if v.CacheReads && len(t.Exercises) > 0 {
		fmt.Fprintln(e.stdout, e.ui.T("verify_cache", "Unchanged", e.ui.N("verify_n_unchanged", v.Cached),
			"Analysed", e.ui.N("verify_n_analysed", len(t.Exercises)-v.Cached)))
	}
	checked := []any{
		"Lessons", e.ui.N("verify_n_lessons", t.Lessons),
		"Exercises", e.ui.N("verify_n_exercises", len(t.Exercises)),
	}
	if len(v.Problems) == 0 {
		fmt.Fprintln(e.stdout, e.ui.T("verify_ok", checked...))
		return
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, e.ui.T("verify_failed", append(checked, "Problems", e.ui.N("verify_n_problems", len(v.Problems)))...))
}

// verify runs course.Verify, telling a person at a terminal which exercise it audits.
func (e *env) verify(ctx context.Context, t *course.Targets, cache *course.Cache) (*course.Report, error) {
	var progress func(name string, n, total int)
	if tty.IsTerminal(e.stderr) {
		progress = func(name string, n, total int) {
			if name == "" {
				fmt.Fprintf(e.stderr, "\r\x1b[K%s", e.ui.T("verify_progress_build", "Exercises", e.ui.N("verify_n_exercises", total)))
				return
			}
			fmt.Fprintf(e.stderr, "\r\x1b[K%s", e.ui.T("verify_progress", "Name", name, "N", n, "Total", total))
		}
	}
	v, err := course.Verify(ctx, t, cache, e.ui, progress)
	if progress != nil && len(t.Exercises) > 0 {
		fmt.Fprint(e.stderr, "\r\x1b[K")
	}
	var te *course.ToolError
	if errors.As(err, &te) {
		return nil, e.usageErr("err_verify_tool", "Err", te.Err.Error())
	}
	return v, err
}

// printProblem writes one problem: "file:line: message", then the first differing line and what
// the compiler or the program said, indented.
func (e *env) printProblem(w io.Writer, p course.ReportLine) {
	loc := p.File
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	fmt.Fprintf(w, "%s: %s\n", loc, p.Message)
	ind := "    "
	if d := p.Diff; d != nil {
		dt := report.Explain(e.ui, d)
		fmt.Fprintln(w, ind+e.ui.T("want_label")+" "+dt.Want)
		fmt.Fprintln(w, ind+e.ui.T("got_label")+" "+dt.Got)
		for _, msg := range dt.Notes {
			fmt.Fprintln(w, ind+"! "+msg)
		}
	}
	if p.Detail != "" {
		for _, l := range strings.Split(p.Detail, "\n") {
			fmt.Fprintln(w, ind+l)
		}
	}
}
