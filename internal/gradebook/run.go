package gradebook

import (
	"flag"
	"io/fs"
	"strings"

	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// Run is `workbook grade book REPORT... --out BOOK [--weights FILE]`: it binds the flags to fset,
// parses args with parse (the command's own, which prints its help), checks the output folder,
// builds the gradebook of the course in course and writes it. It returns the lines that say what
// was written (for a Moodle class, what moodle.csv finds its students by and whom it leaves out); a message for the instructor (usage, bad input, a failure to write: exit 2, and
// nothing written but on success); or the error of parse (help asked for).
func Run(course fs.FS, fset *flag.FlagSet, parse func(*flag.FlagSet, []string) ([]string, error), args []string, ui *i18n.Printer) (string, *grade.Message, error) {
	out := fset.String("out", "", ui.T("book_flag_out"))
	weights := fset.String("weights", "", ui.T("book_flag_weights"))
	pos, err := parse(fset, args)
	if err != nil {
		return "", nil, err
	}
	if len(pos) == 0 {
		return "", &grade.Message{ID: "book_err_args"}, nil
	}
	if *out == "" {
		return "", &grade.Message{ID: "book_err_no_out"}, nil
	}
	fail := func(err error) (string, *grade.Message, error) {
		m := Message(err)
		return "", &m, nil
	}
	if err := CheckOut(*out, pos); err != nil {
		return fail(err)
	}
	b, err := Build(course, pos, *weights)
	if err != nil {
		return fail(err)
	}
	if err := Write(*out, b, ui.Lang()); err != nil {
		return fail(err)
	}
	lines := []string{ui.N("book_done", len(b.Students), "Exercises", len(b.Exercises), "Mean", i18n.Score(ui.Lang(), b.Mean), "Dir", *out)}
	return strings.Join(append(lines, moodleLines(b, ui)...), "\n"), nil, nil
}

// maxUnmatchedNamed bounds the students named as left out of moodle.csv: the rest are counted.
const maxUnmatchedNamed = 30

// moodleLines say, for a Moodle class, how moodle.csv finds its students in Moodle's import and
// which students it leaves out, or why it was not written.
func moodleLines(b *Book, ui *i18n.Printer) []string {
	if b.Layout != grade.LayoutMoodle {
		return nil
	}
	if b.MoodleIdentity == "" {
		return []string{ui.T("book_moodle_none")}
	}
	column := grade.MoodleIdentityTitle(b.MoodleIdentity)
	lines := []string{ui.T("book_moodle_by", "Column", column)}
	if left := b.MoodleUnmatched(); len(left) > 0 {
		names := left
		if len(names) > maxUnmatchedNamed {
			names = append(names[:maxUnmatchedNamed:maxUnmatchedNamed], "…")
		}
		lines = append(lines, ui.N("book_moodle_unmatched", len(left), "Column", column, "List", report.EscapeLine(strings.Join(names, ", "))))
	}
	return lines
}
