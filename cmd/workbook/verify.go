package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/tty"
)

var verifyCmd = &command{name: "verify", usage: "verify_usage", summary: "verify_summary"}

func init() {
	verifyCmd.run = runVerify
	register(verifyCmd)
}

// problem is one line of the report, from a lesson or an exercise.
type problem struct {
	File    string        `json:"file"`
	Line    int           `json:"line,omitempty"`
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Diff    *checker.Diff `json:"diff,omitempty"`
	Detail  string        `json:"detail,omitempty"`
}

// runVerify checks lessons and exercises as an author needs them checked.
func runVerify(ctx context.Context, e *env, args []string) error {
	fset := e.newFlags(verifyCmd)
	asJSON := fset.Bool("json", false, e.ui.T("flag_json"))
	noCache := fset.Bool("no-cache", false, e.ui.T("flag_no_cache"))
	pos, err := e.parse(verifyCmd, fset, args)
	if err != nil {
		return err
	}
	t, err := e.verifyTargets(pos)
	if err != nil {
		return err
	}
	cache := course.OpenCache(*noCache)
	lessonErrs, lessonsCached, err := course.VerifyLessons(ctx, t.Files, cache)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return e.usageErr("err_verify_tool", "Err", err.Error())
	}
	all := append(append(lesson.Errors{}, t.LoadErrs...), lessonErrs...)
	all = append(all, t.CheckRefs()...)
	all.Sort()
	var probs []problem
	for _, le := range all {
		probs = append(probs, e.lessonProblem(le))
	}
	exProbs, scores, cached, err := e.verifyExercises(ctx, t.Exercises, cache)
	if err != nil {
		return err
	}
	v := verifyReport{probs: append(probs, exProbs...), scores: scores, cached: cached,
		lessonsCached: lessonsCached, targets: t, cacheReads: cache.Reads()}
	if *asJSON {
		err = v.writeJSON(e.stdout)
	} else {
		v.print(e)
	}
	if err == nil && len(v.probs) > 0 {
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

// verifyReport is what one verify found, to present.
type verifyReport struct {
	probs         []problem
	scores        []mutationScore
	cached        int // exercises taken from the cache
	lessonsCached int
	targets       *course.Targets
	cacheReads    bool
}

// writeJSON writes the report as one JSON object.
func (v verifyReport) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	probs := v.probs
	if probs == nil {
		probs = []problem{}
	}
	return enc.Encode(struct {
		OK        bool            `json:"ok"`
		Lessons   int             `json:"lesson_files"`
		Exercises int             `json:"exercises"`
		Problems  []problem       `json:"problems"`
		Mutation  []mutationScore `json:"mutation"`
		Cached    int             `json:"exercises_cached"`
		LCached   int             `json:"lesson_files_cached"`
	}{len(probs) == 0, v.targets.Lessons, len(v.targets.Exercises), probs, v.scores, v.cached, v.lessonsCached})
}

// print writes the report for a person: the problems, the mutation scores, what came from the
// cache, and the verdict.
func (v verifyReport) print(e *env) {
	for _, p := range v.probs {
		e.printProblem(e.stdout, p)
	}
	if len(v.probs) > 0 && len(v.scores) > 0 {
		fmt.Fprintln(e.stdout)
	}
	for _, s := range v.scores {
		id := "verify_mutation"
		if s.Cached {
			id = "verify_mutation_cached"
		}
		fmt.Fprintln(e.stdout, e.ui.T(id, "Name", s.Exercise, "Mutants", s.Mutants, "Killed", s.Killed,
			"Equivalent", s.Equivalent, "Survivors", s.Survivors, "Score", e.ui.Decimal(s.Score, 1), "Seconds", e.ui.Decimal(s.Seconds, 1)))
	}
	t := v.targets
	if v.cacheReads && t.Lessons > 0 {
		fmt.Fprintln(e.stdout, e.ui.T("verify_cache", "Unchanged", e.ui.N("verify_n_lessons_unchanged", v.lessonsCached),
			"Analysed", e.ui.N("verify_n_lessons_analysed", t.Lessons-v.lessonsCached)))
	}
	if v.cacheReads && len(t.Exercises) > 0 {
		fmt.Fprintln(e.stdout, e.ui.T("verify_cache", "Unchanged", e.ui.N("verify_n_unchanged", v.cached),
			"Analysed", e.ui.N("verify_n_analysed", len(t.Exercises)-v.cached)))
	}
	checked := []any{
		"Lessons", e.ui.N("verify_n_lessons", t.Lessons),
		"Exercises", e.ui.N("verify_n_exercises", len(t.Exercises)),
	}
	if len(v.probs) == 0 {
		fmt.Fprintln(e.stdout, e.ui.T("verify_ok", checked...))
		return
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, e.ui.T("verify_failed", append(checked, "Problems", e.ui.N("verify_n_problems", len(v.probs)))...))
}

