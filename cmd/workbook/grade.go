package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/gradebook"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/paths"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/tty"
)

// runGrade grades a class: workbook grade EXERCISE SUBMISSIONS --out REPORT, or joins the reports of
// shards: workbook grade merge REPORT... --out MERGED, or makes a gradebook: workbook grade book. It reads the flags, lets internal/grade build
// the job (NewJob) and grade (Run), and presents what came of it.
func runGrade(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "merge" {
		return runGradeMerge(e, args[1:])
	}
	if len(args) > 0 && args[0] == "book" { // a semester's gradebook: internal/gradebook
		done, m, err := gradebook.Run(e.course.FS(), e.newFlags(), e.parse, args[1:], e.ui)
		if m != nil {
			return e.gradeMessage(*m)
		}
		if err == nil {
			fmt.Fprintln(e.stdout, done)
		}
		return err
	}
	o, out, subsDir, err := e.gradeOptions(args)
	if err != nil {
		return err
	}
	job, err := grade.NewJob(ctx, o)
	if err != nil {
		return e.jobErr(err)
	}
	unlock, err := e.lockReport(out)
	if err != nil {
		return err
	}
	defer unlock()
	bar := &grade.Bar{UI: e.ui}
	if tty.IsTerminal(e.stderr) && e.getenv("TERM") != "dumb" {
		bar.W = e.stderr
	}
	job.Progress = bar.Update
	rep, outcome, err := grade.Run(ctx, job, subsDir, out)
	bar.Clear()
	if err != nil {
		return e.gradeErr(err, out, subsDir, o.Only, o.Shard)
	}
	e.gradeOutcome(outcome, out, o.Only)
	if err := grade.Write(out, rep, e.ui.Lang()); err != nil {
		return e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
	}
	e.gradeSummary(rep, out)
	return e.toolFailures(rep)
}

// toolFailures is the run's error when the tool could not grade some students (status
// tool_error, after a second try): the report is written, and the exit code says the tool failed.
func (e *env) toolFailures(rep *grade.Report) error {
	if n := rep.Summary.Tool; n > 0 {
		return &cli.ExitError{Code: 2, Msg: e.ui.N("grade_err_tool_students", n)}
	}
	return nil
}

func (e *env) gradeFlagSet() (*flag.FlagSet, *grade.Flags) {
	fs, f, d := e.newFlags(), &grade.Flags{}, grade.DefaultReadLimits
	fs.StringVar(&f.Out, "out", "", e.ui.T("grade_flag_out"))
	fs.StringVar(&f.Tests, "tests", "", e.ui.T("grade_flag_tests"))
	fs.IntVar(&f.Jobs, "jobs", runtime.GOMAXPROCS(0), e.ui.T("grade_flag_jobs"))
	fs.DurationVar(&f.Timeout, "timeout", 2*time.Second, e.ui.T("grade_flag_timeout"))
	fs.StringVar(&f.Only, "only", "", e.ui.T("grade_flag_only"))
	fs.StringVar(&f.Shard, "shard", "", e.ui.T("grade_flag_shard"))
	fs.Uint64Var(&f.Seed, "seed", grade.DefaultSeed, e.ui.T("grade_flag_seed"))
	fs.Float64Var(&f.Similarity, "similarity", grade.DefaultCopyThreshold, e.ui.T("grade_flag_similarity"))
	fs.StringVar(&f.ClassLang, "class-lang", "", e.ui.T("grade_flag_class_lang"))
	fs.BoolVar(&f.Force, "force", false, e.ui.T("grade_flag_force"))
	fs.StringVar(&f.LatePenalty, "late-penalty", "", e.ui.T("grade_flag_late_penalty"))
	fs.StringVar(&f.Due, "due", "", e.ui.T("grade_flag_due"))
	fs.StringVar(&f.Roster, "roster", "", e.ui.T("grade_flag_roster"))
	fs.StringVar(&f.Assignment, "assignment", "", e.ui.T("grade_flag_assignment"))
	fs.StringVar(&f.MoodleLang, "moodle-lang", "en", e.ui.T("grade_flag_moodle_lang"))
	fs.IntVar(&f.MaxFiles, "max-files", d.Files, e.ui.T("grade_flag_max_files"))
	fs.Int64Var(&f.MaxBytes, "max-bytes", d.Bytes, e.ui.T("grade_flag_max_bytes"))
	fs.IntVar(&f.MaxDepth, "max-depth", d.Depth, e.ui.T("grade_flag_max_depth"))
	return fs, f
}

// gradeOptions reads the flags and arguments of workbook grade into the options of a grading
// (grade.Flags.Options), checked before anything is read.
func (e *env) gradeOptions(args []string) (o grade.Options, out, subsDir string, err error) {
	fs, f := e.gradeFlagSet()
	pos, err := e.parse(fs, args)
	if err != nil {
		return o, "", "", err
	}
	o, m, ok := f.Options(pos)
	if !ok {
		return o, "", "", e.gradeMessage(m)
	}
	o.Course, o.Fallback = e.course.FS(), e.content
	if o.Exercise, err = e.exercise(pos[0]); err != nil {
		return o, "", "", err
	}
	if m, ok := grade.CheckPlaces(pos[1], f.Out); !ok {
		return o, "", "", e.gradeMessage(m)
	}
	return o, f.Out, pos[1], nil
}

