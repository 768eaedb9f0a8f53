package grade

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// The importers the files grade writes go into, as their sources have them. These are models of
// their rules, written from the sources and not from our writer, so that a file that passes here is
// one the LMS takes.

// moodleImport is what Moodle 4's offline-grading importer does with a worksheet
// (mod/assign/feedback/offline/importgradeslib.php and locallib.php, process_import_grades), for an
// assignment whose participants are ids (the unique ids of assign_user_mapping) and whose maximum
// grade is max. It returns the grades and feedback it would set by participant id, or an error where
// Moodle says "invalidgradeimport".
type moodleRow struct {
	grade    float64
	feedback string
	modified int64
}

func moodleImport(t *testing.T, data []byte, lang string, ids map[string]bool, max float64, gradedAt map[string]int64) (map[string]moodleRow, error) {
	t.Helper()
	return moodleImportAs(t, data, moodleWords[lang], ids, max, gradedAt)
}

// moodleImportAs is moodleImport in a Moodle whose strings are w (recordid, grade, modified,
// feedback and hiddenuser are what the importer reads).
func moodleImportAs(t *testing.T, data []byte, w moodleTitles, ids map[string]bool, max float64, gradedAt map[string]int64) (map[string]moodleRow, error) {
	t.Helper()
	// parsecsv: csv_import_reader with the encoding and separator the teacher picks (utf-8, comma).
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, err
	}
	// init(): columns are found by exact title; the feedback plugins' editor fields by their
	// description (the comments plugin: "Feedback comments").
	gradeIdx, idIdx, modIdx, fbIdx := -1, -1, -1, -1
	for i, c := range rows[0] {
		switch c {
		case w.grade: // get_string('gradenoun')
			gradeIdx = i
		case w.recordid: // get_string('recordid', 'assign')
			idIdx = i
		case w.modified: // get_string('lastmodifiedgrade', 'assign')
			modIdx = i
		case w.feedback: // get_string('pluginname', 'assignfeedback_comments')
			fbIdx = i
		}
	}
	if idIdx < 0 || gradeIdx < 0 || modIdx < 0 {
		return nil, fmt.Errorf("invalidgradeimport: columns %q", rows[0])
	}
	out := map[string]moodleRow{}
	for _, rec := range rows[1:] {
		// next(): "Strip the integer from the end of the participant string":
		// substr($idstr, strlen(get_string('hiddenuser', 'assign'))), in bytes.
		idstr := rec[idIdx]
		if len(idstr) < len(w.hiddenuser) {
			continue
		}
		id := idstr[len(w.hiddenuser):]
		if !ids[id] { // get_user_id_for_uniqueid, then validusers
			continue
		}
		modified := phpStrtotime(rec[modIdx])
		// process_import_grades: unformat_float; skipped when empty or < 0, when Moodle's grade was
		// modified more than 60 s after the worksheet's time, or when out of range.
		g, err := strconv.ParseFloat(strings.Replace(rec[gradeIdx], ",", ".", 1), 64)
		stale := gradedAt[id] > modified+60
		row := moodleRow{grade: -1, modified: modified}
		if err == nil && g >= 0 && !stale && g <= max {
			row.grade = g
		}
		// !empty($details['index']): a feedback column at index 0 is never read.
		if fbIdx > 0 && !stale {
			row.feedback = rec[fbIdx]
		}
		out[id] = row
	}
	return out, nil
}

// phpStrtotime reads the formats PHP's strtotime reads that the tests need (ISO 8601, and
// Moodle's English userdate), 0 for what it does not (false is 0 in the comparison).
func phpStrtotime(s string) int64 {
	for _, l := range []string{time.RFC3339, "Monday, 2 January 2006, 3:04 PM"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.Unix()
		}
	}
	return 0
}

