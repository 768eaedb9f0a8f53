package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/report"
)

var gradeCmd = &command{name: "grade", usage: "grade_usage", summary: "grade_summary"}

func init() {
	gradeCmd.run = runGrade
	register(gradeCmd)
}

// runGrade grades a class: workbook grade EXERCISE SUBMISSIONS --out REPORT, or joins the reports of
// shards: workbook grade merge REPORT... --out MERGED.
func runGrade(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "merge" {
		return runGradeMerge(e, args[1:])
	}
	fs := e.newFlags(gradeCmd)
	out := fs.String("out", "", e.ui.T("grade_flag_out"))
	tests := fs.String("tests", "", e.ui.T("grade_flag_tests"))
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), e.ui.T("grade_flag_jobs"))
	timeout := fs.Duration("timeout", 2*time.Second, e.ui.T("grade_flag_timeout"))
	only := fs.String("only", "", e.ui.T("grade_flag_only"))
	shardFlag := fs.String("shard", "", e.ui.T("grade_flag_shard"))
	seed := fs.Uint64("seed", 1, e.ui.T("grade_flag_seed"))
	classLang := fs.String("class-lang", "", e.ui.T("grade_flag_class_lang"))
	force := fs.Bool("force", false, e.ui.T("grade_flag_force"))
	latePenalty := fs.String("late-penalty", "", e.ui.T("grade_flag_late_penalty"))
	due := fs.String("due", "", e.ui.T("grade_flag_due"))
	pos, err := e.parse(gradeCmd, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return e.usageErr("grade_err_args")
	}
	if *out == "" {
		return e.usageErr("grade_err_no_out")
	}
	if *jobs < 1 {
		return e.usageErr("grade_err_jobs")
	}
	if *timeout <= 0 {
		return e.usageErr("grade_err_timeout")
	}
	var shard grade.Shard
	if *shardFlag != "" {
		if shard, err = grade.ParseShard(*shardFlag); err != nil {
			return e.usageErr("grade_err_shard", "Value", *shardFlag)
		}
	}
	ex, err := e.exercise(pos[0])
	if err != nil {
		return err
	}
	subsDir := pos[1]
	// A folder, or the .zip an LMS's "download all" gives (unpacked by grade.Run).
	if fi, err := os.Stat(subsDir); err != nil || (!fi.IsDir() && !strings.HasSuffix(strings.ToLower(subsDir), ".zip")) {
		return e.usageErr("grade_err_no_submissions", "Dir", subsDir)
	}
	if gradeInside(*out, subsDir) {
		return e.usageErr("grade_err_out_inside", "Out", *out, "Dir", subsDir)
	}
	cases, err := ex.Cases()
	if err != nil {
		return e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
	}
	job := &grade.Job{
		Exercise:  ex.Name,
		Titles:    ex.Titles,
		Fallback:  e.content,
		Limits:    ex.Limits(checker.Limits{RunTime: *timeout}),
		Jobs:      *jobs,
		Only:      *only,
		Force:     *force,
		Shard:     shard,
		TestsFrom: map[string]bool{},
	}
	if *latePenalty != "" {
		if job.Late, err = grade.ParseLatePenalty(*latePenalty); err != nil {
			return e.usageErr("grade_err_late_penalty", "Value", *latePenalty)
		}
	}
	if *due != "" {
		t, ok := parseDue(*due)
		if !ok {
			return e.usageErr("grade_err_due", "Value", *due)
		}
		job.Late.Due = t
	}
	if job.Late.PerDay && job.Late.Due.IsZero() {
		return e.usageErr("grade_err_per_day_no_due")
	}
	// --lang is the instructor's (messages, the report); each student is graded in the language of
	// their own program, unless --class-lang fixes one for the whole class.
	switch *classLang {
	case "":
	case "ru", "bg":
		job.Lang = *classLang
	default:
		return e.usageErr("grade_err_class_lang", "Value", *classLang)
	}
	if *tests != "" {
		extra, err := e.instructorCases(*tests, cases)
		if err != nil {
			return err
		}
		for _, c := range extra {
			job.TestsFrom[c.Name] = true
		}
		cases = append(cases, extra...)
	}
	job.Cases = cases
	if ex.Generate != nil {
		job.DrawCount = ex.Generate.CaseCount()
		job.Draw = func(ctx context.Context, student, lang string) (*grade.Drawn, error) {
			s := course.StudentSeed(*seed, student)
			cs, drawn, err := ex.DrawnCases(ctx, s, lang)
			if err != nil {
				return nil, err
			}
			d := &grade.Drawn{Seed: s, Cases: cs}
			for _, x := range drawn {
				d.Args = append(d.Args, x.Args)
			}
			return d, nil
		}
	}
	fsys := e.course.FS()
	for _, l := range course.Langs {
		if s, err := grade.ReadSource(fsys, ex.StarterDir(l), l); err == nil && len(s.Files) > 0 {
			job.Starters = append(job.Starters, s)
		}
		if s, err := grade.ReadSource(fsys, ex.SolutionDir(l), l); err == nil && len(s.Files) > 0 {
			job.Solutions = append(job.Solutions, s)
		}
		if hints, err := ex.Hints(l); err == nil {
			job.Hints = append(job.Hints, grade.HintCode(strings.Join(hints, "\n\n"), l)...)
		}
	}
	// The instructor's cases are checked before any student is: a case the reference solutions do
	// not pass would be charged to every student.
	var extra []checker.Case
	for _, c := range job.Cases {
		if job.TestsFrom[c.Name] {
			extra = append(extra, c)
		}
	}
	if err := grade.CheckCases(ctx, job.Exercise, job.Solutions, extra, job.Limits); err != nil {
		var ce *grade.CaseError
		if errors.As(err, &ce) {
			got := strings.TrimRight(ce.Got, "\n")
			if got == "" {
				got = e.ui.T("grade_err_case_nothing")
			}
			return e.usageErr("grade_err_case_reference", "Case", ce.Case, "File", ce.Source, "Lang", ce.Lang,
				"Why", report.EscapeLine(ce.Why), "Got", report.Escape(got))
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
		return e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
	}
	unlock, err := e.lockReport(*out)
	if err != nil {
		return err
	}
	defer unlock()
	bar := e.gradeProgress()
	job.Progress = bar.update

	rep, outcome, err := grade.Run(ctx, job, subsDir, *out)
	bar.clear()
	if err != nil {
		return e.gradeErr(err, *out, subsDir, *only, shard)
	}
	if outcome.Reset {
		fmt.Fprintln(e.stderr, e.ui.T("grade_note_reset", "Dir", *out))
	}
	switch {
	case outcome.Resumed > 0 && *only == "" && outcome.Graded == 0:
		fmt.Fprintln(e.stderr, e.ui.N("grade_note_finished", outcome.Resumed))
	case outcome.Resumed > 0 && *only == "":
		fmt.Fprintln(e.stderr, e.ui.N("grade_note_resumed", outcome.Resumed))
	}
	if len(outcome.Skipped) > 0 {
		fmt.Fprintln(e.stderr, e.ui.T("grade_note_skipped", "List", report.EscapeLine(strings.Join(outcome.Skipped, ", "))))
	}
	if err := grade.Write(*out, rep, e.ui.Lang()); err != nil {
		return e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
	}
	e.gradeSummary(rep, *out)
	return nil
}