// mutationScore is the measure of one exercise's cases by mutation testing.
type mutationScore struct {
	Exercise   string  `json:"exercise"`
	Mutants    int     `json:"mutants"`
	Killed     int     `json:"killed"`
	Equivalent int     `json:"equivalent"`
	Survivors  int     `json:"survivors"`
	Score      float64 `json:"score"`
	Seconds    float64 `json:"seconds"` // of the run that measured it, for a result from the cache too
	Cached     bool    `json:"cached"`  // taken from the cache: nothing it depends on has changed
}

// verifyExercises audits the exercises (course.AuditAll), taking from cache what has not changed and
// telling a person at a terminal what it is doing. The problems and the mutation scores come in the
// order of list; cached is how many exercises were taken from the cache whole.
func (e *env) verifyExercises(ctx context.Context, list []course.TargetExercise, cache *course.Cache) (probs []problem, scores []mutationScore, cached int, err error) {
	exs := make([]*course.Exercise, len(list))
	for i, xa := range list {
		exs[i] = xa.Ex
	}
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
	audits, err := course.AuditAll(ctx, exs, checker.Limits{}, cache, progress)
	if progress != nil && len(list) > 0 {
		fmt.Fprint(e.stderr, "\r\x1b[K")
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, nil, 0, err
		}
		return nil, nil, 0, e.usageErr("err_verify_tool", "Err", err.Error())
	}
	scores = []mutationScore{}
	for i, xa := range list {
		a := audits[i]
		if a.Cached {
			cached++
		}
		for _, p := range a.Problems {
			msg := p.Msg
			if id := "exercise_" + p.Code; i18n.Has(e.ui.Lang(), id) {
				msg = e.ui.T(id, p.Args...)
			}
			probs = append(probs, problem{File: joinDisplay(xa.Display, p.File), Line: p.Line, Code: "exercise_" + p.Code, Message: msg, Detail: p.Detail})
		}
		if m := a.Mutation; m != nil {
			scores = append(scores, mutationScore{Exercise: xa.Ex.Name, Mutants: m.Mutants, Killed: m.Killed,
				Equivalent: m.Equivalent, Survivors: len(m.Survivors), Score: m.Score(), Seconds: m.Elapsed.Seconds(), Cached: a.MutationCached})
		}
	}
	return probs, scores, cached, nil
}

func joinDisplay(root, file string) string {
	if root == "" {
		return file
	}
	return path.Join(root, file)
}

// lessonProblem turns a lesson's problem into a report line in the user's language.
func (e *env) lessonProblem(le *lesson.Error) problem {
	p := problem{File: le.File, Line: le.Line, Code: string(le.Code), Diff: le.Diff, Detail: le.Detail}
	args := map[string]any{}
	for k, v := range le.Args {
		args[k] = v
	}
	if le.Code == lesson.CodeRun {
		switch v, _ := le.Args["Verdict"].(string); v {
		case "exit":
			args["Status"] = e.ui.T("msg_exit_nonzero", "Code", le.Args["Exit"])
		default:
			args["Status"] = e.ui.T("status_" + v)
		}
	}
	kv := make([]any, 0, 2*len(args))
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kv = append(kv, k, args[k])
	}
	id := "lesson_" + string(le.Code)
	p.Message = e.ui.T(id, kv...)
	if p.Message == id {
		p.Message = le.Message()
	}
	return p
}

// printProblem writes one problem: "file:line: message", then the first differing line and what
// the compiler or the program said, indented.
func (e *env) printProblem(w io.Writer, p problem) {
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
