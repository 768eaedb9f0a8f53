package gradebook

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/paths"
	"github.com/workbook-course/workbook/internal/report"
)

// The files of a gradebook folder.
const (
	BookFile     = "gradebook.json"
	GradesFile   = "grades.csv"
	CanvasFile   = "canvas.csv"
	MoodleFile   = "moodle.csv"
	HTMLFile     = "book.html"
	SummariesDir = "summaries"
)

// CheckOut refuses an output folder that is one of the reports, lies inside one or holds one, or holds files
// that are not an earlier gradebook's; it is checked before anything is written.
func CheckOut(out string, dirs []string) error {
	if out == "" {
		return &Error{Code: "no_out"}
	}
	for _, d := range dirs {
		// Out is replaced whole: it may hold no report, nor lie within one.
		if paths.Under(out, d) || paths.Under(d, out) {
			return &Error{Code: "out_report", Report: d, Detail: out}
		}
	}
	fi, err := os.Stat(out)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return &Error{Code: "out_other", Detail: out}
	case !fi.IsDir():
		return &Error{Code: "out_other", Detail: out}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return &Error{Code: "out_other", Detail: out}
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, BookFile)); err != nil {
		return &Error{Code: "out_other", Detail: out}
	}
	return nil
}

// Write writes the gradebook's files (see the package doc) into a new folder beside out and then
// puts it in out's place, so that out holds either the earlier gradebook or the whole new one.
// uiLang is the instructor's language (grades.csv, book.html).
func Write(out string, b *Book, uiLang string) (err error) {
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".new-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := b.writeFiles(tmp, uiLang); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if _, statErr := os.Stat(out); statErr == nil {
		old, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".old-*")
		if err != nil {
			return err
		}
		if err := os.Remove(old); err != nil {
			return err
		}
		if err := os.Rename(out, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, out); err != nil {
			os.Rename(old, out)
			return err
		}
		return os.RemoveAll(old)
	}
	return os.Rename(tmp, out)
}

func (b *Book) writeFiles(dir string, uiLang string) error {
	files := map[string][]byte{GradesFile: b.GradesCSV(uiLang)}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	files[BookFile] = append(data, '\n')
	if b.Layout == grade.LayoutCanvas {
		files[CanvasFile] = b.CanvasCSV()
	}
	if b.Layout == grade.LayoutMoodle && b.MoodleIdentity != "" {
		files[MoodleFile] = b.MoodleCSV()
	}
	var page bytes.Buffer
	if err := b.HTML(&page, uiLang); err != nil {
		return err
	}
	files[HTMLFile] = report.EscapeBytes(page.Bytes())
	if err := os.Mkdir(filepath.Join(dir, SummariesDir), 0o755); err != nil {
		return err
	}
	for _, r := range b.Students {
		files[filepath.Join(SummariesDir, r.Summary)] = report.EscapeBytes(b.Summary(r))
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// csvStyle is the cell and decimal separators a spreadsheet expects in lang (as grade's grades.csv).
func csvStyle(lang string) (rune, string) {
	if i18n.DecimalSeparator(lang) == "," {
		return ';', ","
	}
	return ',', "."
}

func number(v float64, decimal string) string {
	return strings.Replace(strconv.FormatFloat(v, 'f', -1, 64), ".", decimal, 1)
}

func csvBytes(rows [][]string, comma rune, bom bool) []byte {
	var buf bytes.Buffer
	if bom {
		buf.WriteString("\ufeff")
	}
	w := csv.NewWriter(&buf)
	w.Comma = comma
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = report.CSVCell(c)
		}
		w.Write(cells)
	}
	w.Flush()
	return buf.Bytes()
}

// GradesCSV is grades.csv: a header, then student, LMS id, a score per exercise (empty when the
// exercise's report lacks the student) and the total, in lang's spreadsheet style with a BOM.
func (b *Book) GradesCSV(lang string) []byte {
	ui := i18n.New(lang)
	comma, decimal := csvStyle(lang)
	hdr := []string{ui.T("book_csv_student"), ui.T("book_csv_id")}
	for _, c := range b.Exercises {
		hdr = append(hdr, c.Exercise)
	}
	hdr = append(hdr, ui.T("book_csv_total"))
	rows := [][]string{hdr}
	weights := []string{ui.T("book_csv_weight"), ""}
	for _, c := range b.Exercises {
		weights = append(weights, number(c.Weight, decimal))
	}
	rows = append(rows, append(weights, ""))
	for _, r := range b.Students {
		row := []string{r.Name, r.ID}
		for _, c := range r.Cells {
			if c.Graded {
				row = append(row, number(c.Score, decimal))
			} else {
				row = append(row, "")
			}
		}
		rows = append(rows, append(row, number(r.Total, decimal)))
	}
	return csvBytes(rows, comma, true)
}