// instructorCases reads the instructor's cases from dir: *.txtar and hidden/*.txtar are hidden,
// visible/*.txtar are shown in feedback like the exercise's visible cases.
func (e *env) instructorCases(dir string, have []checker.Case) ([]checker.Case, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, e.usageErr("grade_err_tests_dir", "Dir", dir)
	}
	fsys := os.DirFS(dir)
	var all []checker.Case
	for _, g := range []struct {
		sub     string
		visible bool
	}{{"visible", true}, {".", false}, {"hidden", false}} {
		cs, err := checker.LoadCaseDir(fsys, g.sub, g.visible)
		if err != nil {
			return nil, e.usageErr("grade_err_tests", "Dir", dir, "Err", report.EscapeLine(err.Error()))
		}
		all = append(all, cs...)
	}
	if len(all) == 0 {
		return nil, e.usageErr("grade_err_tests_empty", "Dir", dir)
	}
	names := map[string]bool{}
	for _, c := range have {
		names[c.Name] = true
	}
	for _, c := range all {
		if names[c.Name] {
			return nil, e.usageErr("grade_err_tests_clash", "Name", c.Name, "Dir", dir)
		}
		names[c.Name] = true
	}
	return all, nil
}

// gradeErr turns an error of grade.Run into what the instructor reads.
func (e *env) gradeErr(err error, out, subs, only string, shard grade.Shard) error {
	var other *grade.OtherExerciseError
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(e.stderr, e.ui.T("grade_interrupted", "Dir", out))
		return err
	case errors.As(err, &other):
		return e.usageErr("grade_err_other_exercise", "Dir", out, "Exercise", other.Exercise)
	case errors.Is(err, grade.ErrOutNotDir):
		return e.usageErr("grade_err_out_file", "Out", out)
	case errors.Is(err, grade.ErrClassArchive):
		return e.usageErr("grade_err_class_archive", "Err", report.EscapeLine(err.Error()))
	case errors.Is(err, grade.ErrNotReport):
		return e.usageErr("grade_err_not_report", "Dir", out)
	case errors.Is(err, grade.ErrUnknownStudent):
		return e.usageErr("grade_err_unknown_student", "Name", report.EscapeLine(only), "Dir", subs)
	case errors.Is(err, grade.ErrOtherShard):
		return e.usageErr("grade_err_other_shard", "Name", report.EscapeLine(only), "Shard", fmt.Sprintf("%d/%d", grade.ShardOf(only, shard.N), shard.N), "This", shard.String())
	}
	return e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
}

