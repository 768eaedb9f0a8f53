package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// ErrOutNotDir is returned when --out names a file.
var ErrOutNotDir = errors.New("the report's place is a file, not a folder")

// OtherExerciseError is returned when the report folder holds the report of another exercise and
// Job.Force is not set: grading into it would overwrite that report.
type OtherExerciseError struct{ Exercise string }

func (e *OtherExerciseError) Error() string {
	return fmt.Sprintf("the folder holds the report of another exercise, %s", e.Exercise)
}

// reportExercise is the exercise of the report in dir ("" when there is none): the journal's header,
// else results.json's.
func reportExercise(dir string) string {
	if data, err := os.ReadFile(filepath.Join(dir, JournalFile)); err == nil {
		first, _, _ := bytes.Cut(data, []byte("\n"))
		var hdr journalHeader
		if json.Unmarshal(first, &hdr) == nil && hdr.Exercise != "" {
			return hdr.Exercise
		}
	}
	if rep, err := ReadReport(dir); err == nil {
		return rep.Exercise
	}
	return ""
}

// hintsNote tells the student, in the feedback, what the failed cases share (report.Hints): the
// cause that explains the most of them first (a transcript written to stderr, an exit code, a
// letter of the other alphabet), each with what to do about it.
func hintsNote(w *bytes.Buffer, pr *i18n.Printer, res *checker.Result) {
	hints := report.Hints(report.Groups(res))
	if len(hints) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n\n", report.MarkdownEscape(pr.T("grade_fb_hints")))
	for _, g := range hints {
		text := report.HintText(pr, res, g) + "."
		if id := "grade_fb_advice_" + g.Cause; i18n.Has(pr.Lang(), id) {
			text += " " + pr.T(id)
		}
		fmt.Fprintf(w, "- **!** %s\n", report.MarkdownEscape(text))
	}
}