// jobErr turns an error of grade.NewJob (nothing graded yet) into what the instructor reads.
func (e *env) jobErr(err error) error {
	var ce *grade.CaseError
	switch {
	case errors.As(err, &ce):
		got := strings.TrimRight(ce.Got, "\n")
		if got == "" {
			got = e.ui.T("grade_err_case_nothing")
		}
		return e.usageErr("grade_err_case_reference", "Case", ce.Case, "File", ce.Source, "Lang", ce.Lang,
			"Why", report.EscapeLine(ce.Why), "Got", report.Escape(got))
	case errors.Is(err, context.Canceled):
		return err
	}
	return e.gradeMessage(grade.JobMessage(err))
}

// gradeMessage is the usage error that says m.
func (e *env) gradeMessage(m grade.Message) error { return e.usageErr(m.ID, m.Args...) }

// gradeOutcome says on stderr what the run did besides grading: a reset, a resume, skipped entries.
func (e *env) gradeOutcome(outcome *grade.Outcome, out, only string) {
	if outcome.Reset {
		fmt.Fprintln(e.stderr, e.ui.T("grade_note_reset", "Dir", out))
	}
	switch {
	case outcome.Resumed > 0 && only == "" && outcome.Graded == 0:
		fmt.Fprintln(e.stderr, e.ui.N("grade_note_finished", outcome.Resumed))
	case outcome.Resumed > 0 && only == "":
		fmt.Fprintln(e.stderr, e.ui.N("grade_note_resumed", outcome.Resumed))
	}
	if n := outcome.Times.Files; n > 0 {
		fmt.Fprintln(e.stderr, e.ui.N("grade_note_file_times", n))
	}
	if n := outcome.Times.Commits; n > 0 {
		fmt.Fprintln(e.stderr, e.ui.N("grade_note_commit_times", n))
	}
	if n := len(outcome.Times.Future); n > 0 {
		fmt.Fprintln(e.stderr, e.ui.N("grade_note_future_times", n))
	}
	if len(outcome.Skipped) > 0 {
		fmt.Fprintln(e.stderr, e.ui.T("grade_note_skipped", "List", report.EscapeLine(strings.Join(outcome.Skipped, ", "))))
	}
}

// gradeErr turns an error of grade.Run into what the instructor reads.
func (e *env) gradeErr(err error, out, subs, only string, shard grade.Shard) error {
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(e.stderr, e.ui.T("grade_interrupted", "Dir", out))
		return err
	}
	return e.gradeMessage(grade.RunMessage(err, out, subs, only, shard))
}

// runGradeMerge joins the reports of the shards of one grading: workbook grade merge REPORT... --out MERGED.
func runGradeMerge(e *env, args []string) error {
	fs := e.newFlags()
	out := fs.String("out", "", e.ui.T("grade_flag_merge_out"))
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || *out == "" {
		return e.usageErr("grade_err_merge_args")
	}
	for _, p := range pos {
		if paths.Same(p, *out) {
			return e.usageErr("grade_err_merge_out_input", "Out", *out)
		}
	}
	rep, err := grade.Merge(pos)
	if err != nil {
		return e.gradeMessage(grade.MergeMessage(err))
	}
	unlock, err := e.lockReport(*out)
	if err != nil {
		return err
	}
	defer unlock()
	if err := grade.Write(*out, rep, e.ui.Lang()); err != nil {
		return e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
	}
	e.gradeSummary(rep, *out)
	return e.toolFailures(rep)
}

// lockReport makes out a report folder of this run's alone: created if need be, refused when it
// holds other files or another grading is writing there.
func (e *env) lockReport(out string) (func(), error) {
	if err := grade.PrepareOut(out); err != nil {
		return nil, e.gradeMessage(grade.OutMessage(err, out))
	}
	unlock, err := grade.LockReport(out)
	if err != nil {
		return nil, e.gradeMessage(grade.OutMessage(err, out))
	}
	return unlock, nil
}

// gradeSummary prints what the report holds.
func (e *env) gradeSummary(rep *grade.Report, out string) {
	s := rep.Summary
	mean := i18n.Score(e.ui.Lang(), s.MeanScore)
	fmt.Fprintln(e.stdout, e.ui.N("grade_done", s.Students, "Pass", s.Pass, "Fail", s.Fail, "Error", s.Error, "Mean", mean))
	if n := len(rep.Copies); n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_copies", n))
	}
	if n := len(rep.ByHeart); n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_by_heart", n))
	}
	if n := s.Unchanged; n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_unchanged", n))
	}
	if n := s.Missing; n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_missing", n))
	}
	if n := rep.ConflictCount(); n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_conflicts", n))
	}
	if n := rep.FeedbackErrors(); n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_feedback_errors", n))
	}
	if note := grade.IsolationNote(e.ui, rep); note != "" {
		fmt.Fprintln(e.stdout, note)
	}
	fmt.Fprintln(e.stdout, e.ui.T("grade_wrote", "Dir", out, "Files", strings.Join(grade.Written(out), ", ")))
}
