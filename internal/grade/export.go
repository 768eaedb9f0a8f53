package grade

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// The files an LMS imports as they are, written when the class came in that LMS's layout.
const (
	MoodleFile = "moodle.csv" // Moodle's grading worksheet: Assignment → Upload grading worksheet
	CanvasFile = "canvas.csv" // Canvas's gradebook CSV: Grades → Import
)

// utf8BOM starts grades.csv, so that a spreadsheet reads it as UTF-8.
const utf8BOM = "\ufeff"

// csvStyle is the cell separator and the decimal separator a spreadsheet expects in a language: in
// the Russian and Bulgarian locales the decimal separator is a comma, so cells are separated by
// semicolons (what Excel writes and reads there); in English, commas and a decimal point.
func csvStyle(lang string) (comma rune, decimal string) {
	switch lang {
	case "ru", "bg":
		return ';', ","
	}
	return ',', "."
}

// decimalIn writes a score with at most two decimals and the separator given.
func decimalIn(v float64, decimal string) string {
	return strings.Replace(strconv.FormatFloat(v, 'f', -1, 64), ".", decimal, 1)
}

// writeExports writes moodle.csv and canvas.csv for the students who came in those layouts.
func writeExports(dir string, rep *Report) error {
	for _, x := range []struct {
		layout, file string
		render       func(*Report) []byte
	}{{LayoutMoodle, MoodleFile, MoodleCSV}, {LayoutCanvas, CanvasFile, CanvasCSV}} {
		has := false
		for _, st := range rep.Students {
			has = has || st.Layout == x.layout
		}
		if !has {
			continue
		}
		if err := writeAtomic(filepath.Join(dir, x.file), x.render(rep)); err != nil {
			return err
		}
	}
	return nil
}

// csvRows renders rows with every cell neutralised (report.CSVCell).
func csvRows(rows [][]string) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	for _, r := range rows {
		for i, c := range r {
			r[i] = report.CSVCell(c)
		}
		w.Write(r)
	}
	w.Flush()
	return buf.Bytes()
}

// MoodleCSV renders Moodle's grading worksheet for the students of a Moodle export: the columns
// Moodle's "Download grading worksheet" has and its "Upload grading worksheet" reads (Identifier
// "Participant N", the participant's id from the folder's name; Full name; Grade out of Maximum
// Grade, the score; Feedback comments, in the student's language). UTF-8, commas, a decimal point.
func MoodleCSV(rep *Report) []byte {
	rows := [][]string{{"Identifier", "Full name", "Status", "Grade", "Maximum Grade", "Grade can be changed", "Feedback comments"}}
	for _, st := range rep.Students {
		if st.Layout != LayoutMoodle {
			continue
		}
		rows = append(rows, []string{"Participant " + st.ID, st.Display, string(st.Result.Verdict),
			decimalIn(st.Score, "."), "100", "Yes", lmsComment(st)})
	}
	return csvRows(rows)
}

// CanvasCSV renders a Canvas gradebook CSV for the students of a Canvas export: Student, ID (the
// user id from the file names), SIS User ID, SIS Login ID, Section, and a column for the exercise
// with its points possible in the second row. Canvas matches the students by ID.
func CanvasCSV(rep *Report) []byte {
	col := rep.Exercise
	rows := [][]string{
		{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", col},
		{"    Points Possible", "", "", "", "", "100"},
	}
	for _, st := range rep.Students {
		if st.Layout != LayoutCanvas {
			continue
		}
		rows = append(rows, []string{st.Display, st.ID, "", "", "", decimalIn(st.Score, ".")})
	}
	return csvRows(rows)
}

// lmsComment is the one line of feedback an LMS shows next to the grade, in the student's language:
// the cases passed, and why when the program could not run.
func lmsComment(st Student) string {
	pr := i18n.New(st.Lang)
	line := pr.N("cases_passed", st.Passed, "Total", st.Total)
	if st.Status == StatusError {
		line = string(st.Result.Verdict) + ". " + line
	}
	return line
}