// runGradeMerge joins the reports of the shards of one grading: workbook grade merge REPORT... --out MERGED.
func runGradeMerge(e *env, args []string) error {
	fs := e.newFlags(gradeCmd)
	out := fs.String("out", "", e.ui.T("grade_flag_merge_out"))
	pos, err := e.parse(gradeCmd, fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || *out == "" {
		return e.usageErr("grade_err_merge_args")
	}
	for _, p := range pos {
		if gradeSamePath(p, *out) {
			return e.usageErr("grade_err_merge_out_input", "Out", *out)
		}
	}
	rep, err := grade.Merge(pos)
	if err != nil {
		var me *grade.MergeError
		if errors.As(err, &me) {
			return e.usageErr("grade_err_merge_"+me.Code, "Report", me.Report, "Student", report.EscapeLine(me.Student), "Detail", me.Detail)
		}
		return e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
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
		if errors.Is(err, grade.ErrNotReport) {
			return nil, e.usageErr("grade_err_not_report", "Dir", out)
		}
		if errors.Is(err, grade.ErrOutNotDir) {
			return nil, e.usageErr("grade_err_out_file", "Out", out)
		}
		return nil, e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
	}
	unlock, err := grade.LockReport(out)
	if errors.Is(err, grade.ErrReportBusy) {
		return nil, e.usageErr("grade_err_busy", "Dir", out)
	}
	if err != nil {
		return nil, e.usageErr("grade_err_tool", "Err", report.EscapeLine(err.Error()))
	}
	return unlock, nil
}

// gradeSummary prints what the report holds.
func (e *env) gradeSummary(rep *grade.Report, out string) {
	s := rep.Summary
	mean := fmt.Sprintf("%.2f", s.MeanScore)
	mean = strings.TrimSuffix(strings.TrimRight(mean, "0"), ".")
	if e.ui.Lang() != "en" {
		mean = strings.Replace(mean, ".", ",", 1)
	}
	fmt.Fprintln(e.stdout, e.ui.N("grade_done", s.Students, "Pass", s.Pass, "Fail", s.Fail, "Error", s.Error, "Mean", mean))
	if n := len(rep.Copies); n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_copies", n))
	}
	if n := len(rep.ByHeart); n > 0 {
		fmt.Fprintln(e.stdout, e.ui.N("grade_by_heart", n))
	}
	fmt.Fprintln(e.stdout, e.ui.T("grade_wrote", "Dir", out))
}

// parseDue reads a due date: RFC 3339, or "2006-01-02 15:04" or "2006-01-02" in local time (a
// date alone is due at its end).
func parseDue(s string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	if t, err := time.ParseInLocation("2006-01-02 15:04", s, time.Local); err == nil {
		return t, true
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t.Add(24*time.Hour - time.Second), true
	}
	return time.Time{}, false
}

// inside reports whether path is dir or lies inside it.
func gradeInside(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func gradeSamePath(a, b string) bool {
	pa, err1 := filepath.Abs(a)
	pb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && pa == pb
}

// gradeBar draws grading progress with an ETA on stderr, when stderr is a terminal.
type gradeBar struct {
	e     *env
	w     io.Writer
	width int // runes drawn last time
}

func (e *env) gradeProgress() *gradeBar {
	b := &gradeBar{e: e}
	if f, ok := e.stderr.(*os.File); ok && e.getenv("TERM") != "dumb" {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			b.w = f
		}
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
