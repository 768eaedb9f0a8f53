package grade

import (
	"errors"
	"fmt"
	"testing"

	"github.com/workbook-course/workbook/internal/i18n"
)

// TestMessages: every error of grading is told by its own message, one that the locales hold.
func TestMessages(t *testing.T) {
	odd := errors.New("disk on fire")
	for _, tc := range []struct {
		name string
		m    Message
		want string
	}{
		{"tests clash", JobMessage(&TestsError{Dir: "t", Name: "01"}), "grade_err_tests_clash"},
		{"tests dir", JobMessage(fmt.Errorf("setup: %w", &TestsError{Dir: "t", Err: ErrTestsDir})), "grade_err_tests_dir"},
		{"tests empty", JobMessage(&TestsError{Dir: "t", Err: ErrTestsEmpty}), "grade_err_tests_empty"},
		{"tests other", JobMessage(&TestsError{Dir: "t", Err: odd}), "grade_err_tests"},
		{"roster", JobMessage(&RosterError{Path: "r.csv", Code: "malformed", Line: 2}), "grade_err_roster_malformed"},
		{"moodle lang", JobMessage(ErrMoodleLang), "grade_err_moodle_lang"},
		{"job tool", JobMessage(odd), "grade_err_tool"},
		{"other exercise", RunMessage(&OtherExerciseError{Exercise: "x"}, "out", "subs", "", Shard{}), "grade_err_other_exercise"},
		{"out not dir", RunMessage(ErrOutNotDir, "out", "subs", "", Shard{}), "grade_err_out_file"},
		{"class archive", RunMessage(fmt.Errorf("%w: bad zip", ErrClassArchive), "out", "subs", "", Shard{}), "grade_err_class_archive"},
		{"not report", RunMessage(ErrNotReport, "out", "subs", "", Shard{}), "grade_err_not_report"},
		{"unknown student", RunMessage(ErrUnknownStudent, "out", "subs", "ann", Shard{}), "grade_err_unknown_student"},
		{"other shard", RunMessage(ErrOtherShard, "out", "subs", "ann", Shard{K: 1, N: 2}), "grade_err_other_shard"},
		{"busy while running is the tool's", RunMessage(ErrReportBusy, "out", "subs", "", Shard{}), "grade_err_tool"},
		{"busy", OutMessage(ErrReportBusy, "out"), "grade_err_busy"},
		{"merge", MergeMessage(&MergeError{Code: "duplicate", Report: "a"}), "grade_err_merge_duplicate"},
		{"merge tool", MergeMessage(odd), "grade_err_tool"},
	} {
		if tc.m.ID != tc.want {
			t.Errorf("%s: message %s, want %s", tc.name, tc.m.ID, tc.want)
		}
		if !i18n.Has("en", tc.m.ID) || len(tc.m.Args)%2 != 0 {
			t.Errorf("%s: %s is not in the locales, or its values %v are not in pairs", tc.name, tc.m.ID, tc.m.Args)
		}
	}
}
