package grade

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"html"
	"math"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/yuin/goldmark"

	"github.com/workbook-course/workbook/internal/report"
)

// The files an LMS imports as they are, written when the class came in that LMS's layout.
const (
	MoodleFile         = "moodle.csv"          // Moodle's grading worksheet: Assignment → Upload grading worksheet
	MoodleFeedbackFile = "moodle-feedback.zip" // Moodle's "Upload multiple feedback files in a zip"
	CanvasFile         = "canvas.csv"          // Canvas's gradebook CSV: Grades → Import
	// CanvasFeedbackFile is for the assignment's "Upload submissions" in Canvas's gradebook: each
	// student's feedback as a comment on their submission.
	CanvasFeedbackFile = "canvas-feedback.zip"
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

// exportable reports whether a student's row goes into the LMS's file: an identity the LMS gave and
// that nothing contradicts, and a submission graded (a student who handed in nothing keeps Moodle's
// and Canvas's own value).
func exportable(st Student, layout string) bool {
	return st.Layout == layout && st.ID != "" && st.Conflict == "" && !st.Anonymous && st.Status != StatusMissing
}

// writeExports writes moodle.csv (and the feedback files zip) and canvas.csv for the students who came
// in those layouts.
func writeExports(dir string, rep *Report) error {
	ro, err := rep.roster()
	if err != nil {
		return err
	}
	has := map[string]bool{}
	for _, st := range rep.Students {
		has[st.Layout] = has[st.Layout] || exportable(st, st.Layout)
	}
	if has[LayoutMoodle] {
		if err := writeAtomic(filepath.Join(dir, MoodleFile), MoodleCSV(rep, ro, time.Now())); err != nil {
			return err
		}
		zipData, err := MoodleFeedbackZip(rep)
		if err != nil {
			return err
		}
		if err := writeAtomic(filepath.Join(dir, MoodleFeedbackFile), zipData); err != nil {
			return err
		}
	}
	if has[LayoutCanvas] {
		if err := writeAtomic(filepath.Join(dir, CanvasFile), CanvasCSV(rep, ro)); err != nil {
			return err
		}
		zipData, n, err := CanvasFeedbackZip(rep)
		if err != nil || n == 0 {
			return err
		}
		return writeAtomic(filepath.Join(dir, CanvasFeedbackFile), zipData)
	}
	return nil
}

// CanvasFeedbackZip is the zip Canvas's "Upload submissions" (the assignment's menu in the
// gradebook) takes to comment on many submissions at once, and n the students it holds. Canvas's
// importer (Assignment#generate_comments_from_files, infer_comment_context_from_filename) splits a
// file's name at "_", takes its first two numbers as the user id and the id of one of the
// submission's attachments, and attaches the file to a comment under that attachment's name: so
// each student's entry is named feedback_USERID_ATTACHMENTID_FILE after a Go file of theirs, and
// holds their feedback (the Markdown of feedback/) as a Go comment, which reads as it is under that
// name. Students whose export names no attachment (a text entry, an anonymous assignment) are left
// out; their feedback is in feedback/. An entry's name is one every file system writes (at most 255
// bytes, no character Windows refuses), whatever the student's file was named.
func CanvasFeedbackZip(rep *Report) (data []byte, n int, err error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, st := range rep.Students {
		f, ok := canvasCommented(st)
		if !ok || !exportable(st, LayoutCanvas) {
			continue
		}
		// The file's name is the student's: one a file system could not write (past 255 bytes, a
		// character Windows refuses), where Canvas or the instructor unpacks the zip, is made safe
		// and short; the two numbers Canvas reads come first and stay.
		md, err := renderFeedback(rep, st)
		if err != nil {
			continue // the student's alone, said in their row (Student.FeedbackError)
		}
		name := fmt.Sprintf("feedback_%s_%s_%s", st.ID, f.Attachment, path.Base(filepath.ToSlash(f.Name)))
		w, err := zw.Create(shortComponent(safeFileName(name)))
		if err != nil {
			return nil, 0, err
		}
		fmt.Fprintf(w, "/*\n%s\n*/\n", strings.ReplaceAll(strings.TrimSpace(string(md)), "*/", "* /"))
		n++
	}
	if err := zw.Close(); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), n, nil
}

