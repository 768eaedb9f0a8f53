package verify

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"path"
	"sort"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// ReportLine is one line of verify's report, from a lesson or an exercise, its message in the
// author's language.
type ReportLine struct {
	File    string        `json:"file"`
	Line    int           `json:"line,omitempty"`
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Diff    *checker.Diff `json:"diff,omitempty"`
	Detail  string        `json:"detail,omitempty"`
}

// MutationScore is the measure of one exercise's cases by mutation testing.
type MutationScore struct {
	Exercise   string  `json:"exercise"`
	Mutants    int     `json:"mutants"`
	Killed     int     `json:"killed"`
	Equivalent int     `json:"equivalent"`
	Survivors  int     `json:"survivors"`
	Score      float64 `json:"score"`
	Seconds    float64 `json:"seconds"` // of the run that measured it, for a result from the cache too
	Cached     bool    `json:"cached"`  // taken from the cache: nothing it depends on has changed
}

// Report is what one verify found: the problems (lessons' first, sorted, then the exercises' in
// target order), the mutation scores, and what came from the cache.
type Report struct {
	Problems      []ReportLine
	Scores        []MutationScore
	Cached        int // exercises taken from the cache whole
	LessonsCached int // lesson files taken from the cache
	CacheReads    bool
	Targets       *Targets
}

// Run checks the lessons and exercises of t as an author needs them checked (Lessons, CheckRefs,
// AuditAll), taking from cache what has not changed, with messages in ui's language. progress,
// when not nil, hears which exercise is audited. A failure of the tooling, not of the course, is a
// *course.ToolError; an interrupted verify, ctx's error.
func Run(ctx context.Context, t *Targets, cache *Cache, ui *i18n.Printer, progress func(name string, n, total int)) (*Report, error) {
	lessonErrs, lessonsCached, err := Lessons(ctx, t.Files, cache)
	if err != nil {
		return nil, toolErr(err)
	}
	all := append(append(lesson.Errors{}, t.LoadErrs...), lessonErrs...)
	all = append(all, t.CheckRefs()...)
	all.Sort()
	r := &Report{LessonsCached: lessonsCached, Targets: t, CacheReads: cache.Reads(), Scores: []MutationScore{}}
	for _, le := range all {
		r.Problems = append(r.Problems, LessonProblem(ui, le))
	}
	exs := make([]*course.Exercise, len(t.Exercises))
	for i, xa := range t.Exercises {
		exs[i] = xa.Ex
	}
	audits, err := AuditAll(ctx, exs, checker.Limits{}, cache, progress)
	if err != nil {
		return nil, toolErr(err)
	}
	for i, xa := range t.Exercises {
		r.addAudit(ui, xa, audits[i])
	}
	return r, nil
}

func toolErr(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &course.ToolError{Err: err}
}

// addAudit adds an exercise's problems and mutation score to the report.
func (r *Report) addAudit(ui *i18n.Printer, xa TargetExercise, a *Audit) {
	if a.Cached {
		r.Cached++
	}
	for _, p := range a.Problems {
		msg := p.Msg
		if id := "exercise_" + p.Code; i18n.Has(ui.Lang(), id) {
			msg = ui.T(id, p.Args...)
		}
		file := p.File
		if xa.Display != "" {
			file = path.Join(xa.Display, p.File)
		}
		r.Problems = append(r.Problems, ReportLine{File: file, Line: p.Line, Code: "exercise_" + p.Code, Message: msg, Detail: p.Detail})
	}
	if m := a.Mutation; m != nil {
		r.Scores = append(r.Scores, MutationScore{Exercise: xa.Ex.Name, Mutants: m.Mutants, Killed: m.Killed,
			Equivalent: m.Equivalent, Survivors: len(m.Survivors), Score: m.Score(), Seconds: m.Elapsed.Seconds(), Cached: a.MutationCached})
	}
}

// LessonProblem turns a lesson's problem into a report line in ui's language.
func LessonProblem(ui *i18n.Printer, le *lesson.Error) ReportLine {
	p := ReportLine{File: le.File, Line: le.Line, Code: string(le.Code), Diff: le.Diff, Detail: le.Detail}
	args := map[string]any{}
	for k, v := range le.Args {
		args[k] = v
	}
	if le.Code == lesson.CodeRun {
		switch v, _ := le.Args["Verdict"].(string); v {
		case "exit":
			args["Status"] = ui.T("msg_exit_nonzero", "Code", le.Args["Exit"])
		default:
			id := "status_" + v
			if r, _ := le.Args["Reason"].(string); r != "" && i18n.Has(ui.Lang(), id+"_"+r) {
				id += "_" + r // a timeout says whether it spun or slept
			}
			args["Status"] = ui.T(id)
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
	p.Message = ui.T(id, kv...)
	if p.Message == id {
		p.Message = le.Message()
	}
	return p
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	probs := r.Problems
	if probs == nil {
		probs = []ReportLine{}
	}
	return enc.Encode(struct {
		OK        bool            `json:"ok"`
		Lessons   int             `json:"lesson_files"`
		Exercises int             `json:"exercises"`
		Problems  []ReportLine    `json:"problems"`
		Mutation  []MutationScore `json:"mutation"`
		Cached    int             `json:"exercises_cached"`
		LCached   int             `json:"lesson_files_cached"`
	}{len(probs) == 0, r.Targets.Lessons, len(r.Targets.Exercises), probs, r.Scores, r.Cached, r.LessonsCached})
}
