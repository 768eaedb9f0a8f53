package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// stderrNote tells the student, in the feedback, about cases where the program printed nothing on
// stdout and the expected transcript on stderr (println, log): the commonest way to fail every case
// with the right answer.
func stderrNote(w *bytes.Buffer, pr *i18n.Printer, res *checker.Result) {
	var visible []string
	hidden := 0
	for _, c := range res.Cases {
		if c.Status == checker.Pass || strings.TrimSpace(c.Got) != "" || c.Want == "" {
			continue
		}
		if norm := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) }; norm(c.Stderr) == "" || !strings.Contains(norm(c.Stderr), norm(c.Want)) {
			continue
		}
		if c.Visible {
			visible = append(visible, c.Name)
		} else {
			hidden++
		}
	}
	if len(visible)+hidden == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", report.MarkdownEscape(pr.N("grade_fb_stderr", len(visible)+hidden, "List", strings.Join(visible, ", "))))
}