// canvasCommented is the file of st's Canvas submission a comment goes under: a Go file of the
// submission Canvas holds now (not an older version Canvas kept beside it, which is no attachment
// of the submission any more), main.go or a main-N.go first. Canvas shows the comment's file under
// that file's name, so a submission with no Go file (an archive) gets none: its feedback is in
// feedback/.
func canvasCommented(st Student) (CanvasEntry, bool) {
	var best CanvasEntry
	found := false
	for _, f := range st.CanvasFiles {
		base := path.Base(filepath.ToSlash(f.Name))
		if !strings.HasSuffix(base, ".go") || slices.Contains(st.Superseded, f.Name) {
			continue
		}
		if !found || strings.HasPrefix(base, "main") && !strings.HasPrefix(path.Base(best.Name), "main") {
			best, found = f, true
		}
	}
	return best, found
}

// roster is the report's kept roster read again (nil when there is none).
func (r *Report) roster() (*Roster, error) {
	if r.Roster == nil {
		return nil, nil
	}
	return r.Roster.Roster()
}

// csvRows renders rows with every cell neutralised (report.CSVCell), separated by comma.
func csvRows(rows [][]string, comma rune) []byte {
	for _, r := range rows {
		for i, c := range r {
			r[i] = report.CSVCell(c)
		}
	}
	return csvRaw(rows, comma)
}

// csvRaw renders rows as they are: the roster's own cells go back to the LMS unchanged (Moodle's "-"
// for no time must stay "-"), and the cells written into them were neutralised when written.
func csvRaw(rows [][]string, comma rune) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Comma = comma
	for _, r := range rows {
		w.Write(r)
	}
	w.Flush()
	return buf.Bytes()
}

// scaled is a score (percent) as points out of max, two decimals.
func scaled(score float64, max string) string {
	m, err := strconv.ParseFloat(strings.Replace(strings.TrimSpace(max), ",", ".", 1), 64)
	if err != nil || m <= 0 || math.IsNaN(m) || math.IsInf(m, 0) {
		return decimalIn(score, ".")
	}
	return decimalIn(math.Round(score*m)/100, ".")
}

// MoodleCSV renders Moodle's grading worksheet, which its offline-grading importer takes as it is
// (importgradeslib.php): with a roster, the downloaded worksheet itself with Grade and Feedback
// comments filled in for the students graded (its titles, identifiers and "Last modified (grade)"
// kept, so that a grade changed in Moodle after the download is not overwritten: the importer skips
// a grade whose time in Moodle is later than the worksheet's, process_import_grades); without one,
// a worksheet in the titles of the Moodle language the instructor named (Report.MoodleLang, English
// by default) with the grading time as "Last modified (grade)". Grades are points out of the
// worksheet's "Maximum grade" (the importer refuses a grade above the
// assignment's maximum), with a decimal point; the feedback comments are each student's feedback in
// HTML, in the student's language (the comments plugin takes HTML).
func MoodleCSV(rep *Report, ro *Roster, now time.Time) []byte {
	byID := map[string]Student{}
	for _, st := range rep.Students {
		if exportable(st, LayoutMoodle) {
			byID[st.ID] = st
		}
	}
	if ro != nil && ro.Layout == LayoutMoodle {
		return moodleFilled(rep, ro, byID)
	}
	w, ok := moodleWords[rep.MoodleLang]
	if !ok {
		w = moodleWords["en"]
	}
	rows := [][]string{{w.recordid, w.fullname, w.grade, w.maxgrade, w.modified, w.feedback}}
	for _, st := range rep.Students {
		if exportable(st, LayoutMoodle) {
			rows = append(rows, []string{w.hiddenuser + st.ID, st.Display, decimalIn(st.Score, "."), "100", fmtMoodleTime(now), FeedbackHTML(rep, st)})
		}
	}
	return csvRows(rows, ',')
}

// moodleFilled is the roster's worksheet with the grades and comments written in.
func moodleFilled(rep *Report, ro *Roster, byID map[string]Student) []byte {
	hdr := append([]string(nil), ro.Rows[0]...)
	fb := ro.feedbackCol
	if w, ok := moodleWords[ro.lang]; fb < 0 && ok {
		// A worksheet without the column (the comments plugin was off when it was downloaded) gets
		// it: the importer takes it when the plugin is on. One read by its columns' order is in a
		// language whose title of the column grade does not know: its feedback goes in the zip alone.
		hdr = append(hdr, w.feedback)
		fb = len(hdr) - 1
	}
	maxCol := ro.maxCol
	rows := [][]string{hdr}
	for _, row := range ro.Rows[1:] {
		out := append([]string(nil), row...)
		for len(out) < len(hdr) {
			out = append(out, "")
		}
		id := strings.TrimPrefix(row[ro.idCol], ro.prefix)
		if st, ok := byID[id]; ok {
			max := "100"
			if maxCol >= 0 {
				max = out[maxCol]
			}
			out[ro.gradeCol] = report.CSVCell(scaled(st.Score, max))
			if fb >= 0 {
				out[fb] = report.CSVCell(FeedbackHTML(rep, st))
			}
		}
		rows = append(rows, out)
	}
	// Moodle's importer reads commas only (parsecsv: csv_import_reader, 'comma'), whatever the
	// spreadsheet that saved the roster used.
	return csvRaw(rows, ',')
}

