package grade

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/report"
)

// Message is what an error of grading tells the instructor: the ID of a message in the locales
// (internal/i18n) and its named values, text from outside escaped for one line.
type Message struct {
	ID   string
	Args []any
}

func toolMessage(err error) Message {
	return Message{"grade_err_tool", []any{"Err", report.EscapeLine(err.Error())}}
}

// JobMessage is the message of an error of NewJob (nothing graded yet) other than a *CaseError,
// whose output the caller words itself.
func JobMessage(err error) Message {
	var te *TestsError
	var re *RosterError
	switch {
	case errors.As(err, &te):
		return testsMessage(te)
	case errors.As(err, &re):
		return rosterMessage(re)
	case errors.Is(err, ErrMoodleLang):
		return Message{"grade_err_moodle_lang", []any{"List", strings.Join(MoodleLangs, ", ")}}
	}
	return toolMessage(err)
}

func testsMessage(te *TestsError) Message {
	switch {
	case te.Name != "":
		return Message{"grade_err_tests_clash", []any{"Name", te.Name, "Dir", te.Dir}}
	case errors.Is(te.Err, ErrTestsDir):
		return Message{"grade_err_tests_dir", []any{"Dir", te.Dir}}
	case errors.Is(te.Err, ErrTestsEmpty):
		return Message{"grade_err_tests_empty", []any{"Dir", te.Dir}}
	}
	return Message{"grade_err_tests", []any{"Dir", te.Dir, "Err", report.EscapeLine(te.Err.Error())}}
}

func rosterMessage(re *RosterError) Message {
	args := []any{"File", re.Path, "Line", re.Line, "Detail", report.EscapeLine(re.Detail)}
	if re.Code == RosterCells {
		got, want, _ := strings.Cut(re.Detail, "/")
		args = append(args, "Got", got, "Want", want)
	}
	return Message{"grade_err_roster_" + re.Code, args}
}

// RunMessage is the message of an error of Run that was not an interruption: out is the report
// folder, subs the submissions, only and shard the --only and --shard of the run.
func RunMessage(err error, out, subs, only string, shard Shard) Message {
	var other *OtherExerciseError
	var re *RosterError
	var ce *ClassError
	var te *TimesError
	var we *WrongExerciseError
	var amb *AmbiguousStudentError
	switch {
	case errors.As(err, &we):
		return Message{"grade_err_wrong_exercise", []any{"Dir", report.EscapeLine(shellArg(subs)), "Out", report.EscapeLine(shellArg(out)), "Exercise", we.Exercise, "Case", we.Case,
			"Other", we.Other, "OtherCase", we.OtherCase, "Of", we.Sampled, "N", we.Matched}}
	case errors.As(err, &te):
		return Message{"grade_err_times_" + te.Code, []any{"Dir", subs, "Detail", te.Detail, "N", te.Students}}
	case errors.As(err, &ce):
		return Message{"grade_err_class_" + ce.Code, []any{"Dir", subs, "Detail", report.EscapeLine(ce.Detail)}}
	case errors.As(err, &other):
		return Message{"grade_err_other_exercise", []any{"Dir", out, "Exercise", other.Exercise}}
	case errors.Is(err, ErrClassArchive):
		return Message{"grade_err_class_archive", []any{"Err", report.EscapeLine(err.Error())}}
	case errors.As(err, &amb):
		names := make([]string, len(amb.Names))
		for i, n := range amb.Names {
			names[i] = strconv.Quote(n)
		}
		return Message{"grade_err_ambiguous_student", []any{"Name", report.EscapeLine(only), "Dir", subs, "Names", report.EscapeLine(strings.Join(names, ", "))}}
	case errors.Is(err, ErrUnknownStudent):
		return Message{"grade_err_unknown_student", []any{"Name", report.EscapeLine(only), "Dir", subs}}
	case errors.As(err, &re):
		return rosterMessage(re)
	case errors.Is(err, ErrOtherShard):
		return Message{"grade_err_other_shard", []any{"Name", report.EscapeLine(only), "Shard", fmt.Sprintf("%d/%d", ShardOf(only, shard.N), shard.N), "This", shard.String()}}
	}
	switch {
	case errors.Is(err, ErrNotReport), errors.Is(err, ErrOutNotDir):
		return OutMessage(err, out)
	}
	return toolMessage(err)
}

// OutMessage is the message of an error of PrepareOut or LockReport for the report folder out.
func OutMessage(err error, out string) Message {
	switch {
	case errors.Is(err, ErrNotReport):
		return Message{"grade_err_not_report", []any{"Dir", out}}
	case errors.Is(err, ErrOutNotDir):
		return Message{"grade_err_out_file", []any{"Out", out}}
	case errors.Is(err, ErrReportBusy):
		return Message{"grade_err_busy", []any{"Dir", out}}
	}
	return toolMessage(err)
}

// MergeMessage is the message of an error of Merge.
func MergeMessage(err error) Message {
	var me *MergeError
	if errors.As(err, &me) {
		return Message{"grade_err_merge_" + me.Code, []any{"Report", me.Report, "Student", report.EscapeLine(me.Student), "Detail", me.Detail}}
	}
	return toolMessage(err)
}