// moodleZipImport is assignfeedback_file_zip_importer::is_valid_filename_for_import: explode('_',
// path, 5), the participant id the second part, the plugin the third and fourth.
func moodleZipImport(t *testing.T, data []byte, ids map[string]bool) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, ".") || strings.HasPrefix(f.Name, "~") {
			continue
		}
		info := strings.SplitN("/"+f.Name, "_", 5)
		if len(info) < 5 || info[2] != "assignfeedback" || info[3] != "file" {
			continue
		}
		if _, err := strconv.Atoi(info[1]); err != nil || !ids[info[1]] {
			continue
		}
		out[info[1]] = info[4]
	}
	return out
}

// canvasImport is Canvas's GradebookImporter (app/models/gradebook_importer.rb) on a CSV: the
// grades it would set by user id and assignment id (a negative id: an assignment it would create).
func canvasImport(t *testing.T, data []byte, users map[string]bool, assignments map[string]string) (map[string]map[string]string, error) {
	t.Helper()
	// semicolon_delimited?: the separator whose field counts agree on the first lines.
	comma := ','
	if first, _, _ := bytes.Cut(data, []byte("\n")); bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		comma = ';'
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma, r.FieldsPerRecord = comma, -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	hdr := rows[0]
	// row_has_student_headers?, update_column_count, last_student_info_column.
	if !(len(hdr) > 3 && strings.Contains(hdr[0], "Student") && strings.Contains(hdr[1], "ID")) {
		return nil, fmt.Errorf("Invalid header row")
	}
	cols := 3
	if regexp.MustCompile(`SIS\s+User\s+ID`).MatchString(hdr[2]) && regexp.MustCompile(`SIS\s+Login\s+ID`).MatchString(hdr[3]) {
		cols += 2
	}
	if !strings.Contains(hdr[cols-1], "Section") {
		return nil, fmt.Errorf("Invalid header row: %q", hdr)
	}
	// parse_assignments: Assignment.title_and_id, else the title, else a new assignment.
	titleID := regexp.MustCompile(`^(.*)\s\((\d+)\)$`)
	assign := map[int]string{}
	for i := cols; i < len(hdr); i++ {
		if m := titleID.FindStringSubmatch(hdr[i]); m != nil && assignments[m[2]] != "" {
			assign[i] = m[2]
			continue
		}
		assign[i] = "-1"
		for id, title := range assignments {
			if title == hdr[i] {
				assign[i] = id
			}
		}
	}
	out := map[string]map[string]string{}
	for _, row := range rows[1:] {
		// check_for_non_student_row: the Points Possible row describes the assignments.
		if strings.Contains(row[0], "Points Possible") {
			continue
		}
		// process_student: @all_students[student_id.to_i], else by name (not modelled: a miss).
		id := row[1]
		if n, err := strconv.Atoi(id); err != nil || !users[strconv.Itoa(n)] {
			out["unmatched:"+row[0]] = nil
			continue
		}
		out[id] = map[string]string{}
		for i, a := range assign {
			if i < len(row) {
				out[id][a] = strings.TrimSpace(row[i])
			}
		}
	}
	return out, nil
}

