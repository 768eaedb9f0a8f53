package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/paths"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/tty"
)

// runGrade grades a class: workbook grade EXERCISE SUBMISSIONS --out REPORT, or joins the reports of
// shards: workbook grade merge REPORT... --out MERGED. It reads the flags, lets internal/grade build
// the job (NewJob) and grade (Run), and presents what came of it.
func runGrade(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "merge" {
		return runGradeMerge(e, args[1:])
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
	bar := e.gradeProgress()
	job.Progress = bar.update
	rep, outcome, err := grade.Run(ctx, job, subsDir, out)
	bar.clear()
	if err != nil {
		return e.gradeErr(err, out, subsDir, o.Only, o.Shard)
	}
	e.gradeOutcome(outcome, out, o.Only)
	if err := grade.Write(out, rep, e.ui.Lang()); err != nil {
		return e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
	}
	e.gradeSummary(rep, out)
	return nil
}

// gradeFlags are the flags of workbook grade, as parsed.
type gradeFlags struct {
	out, tests, only, shard, classLang, latePenalty, due, roster, assignment, moodleLang *string
	jobs, maxFiles, maxDepth                                                             *int
	maxBytes                                                                             *int64
	timeout                                                                              *time.Duration
	seed                                                                                 *uint64
	force                                                                                *bool
}

func (e *env) gradeFlagSet() (*flag.FlagSet, *gradeFlags) {
	fs := e.newFlags()
	d := grade.DefaultReadLimits
	return fs, &gradeFlags{
		out:         fs.String("out", "", e.ui.T("grade_flag_out")),
		tests:       fs.String("tests", "", e.ui.T("grade_flag_tests")),
		jobs:        fs.Int("jobs", runtime.GOMAXPROCS(0), e.ui.T("grade_flag_jobs")),
		timeout:     fs.Duration("timeout", 2*time.Second, e.ui.T("grade_flag_timeout")),
		only:        fs.String("only", "", e.ui.T("grade_flag_only")),
		shard:       fs.String("shard", "", e.ui.T("grade_flag_shard")),
		seed:        fs.Uint64("seed", grade.DefaultSeed, e.ui.T("grade_flag_seed")),
		classLang:   fs.String("class-lang", "", e.ui.T("grade_flag_class_lang")),
		force:       fs.Bool("force", false, e.ui.T("grade_flag_force")),
		latePenalty: fs.String("late-penalty", "", e.ui.T("grade_flag_late_penalty")),
		due:         fs.String("due", "", e.ui.T("grade_flag_due")),
		roster:      fs.String("roster", "", e.ui.T("grade_flag_roster")),
		assignment:  fs.String("assignment", "", e.ui.T("grade_flag_assignment")),
		moodleLang:  fs.String("moodle-lang", "en", e.ui.T("grade_flag_moodle_lang")),
		maxFiles:    fs.Int("max-files", d.Files, e.ui.T("grade_flag_max_files")),
		maxBytes:    fs.Int64("max-bytes", d.Bytes, e.ui.T("grade_flag_max_bytes")),
		maxDepth:    fs.Int("max-depth", d.Depth, e.ui.T("grade_flag_max_depth")),
	}
}

// gradeOptions reads the flags and arguments of workbook grade into the options of a grading.
func (e *env) gradeOptions(args []string) (o grade.Options, out, subsDir string, err error) {
	fs, f := e.gradeFlagSet()
	pos, err := e.parse(fs, args)
	if err != nil {
		return o, "", "", err
	}
	if err := e.checkGradeFlags(f, pos); err != nil {
		return o, "", "", err
	}
	out, subsDir = *f.out, pos[1]
	o = grade.Options{Tests: *f.tests, RunTime: *f.timeout, Jobs: *f.jobs, Only: *f.only, Force: *f.force, Seed: *f.seed,
		Lang: *f.classLang, Roster: *f.roster, Assignment: *f.assignment, MoodleLang: *f.moodleLang,
		Course: e.course.FS(), Fallback: e.content,
		Read: grade.ReadLimits{Files: *f.maxFiles, Bytes: *f.maxBytes, Depth: *f.maxDepth}}
	if *f.shard != "" {
		if o.Shard, err = grade.ParseShard(*f.shard); err != nil {
			return o, "", "", e.usageErr("grade_err_shard", "Value", *f.shard)
		}
	}
	if o.Late, err = e.gradeLate(*f.latePenalty, *f.due); err != nil {
		return o, "", "", err
	}
	if o.Exercise, err = e.exercise(pos[0]); err != nil {
		return o, "", "", err
	}
	// A folder, or the .zip an LMS's "download all" gives (unpacked by grade.Run).
	if fi, err := os.Stat(subsDir); err != nil || (!fi.IsDir() && !strings.HasSuffix(strings.ToLower(subsDir), ".zip")) {
		return o, "", "", e.usageErr("grade_err_no_submissions", "Dir", subsDir)
	}
	if paths.Under(subsDir, out) {
		return o, "", "", e.usageErr("grade_err_out_inside", "Out", out, "Dir", subsDir)
	}
	return o, out, subsDir, nil
}

// checkGradeFlags refuses flags out of their range before anything is read.
func (e *env) checkGradeFlags(f *gradeFlags, pos []string) error {
	switch {
	case len(pos) != 2:
		return e.usageErr("grade_err_args")
	case *f.out == "":
		return e.usageErr("grade_err_no_out")
	case *f.jobs < 1:
		return e.usageErr("grade_err_jobs")
	case *f.timeout <= 0:
		return e.usageErr("grade_err_timeout")
	case *f.maxFiles < 1 || *f.maxBytes < 1 || *f.maxDepth < 1:
		return e.usageErr("grade_err_limits")
	}
	// --lang is the instructor's (messages, the report); each student is graded in the language of
	// their own program, unless --class-lang fixes one for the whole class.
	switch *f.classLang {
	case "", "ru", "bg":
		return nil
	}
	return e.usageErr("grade_err_class_lang", "Value", *f.classLang)
}

// gradeLate reads --late-penalty and --due.
func (e *env) gradeLate(penalty, due string) (grade.Late, error) {
	var l grade.Late
	var err error
	if penalty != "" {
		if l, err = grade.ParseLatePenalty(penalty); err != nil {
			return l, e.usageErr("grade_err_late_penalty", "Value", penalty)
		}
	}
	if due != "" {
		t, ok := grade.ParseDue(due)
		if !ok {
			return l, e.usageErr("grade_err_due", "Value", due)
		}
		l.Due = t
	}
	if l.PerDay && l.Due.IsZero() {
		return l, e.usageErr("grade_err_per_day_no_due")
	}
	return l, nil
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
	return nil
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
	if n := s.Missing; n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_missing", n))
	}
	if n := rep.ConflictCount(); n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_conflicts", n))
	}
	fmt.Fprintln(e.stdout, e.ui.T("grade_wrote", "Dir", out))
}