// maxGradeCol is the worksheet's "Maximum grade" column (-1 for none): Moodle 3 wrote "Maximum
// Grade", so the title is matched without regard to case.
func maxGradeCol(hdr []string, lang string) int {
	for i, c := range hdr {
		if strings.EqualFold(strings.TrimSpace(c), moodleWords[lang].maxgrade) {
			return i
		}
	}
	return -1
}

// FeedbackHTML is a student's feedback as HTML (the Markdown of their feedback file rendered; raw
// HTML in it, which could only have come from a program's output, is escaped, never passed on).
func FeedbackHTML(rep *Report, st Student) string {
	md, err := renderFeedback(rep, st)
	if err != nil {
		// The student's alone, as in feedback/ (Write): said in the student's comment.
		return "<p>" + html.EscapeString(err.Error()) + "</p>"
	}
	var out bytes.Buffer
	if err := goldmark.Convert(md, &out); err != nil {
		return "<pre>" + html.EscapeString(string(md)) + "</pre>"
	}
	return strings.TrimSpace(out.String())
}

// MoodleFeedbackZip is the zip of feedback files Moodle's "Upload multiple feedback files in a zip"
// takes: each file named as Moodle names a participant's files, NAME_PARTICIPANTID_PLUGIN_filename;
// its importer (assignfeedback_file_zip_importer::is_valid_filename_for_import) splits the name at
// the first four underscores, takes the second part as the participant id and the third and fourth
// as the plugin (assignfeedback_file), so the name holds no underscore of its own.
func MoodleFeedbackZip(rep *Report) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, st := range rep.Students {
		if !exportable(st, LayoutMoodle) {
			continue
		}
		// Moodle's importer reads the participant id after the first "_" and unpacks the zip to disk:
		// the name before it is only for people, and is cut to keep the entry's name short.
		name, _ := fileStem(st.Display)
		name = strings.ReplaceAll(name, "_", " ")
		w, err := zw.Create(fmt.Sprintf("%s_%s_assignfeedback_file_feedback.html", name, st.ID))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n%s\n</body></html>\n",
			st.Lang, html.EscapeString(rep.Exercise), FeedbackHTML(rep, st))
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CanvasCSV renders the gradebook CSV Canvas's importer takes (gradebook_importer.rb): Student, ID,
// SIS User ID, SIS Login ID, Section, then the assignment's column, with the Points Possible row
// second. With a roster, the students are named as Canvas names them and the column is the
// roster's "Title (id)", so that Canvas grades that assignment and matches every student by ID;
// without one, the column is the exercise's title (Canvas would make it a new assignment) and the
// Student cell the login of the file names. Scores are points out of the points possible.
func CanvasCSV(rep *Report, ro *Roster) []byte {
	byID := map[string]Student{}
	for _, st := range rep.Students {
		if exportable(st, LayoutCanvas) {
			byID[st.ID] = st
		}
	}
	hdr := []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", titleIn(rep, "en")}
	if ro == nil || ro.Layout != LayoutCanvas {
		rows := [][]string{hdr, {"    Points Possible", "", "", "", "", "100"}}
		for _, st := range rep.Students {
			if exportable(st, LayoutCanvas) {
				rows = append(rows, []string{st.Display, st.ID, "", "", "", decimalIn(st.Score, ".")})
			}
		}
		return csvRows(rows, ',')
	}
	hdr[5] = ro.Assignment
	points := ro.PointsPossible
	if points == "" {
		points = "100"
	}
	rows := [][]string{hdr, {"    Points Possible", "", "", "", "", points}}
	cell := func(row []string, title string) string {
		if i := indexOf(ro.Rows[0], title); i >= 0 && i < len(row) {
			return row[i]
		}
		return ""
	}
	for _, rs := range ro.Students {
		st, ok := byID[rs.ID]
		if !ok {
			continue
		}
		row := ro.Rows[rs.row]
		rows = append(rows, []string{rs.Name, rs.ID, cell(row, "SIS User ID"), cell(row, "SIS Login ID"), cell(row, "Section"), scaled(st.Score, points)})
	}
	// The roster's cells as Canvas wrote them (a name "=…" is Canvas's to mind, and it matches by ID).
	return csvRaw(rows, ',')
}
