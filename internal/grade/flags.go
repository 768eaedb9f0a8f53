package grade

import (
	"os"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/paths"
)

// Flags are the flags of `workbook grade` as typed (cmd/workbook/grade.go binds them to its flag
// set); Options checks them and turns them into the Options of a grading.
type Flags struct {
	Out, Tests, Only, Shard, ClassLang, LatePenalty, Due, Roster, Assignment, MoodleLang string
	Jobs, MaxFiles, MaxDepth                                                             int
	MaxBytes                                                                             int64
	Timeout                                                                              time.Duration
	Seed                                                                                 uint64
	Similarity                                                                           float64 // --similarity: see Report.CopyThreshold
	Force                                                                                bool
}

// Options checks the flags and the positional arguments (the exercise and the submissions) before
// anything is read, and returns the options they ask for; Exercise, Course and Fallback are the
// caller's to set. A flag out of its range, a wrong number of arguments or a value that does not
// parse is the message returned, with ok false.
func (f *Flags) Options(pos []string) (o Options, bad Message, ok bool) {
	if m, ok := f.check(pos); !ok {
		return o, m, false
	}
	o = Options{Tests: f.Tests, RunTime: f.Timeout, Jobs: f.Jobs, Only: f.Only, Force: f.Force, Seed: f.Seed,
		Lang: f.ClassLang, Roster: f.Roster, Assignment: f.Assignment, MoodleLang: f.MoodleLang, CopyThreshold: f.Similarity,
		Read: ReadLimits{Files: f.MaxFiles, Bytes: f.MaxBytes, Depth: f.MaxDepth}}
	if f.Shard != "" {
		var err error
		if o.Shard, err = ParseShard(f.Shard); err != nil {
			return o, Message{"grade_err_shard", []any{"Value", f.Shard}}, false
		}
	}
	var m Message
	if o.Late, m, ok = f.late(); !ok {
		return o, m, false
	}
	return o, Message{}, true
}

// check refuses flags out of their range: ok false, with the message that says so.
func (f *Flags) check(pos []string) (Message, bool) {
	switch {
	case len(pos) != 2:
		return Message{ID: "grade_err_args"}, false
	case f.Out == "":
		return Message{ID: "grade_err_no_out"}, false
	case f.Jobs < 1:
		return Message{ID: "grade_err_jobs"}, false
	case f.Timeout <= 0:
		return Message{ID: "grade_err_timeout"}, false
	case f.MaxFiles < 1 || f.MaxBytes < 1 || f.MaxDepth < 1:
		return Message{ID: "grade_err_limits"}, false
	case !ValidCopyThreshold(f.Similarity):
		return Message{"grade_err_similarity", []any{"Value", f.Similarity}}, false
	}
	// --lang is the instructor's (messages, the report); each student is graded in the language of
	// their own program, unless --class-lang fixes one for the whole class.
	switch f.ClassLang {
	case "", "ru", "bg":
		return Message{}, true
	}
	return Message{"grade_err_class_lang", []any{"Value", f.ClassLang}}, false
}

// late reads --late-penalty and --due.
func (f *Flags) late() (Late, Message, bool) {
	var l Late
	var err error
	if f.LatePenalty != "" {
		if l, err = ParseLatePenalty(f.LatePenalty); err != nil {
			return l, Message{"grade_err_late_penalty", []any{"Value", f.LatePenalty}}, false
		}
	}
	if f.Due != "" {
		t, ok := ParseDue(f.Due)
		if !ok {
			return l, Message{"grade_err_due", []any{"Value", f.Due}}, false
		}
		l.Due = t
	}
	if l.PerDay && l.Due.IsZero() {
		return l, Message{ID: "grade_err_per_day_no_due"}, false
	}
	return l, Message{}, true
}

// CheckPlaces checks where a grading reads and writes: the submissions, a folder or the .zip an
// LMS's "download all" gives (unpacked by Run), and the report folder out, which must not lie
// inside them. A problem is the message returned, with ok false.
func CheckPlaces(subs, out string) (bad Message, ok bool) {
	if fi, err := os.Stat(subs); err != nil || (!fi.IsDir() && !strings.HasSuffix(strings.ToLower(subs), ".zip")) {
		return Message{"grade_err_no_submissions", []any{"Dir", subs}}, false
	}
	if paths.Under(subs, out) {
		return Message{"grade_err_out_inside", []any{"Out", out, "Dir", subs}}, false
	}
	return Message{}, true
}