// gradeBar draws grading progress with an ETA on stderr, when stderr is a terminal.
type gradeBar struct {
	e     *env
	w     io.Writer
	width int // runes drawn last time
}

func (e *env) gradeProgress() *gradeBar {
	b := &gradeBar{e: e}
	if tty.IsTerminal(e.stderr) && e.getenv("TERM") != "dumb" {
		b.w = e.stderr
	}
	return b
}

func (b *gradeBar) update(p grade.Progress) {
	if b.w == nil {
		return
	}
	const cells = 24
	full := 0
	if p.Total > 0 {
		full = p.Done * cells / p.Total
	}
	bar := "[" + strings.Repeat("█", full) + strings.Repeat("░", cells-full) + "]"
	eta := p.ETA.Round(time.Second)
	etaText := fmt.Sprintf("%d:%02d", int(eta.Minutes()), int(eta.Seconds())%60)
	if p.Done == 0 {
		etaText = "?:??"
	}
	line := b.e.ui.T("grade_progress", "Bar", bar, "Done", p.Done, "Total", p.Total, "ETA", etaText, "Student", report.EscapeLine(p.Student))
	if r := []rune(line); len(r) > 100 {
		line = string(r[:99]) + "…"
	}
	n := utf8.RuneCountInString(line)
	pad := ""
	if n < b.width {
		pad = strings.Repeat(" ", b.width-n)
	}
	fmt.Fprint(b.w, "\r"+line+pad)
	b.width = n
}

func (b *gradeBar) clear() {
	if b.w == nil || b.width == 0 {
		return
	}
	fmt.Fprint(b.w, "\r"+strings.Repeat(" ", b.width)+"\r")
	b.width = 0
}
