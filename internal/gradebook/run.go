package gradebook

import (
	"flag"
	"io/fs"

	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/i18n"
)

// Run is `workbook grade book REPORT... --out BOOK [--weights FILE]`: it binds the flags to fset,
// parses args with parse (the command's own, which prints its help), checks the output folder,
// builds the gradebook of the course in course and writes it. It returns the line that says what
// was written; a message for the instructor (usage, bad input, a failure to write: exit 2, and
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
	return ui.N("book_done", len(b.Students), "Exercises", len(b.Exercises), "Mean", i18n.Score(ui.Lang(), b.Mean), "Dir", *out), nil, nil
}