// CanvasCSV is Canvas's gradebook import (gradebook_importer.rb): Student, ID, SIS User ID, SIS
// Login ID, Section, then a column per exercise titled as the Canvas assignment it was graded for
// ("Title (id)": Canvas matches it by the id; an exercise graded without a Canvas roster gets its
// title, which Canvas would make a new assignment), the Points Possible row second, and a row per
// student Canvas knows by id. A score is points out of the assignment's points possible; a cell of
// a student the exercise's report lacks or who handed nothing in is left empty, which Canvas reads
// as no change.
func (b *Book) CanvasCSV() []byte {
	hdr := []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section"}
	points := []string{"    Points Possible", "", "", "", ""}
	for _, c := range b.Exercises {
		title, p := c.Assignment, c.Points
		if title == "" {
			title = c.Title("en")
		}
		if p == "" {
			p = "100"
		}
		hdr, points = append(hdr, title), append(points, p)
	}
	rows := [][]string{hdr, points}
	for _, r := range b.Students {
		if !strings.HasPrefix(r.Key, "canvas:") {
			continue
		}
		row := []string{r.Display, r.ID, "", "", ""}
		copy(row[2:], r.canvas)
		for k, c := range r.Cells {
			if !c.Graded || c.Status == grade.StatusMissing {
				row = append(row, "")
				continue
			}
			row = append(row, scaled(c.Score, points[5+k]))
		}
		rows = append(rows, row)
	}
	return csvBytes(rows, ',', false)
}

// MoodleCSV is a gradebook import for Moodle (Grades → Import → CSV file): the identity the
// students are found by (Book.MoodleIdentity, under the title Moodle gives it: "Email address",
// "ID number" or "Username", to choose in the import's "Map from", with the same field in "Map
// to"), "Full name", then a column per exercise titled with its title and its scale ("… (0–10)"),
// each to be mapped to its assignment's grade item. A grade is in points out of the assignment's
// maximum grade, as its grading worksheet gives it (100 without one), with a decimal point: Moodle
// takes the value as the grade item's own and refuses the whole file over one above its maximum
// (gradeimport_csv). A student the worksheets give no such identity is left out (a row Moodle
// cannot find a user for stops the whole import): MoodleUnmatched names them.
func (b *Book) MoodleCSV() []byte {
	hdr := []string{grade.MoodleIdentityTitle(b.MoodleIdentity), "Full name"}
	for _, c := range b.Exercises {
		hdr = append(hdr, c.Title("ru")+" (0–"+moodleMax(c)+")")
	}
	rows := [][]string{hdr}
	for _, r := range b.Students {
		id := r.Moodle[b.MoodleIdentity]
		if b.MoodleIdentity == "" || id == "" {
			continue
		}
		name := r.Display
		if name == "" {
			name = r.Name
		}
		row := []string{id, name}
		for k, c := range r.Cells {
			if !c.Graded || c.Status == grade.StatusMissing {
				row = append(row, "")
				continue
			}
			row = append(row, scaled(c.Score, moodleMax(b.Exercises[k])))
		}
		rows = append(rows, row)
	}
	return csvBytes(rows, ',', false)
}

// moodleMax is the maximum grade of an exercise's Moodle assignment, as moodle.csv writes its
// grades out of: its worksheet's, else 100 (the grades are then percents).
func moodleMax(c Column) string {
	m, err := strconv.ParseFloat(strings.Replace(strings.TrimSpace(c.MaxGrade), ",", ".", 1), 64)
	if err != nil || m <= 0 || math.IsNaN(m) || math.IsInf(m, 0) {
		return "100"
	}
	return number(m, ".")
}

// scaled is a score (percent) as points out of max, two decimals.
func scaled(score float64, max string) string {
	m, err := strconv.ParseFloat(strings.Replace(strings.TrimSpace(max), ",", ".", 1), 64)
	if err != nil || m <= 0 || math.IsNaN(m) || math.IsInf(m, 0) {
		m = 100
	}
	return number(math.Round(score*m)/100, ".")
}