// TestMoodleWorksheetImports writes a worksheet without a roster and with one, and imports each
// with the importer's rules.
func TestMoodleWorksheetImports(t *testing.T) {
	now := time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC)
	rep := exportReport(LayoutMoodle)
	ids := map[string]bool{"100001": true, "100002": true, "100003": true}
	t.Run("no roster", func(t *testing.T) {
		got, err := moodleImport(t, MoodleCSV(rep, nil, now), "en", ids, 100, map[string]int64{"100002": now.Add(-time.Hour).Unix()})
		if err != nil {
			t.Fatal(err)
		}
		if g := got["100001"]; g.grade != 75 || !strings.Contains(g.feedback, "<h1>") || !strings.Contains(g.feedback, "Пройдено") {
			t.Errorf("100001: got %+v, want grade 75 and the feedback in HTML, in Russian", g)
		}
		if g := got["100002"]; g.grade != 100 || !strings.Contains(g.feedback, "Минаха") {
			t.Errorf("100002 (graded in Moodle an hour before): got %+v, want 100, the Bulgarian feedback", g)
		}
		if _, ok := got["100003"]; ok {
			t.Errorf("the conflict row was exported: %+v", got["100003"])
		}
	})
	t.Run("roster", func(t *testing.T) {
		sheet := "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,Last modified (submission),Last modified (grade),Feedback comments\n" +
			"Participant 100001,Иванов Иван,ivan@example.com,Submitted for grading,,10.00,Yes,\"Tuesday, 1 December 2026, 8:00 PM\",-,\n" +
			"Participant 100002,Петрова Мария,maria@example.com,Submitted for grading,7.00,10.00,Yes,\"Tuesday, 1 December 2026, 8:10 PM\",\"Tuesday, 1 December 2026, 8:20 PM\",\n" +
			"Participant 100009,Тодоров Тодор,todor@example.com,No submission,,10.00,Yes,-,-,\n"
		ro := rosterOf(t, sheet)
		data := MoodleCSV(rep, ro, now)
		if !strings.HasPrefix(string(data), strings.SplitN(sheet, "\n", 2)[0]+"\n") {
			t.Errorf("the worksheet's titles were not kept:\n%s", data)
		}
		// Maria's grade was changed in Moodle after the download: the importer must skip it.
		changed := time.Date(2026, 12, 1, 20, 45, 0, 0, time.UTC).Unix()
		got, err := moodleImport(t, data, "en", map[string]bool{"100001": true, "100002": true, "100009": true}, 10, map[string]int64{"100002": changed})
		if err != nil {
			t.Fatal(err)
		}
		if g := got["100001"]; g.grade != 7.5 {
			t.Errorf("100001: got %v, want 7.5 (75 %% of the maximum 10)", g.grade)
		}
		if g := got["100002"]; g.grade != -1 {
			t.Errorf("100002: the importer took %v over a grade changed in Moodle after the download", g.grade)
		}
		if g := got["100009"]; g.grade != -1 || g.feedback != "" {
			t.Errorf("100009 handed in nothing: got %+v, want nothing written", g)
		}
	})
	t.Run("russian titles", func(t *testing.T) {
		// A Russian Moodle names its columns in Russian (ru pack, roster.go) and writes "Участник"
		// without a space; the grade is out of its "Максимальная оценка".
		sheet := "Идентификатор,Полное имя,Адрес электронной почты,Статус,Оценка,Максимальная оценка,Оценка может быть изменена," +
			"Последнее изменение (ответ),Последнее изменение (оценка),Отзыв в виде комментария\n" +
			"Участник100001,Иванов Иван,ivan@example.com,Ответы для оценки,,10.00,Да,\"вторник, 01 декабря 2026, 20:00\",-,\n"
		ro := rosterOf(t, sheet)
		if got := ro.Students[0].Submitted; !got.Equal(time.Date(2026, 12, 1, 20, 0, 0, 0, time.Local)) {
			t.Errorf("the Russian submission time reads as %v", got)
		}
		got, err := moodleImport(t, MoodleCSV(rep, ro, now), "ru", ids, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g := got["100001"]; g.grade != 7.5 || !strings.Contains(g.feedback, "Пройдено") {
			t.Errorf("got %+v, want 7.5 and the feedback in its Russian column", g)
		}
	})
	t.Run("russian titles without a roster", func(t *testing.T) {
		ru := *rep
		ru.MoodleLang = "ru"
		data := MoodleCSV(&ru, nil, now)
		if !strings.HasPrefix(string(data), "Идентификатор,Полное имя,Оценка,Максимальная оценка,Последнее изменение (оценка),Отзыв в виде комментария\n") {
			t.Errorf("the Russian titles:\n%s", data)
		}
		got, err := moodleImport(t, data, "ru", ids, 100, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g := got["100001"]; g.grade != 75 || !strings.Contains(g.feedback, "Пройдено") {
			t.Errorf("100001: got %+v", g)
		}
		if _, err := moodleImport(t, data, "en", ids, 100, nil); err == nil {
			t.Error("an English Moodle took the Russian titles")
		}
	})
	t.Run("feedback zip", func(t *testing.T) {
		data, err := MoodleFeedbackZip(rep)
		if err != nil {
			t.Fatal(err)
		}
		got := moodleZipImport(t, data, ids)
		if got["100001"] != "feedback.html" || got["100002"] != "feedback.html" || got["100003"] != "" {
			t.Errorf("the feedback zip imports as %v", got)
		}
	})
}

// TestCanvasGradebookImports writes canvas.csv with and without a roster and imports it.
func TestCanvasGradebookImports(t *testing.T) {
	rep := exportReport(LayoutCanvas)
	users := map[string]bool{"100001": true, "100002": true}
	assignments := map[string]string{"4711": "Deadline retries", "4712": "Quiz 1"}
	gradebook := "Student,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (4712),Deadline retries (4711),Current Score\n" +
		"    Points Possible,,,,,10,20,\n" +
		"\"Ivanov, Ivan\",100001,S1,ivanov_i,Group A,5,,\n" +
		"\"Petrova, Maria\",100002,S2,petrova,Group A,7,,\n"
	ro, err := rosterOfRows("gradebook.csv", mustCSV(t, gradebook), ',', "", []string{"exercise-deadline", "Deadline retries"})
	if err != nil {
		t.Fatal(err)
	}
	if ro.AssignmentID != "4711" || ro.PointsPossible != "20" {
		t.Fatalf("roster: assignment %q, points %q", ro.AssignmentID, ro.PointsPossible)
	}
	got, err := canvasImport(t, CanvasCSV(rep, ro), users, assignments)
	if err != nil {
		t.Fatal(err)
	}
	if got["100001"]["4711"] != "15" || got["100002"]["4711"] != "20" {
		t.Errorf("got %v, want 15 and 20 points of assignment 4711", got)
	}
	for k := range got {
		if strings.HasPrefix(k, "unmatched") {
			t.Errorf("a row Canvas cannot match: %s", k)
		}
	}
	// Without a roster the column has no id: Canvas would make a new assignment of it (said in the
	// docs); the students still match by ID.
	plain, err := canvasImport(t, CanvasCSV(rep, nil), users, assignments)
	if err != nil {
		t.Fatal(err)
	}
	if plain["100001"]["-1"] != "75" {
		t.Errorf("without a roster: got %v", plain)
	}
}

// exportReport is a graded class of three in layout: a pass in Bulgarian, 75 % in Russian, and a
// conflict row that must never reach the LMS.
func exportReport(layout string) *Report {
	mk := func(name, id, lang string, score float64, passed int) Student {
		return Student{Name: name, Display: name, ID: id, Layout: layout, Lang: lang, Status: StatusFail, Score: score,
			Result: &checker.Result{Exercise: "exercise-deadline", Lang: lang, Verdict: checker.Fail, Passed: passed, Total: 4}}
	}
	a := mk("Иванов Иван", "100001", "ru", 75, 3)
	b := mk("Петрова Мария", "100002", "bg", 100, 4)
	b.Status, b.Result.Verdict = StatusPass, checker.Pass
	c := mk("Eve", "", "bg", 100, 4)
	c.Conflict, c.ClaimedID = ConflictAmbiguous, "100003"
	rep := &Report{Exercise: "exercise-deadline", Titles: map[string]string{"bg": "Повторения с краен срок", "ru": "Повторы с крайним сроком"},
		Students: []Student{a, b, c}, Feedback: map[string]string{}}
	return rep
}

func mustCSV(t *testing.T, s string) [][]string {
	t.Helper()
	r := csv.NewReader(strings.NewReader(s))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func rosterOf(t *testing.T, sheet string) *Roster {
	t.Helper()
	ro, err := rosterOfRows("worksheet.csv", mustCSV(t, sheet), ',', "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return ro
}
