package grade

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// The roster: the LMS's own export of the class (--roster), read before anything is graded. From it
// come the students' names and ids, the assignment's id, the students who handed in nothing, and,
// from Moodle, the submission times; and the LMS file written back is that export filled in.
//
// Moodle: the grading worksheet of the assignment ("Download grading worksheet",
// mod/assign/feedback/offline). Its importer (importgradeslib.php, init()) finds its columns by their
// exact titles in the teacher's Moodle language: get_string('recordid', 'assign') for the
// identifier, get_string('gradenoun') (get_string('grade') before Moodle 4.0) for the grade, and
// get_string('lastmodifiedgrade', 'assign'), and refuses a file that lacks any of the three; the
// identifier is get_string('hiddenuser', 'assign') followed by the participant id (next(): "Strip
// the integer from the end of the participant string"), the same id Moodle writes in the names of
// the downloaded submissions.
//
// Canvas: the gradebook export (Grades → Export). Its importer (app/models/gradebook_importer.rb)
// takes a header whose first cell holds "Student" and second "ID" (row_has_student_headers?), then
// "SIS User ID" and "SIS Login ID" (update_column_count), the last student column "Section", then one
// column per assignment titled "Title (id)" (Assignment.title_and_id); a row whose first cell holds
// "Points Possible" describes the assignments (check_for_non_student_row); students are matched by
// the ID column (process_student: @all_students[student_id.to_i]); the file may be separated by
// semicolons (semicolon_delimited?).

// moodleTitles are the words of Moodle's grading worksheet in one language: the titles of its
// columns in the order mod/assign/gradingtable.php writes them when downloading (recordid, fullname,
// the identity fields such as email, status, grade, maxgrade, gradecanbechanged,
// lastmodifiedsubmission, lastmodifiedgrade, then each feedback plugin's editor field under its
// description: the comments plugin's is get_string('pluginname', 'assignfeedback_comments')), and
// hiddenuser, which starts every identifier (col_recordid).
type moodleTitles struct {
	recordid   string // get_string('recordid', 'assign')
	fullname   string // get_string('fullname')
	email      string // get_string('email')
	idnumber   string // get_string('idnumber'), an identity column
	username   string // get_string('username'), an identity column
	status     string // get_string('status', 'assign')
	grade      string // get_string('gradenoun') (get_string('grade') before Moodle 4.0)
	maxgrade   string // get_string('maxgrade', 'assign')
	canchange  string // get_string('gradecanbechanged', 'assign')
	submitted  string // get_string('lastmodifiedsubmission', 'assign')
	modified   string // get_string('lastmodifiedgrade', 'assign')
	feedback   string // get_string('pluginname', 'assignfeedback_comments')
	hiddenuser string // get_string('hiddenuser', 'assign')
}

// moodleWords are Moodle's words by language, as its language packs have them.
//
// English: Moodle's own strings, lang/en/moodle.php, mod/assign/lang/en/assign.php and
// mod/assign/feedback/comments/lang/en/assignfeedback_comments.php (hiddenuser is "Participant "
// with its space there; Moodle 4 writes "Maximum grade", Moodle 3 "Maximum Grade", which a roster
// may still have).
//
// Russian: the ru language pack of Moodle 4.5 as the repository projectestac/moodle-langpacks keeps
// it (copies of download.moodle.org's packs, branch upstream_45, commit
// 9f605206302e557beb3d879e8bb1fa9665f9996e "Updated langpacks on 2026.06.18"): ru/assign.php and
// ru/moodle.php of that commit, ru/assignfeedback_comments.php of 7581ada2dbbb00155ec099701a025f06c08681e8;
// the same strings in its upstream_41 (e6384420785a4491d9922dae916d454af8b4ee07) and upstream_44
// (9e8e8e5b5ec2e1ab273421339f7df76b22a3d2ab) branches, where moodle.php's 'grade', the title the
// importer matched before Moodle 4.0, is "Оценка" too. The pack trims "Участник" of any space, so a
// Russian Moodle writes "Участник100001".
//
// Bulgarian: no Bulgarian pack of the assign module was found (the Bulgarian packs at hand are of
// Moodle 2.2, before mod/assign, and the Moodle app's Bulgarian strings hold hiddenuser and grade
// but not recordid nor lastmodifiedgrade), so grade does not write a Bulgarian worksheet's titles
// of its own (--moodle-lang bg is refused, never invented). A Bulgarian Moodle's own worksheet given
// as --roster works: a worksheet in titles of a language not here is read by the order of its
// columns, which Moodle fixes (moodleorder.go), and filled in with its own titles kept.
var moodleWords = map[string]moodleTitles{
	"en": {recordid: "Identifier", fullname: "Full name", email: "Email address", idnumber: "ID number", username: "Username", status: "Status", grade: "Grade",
		maxgrade: "Maximum grade", canchange: "Grade can be changed", submitted: "Last modified (submission)",
		modified: "Last modified (grade)", feedback: "Feedback comments", hiddenuser: "Participant "},
	"ru": {recordid: "Идентификатор", fullname: "Полное имя", email: "Адрес электронной почты", idnumber: "Индивидуальный номер", username: "Логин", status: "Статус", grade: "Оценка",
		maxgrade: "Максимальная оценка", canchange: "Оценка может быть изменена", submitted: "Последнее изменение (ответ)",
		modified: "Последнее изменение (оценка)", feedback: "Отзыв в виде комментария", hiddenuser: "Участник"},
}

// MoodleLangs are the Moodle languages whose worksheet titles grade can write without a roster.
var MoodleLangs = []string{"en", "ru"}

// Roster is the class as the LMS exported it.
type Roster struct {
	Layout   string // LayoutMoodle, LayoutCanvas or LayoutClassroom
	Path     string // the file it was read from
	Students []RosterStudent
	// AssignmentID and Assignment are Canvas's id and title of the assignment graded (the column
	// "Title (id)" chosen); PointsPossible is its row's value.
	AssignmentID, Assignment string
	PointsPossible           string
	// The file as read: its rows (the header first) and separator, to be written back filled in.
	Rows  [][]string
	Comma rune
	// Column indexes (-1 for none).
	idCol, nameCol, gradeCol, feedbackCol, submittedCol, assignCol, loginCol, maxCol int
	prefix                                                                           string // Moodle's "Participant "
	lang                                                                             string // the language of a Moodle worksheet's titles
	byID                                                                             map[string]int
}

// RosterStudent is one student of the roster.
type RosterStudent struct {
	ID        string    `json:"id"`   // Moodle's participant id, Canvas's user id
	Name      string    `json:"name"` // the full name as the LMS shows it
	Login     string    `json:"login,omitempty"`
	Display   string    `json:"display,omitempty"`   // GitHub Classroom's roster identifier, when the instructor linked one
	Submitted time.Time `json:"submitted,omitempty"` // Moodle's "Last modified (submission)", GitHub Classroom's submission_timestamp
	row       int
}

// RosterError is a roster that cannot be used: Code names why (a message grade_err_roster_CODE),
// Detail what was found.
type RosterError struct {
	Path, Code, Detail string
	Line               int
}

func (e *RosterError) Error() string {
	return fmt.Sprintf("%s:%d: roster: %s %s", e.Path, e.Line, e.Code, e.Detail)
}

// Roster error codes.
const (
	RosterUnknown     = "unknown"      // neither a Moodle worksheet, a Canvas gradebook nor GitHub Classroom's grades
	RosterMalformed   = "malformed"    // not CSV, or rows of the wrong length
	RosterQuote       = "quote"        // a quotation mark never closed, or one in the middle of a cell
	RosterCells       = "cells"        // a row with fewer cells than the LMS writes (cut), or more (Detail "got/want")
	RosterNoGrade     = "no_grade"     // a Moodle worksheet without the columns its importer needs
	RosterBadID       = "bad_id"       // an identifier that is not Moodle's nor Canvas's
	RosterDuplicate   = "duplicate"    // one id twice
	RosterAssignment  = "assignment"   // no column of the assignment (Canvas), or several
	RosterMissingID   = "missing_id"   // ids in the export that the roster lacks
	RosterOtherLayout = "other_layout" // a Moodle roster for a Canvas export, or the reverse
)

// ReadRoster reads a Moodle grading worksheet or a Canvas gradebook export. assignment chooses the
// Canvas column (its id, or its title) when the gradebook has more than one; exercise and titles are
// matched against the columns' titles otherwise.
func ReadRoster(path, assignment string, titles []string) (*Roster, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data = spreadsheetText(data)
	comma := ','
	// Canvas's importer takes semicolons too (semicolon_delimited?), a spreadsheet in a Russian or
	// Bulgarian locale saves them, and Excel's "Unicode text" separates by tabs.
	first, _, _ := bytes.Cut(data, []byte("\n"))
	for _, c := range []rune{';', '\t'} {
		if bytes.Count(first, []byte(string(c))) > bytes.Count(first, []byte(string(comma))) {
			comma = c
		}
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = comma
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		var pe *csv.ParseError
		line := 0
		if errors.As(err, &pe) {
			line = pe.Line
			if errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote) {
				// The parser's own words are English: the code says it in the instructor's.
				return nil, &RosterError{Path: path, Code: RosterQuote, Line: line}
			}
		}
		return nil, &RosterError{Path: path, Code: RosterMalformed, Detail: err.Error(), Line: line}
	}
	return rosterOfRows(path, rows, comma, assignment, titles)
}

// spreadsheetText is a saved table's text in UTF-8, without a byte order mark: Excel saves
// "Unicode text" in UTF-16 with a byte order mark, and "CSV (semicolon delimited)" on a Russian or
// Bulgarian Windows in Windows-1251.
func spreadsheetText(data []byte) []byte {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		if text, err := dec.Bytes(data); err == nil {
			data = text
		}
	}
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	// A UTF-8 table with a byte that is not (one student's name cut in the middle of a letter) stays
	// UTF-8, the byte written as U+FFFD (what goes back to the LMS is UTF-8): read as Windows-1251,
	// every other student's Cyrillic name would be garbled.
	if !utf8.Valid(data) && mostlyUTF8(data) {
		return bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	if !utf8.Valid(data) {
		if text, err := charmap.Windows1251.NewDecoder().Bytes(data); err == nil {
			data = text
		}
	}
	return data
}

// rosterOfRows reads a roster's rows (ReadRoster; a report's RosterFile).
func rosterOfRows(path string, rows [][]string, comma rune, assignment string, titles []string) (*Roster, error) {
	if len(rows) == 0 {
		return nil, &RosterError{Path: path, Code: RosterUnknown, Line: 1}
	}
	ro := &Roster{Path: path, Rows: rows, Comma: comma, byID: map[string]int{}, idCol: -1, nameCol: -1, gradeCol: -1,
		feedbackCol: -1, submittedCol: -1, assignCol: -1, loginCol: -1, maxCol: -1}
	var err error
	switch {
	case isCanvasHeader(rows[0]):
		err = ro.readCanvas(path, assignment, titles)
	case isClassroomHeader(rows[0]):
		err = ro.readClassroom(path)
	case moodleTitled(rows[0]):
		err = ro.readMoodle(path)
	case isMoodleByOrder(rows):
		// Titles of a language grade has no words for, or an identifier's title it knows beside other
		// titles it does not ("Идентификатор" may be Bulgarian as well as Russian).
		err = ro.readMoodleByOrder(path)
	case moodleLang(rows[0]) != "":
		err = ro.readMoodle(path) // refused: the importer's columns are missing
	default:
		err = &RosterError{Path: path, Code: RosterUnknown, Detail: strings.Join(rows[0], ", "), Line: 1}
	}
	if err != nil {
		return nil, err
	}
	return ro, nil
}

// RosterFile is the roster as a report keeps it (Report.Roster), so that the LMS's files can be
// written again from results.json alone.
type RosterFile struct {
	Layout     string     `json:"layout"`
	Assignment string     `json:"assignment,omitempty"`
	Comma      string     `json:"comma"`
	Rows       [][]string `json:"rows"`
}

// File is the roster as a report keeps it.
func (ro *Roster) File() *RosterFile {
	if ro == nil {
		return nil
	}
	return &RosterFile{Layout: ro.Layout, Assignment: ro.Assignment, Comma: string(ro.Comma), Rows: ro.Rows}
}

// Roster reads the kept roster again.
func (f *RosterFile) Roster() (*Roster, error) {
	comma := ','
	if f.Comma == ";" {
		comma = ';'
	}
	return rosterOfRows("results.json", f.Rows, comma, f.Assignment, nil)
}

// moodleLang is the language of a Moodle worksheet's titles ("" when the row is no such header).
func moodleLang(header []string) string {
	for lang, w := range moodleWords {
		for _, c := range header {
			if c == w.recordid {
				return lang
			}
		}
	}
	return ""
}

// moodleTitled reports whether a header has the titles of the importer's columns in one language
// grade knows: the identifier, the grade and "Last modified (grade)".
func moodleTitled(header []string) bool {
	w, ok := moodleWords[moodleLang(header)]
	return ok && indexOf(header, w.grade) >= 0 && indexOf(header, w.modified) >= 0
}

func indexOf(row []string, title string) int {
	for i, c := range row {
		if c == title {
			return i
		}
	}
	return -1
}

func (ro *Roster) readMoodle(path string) error {
	ro.Layout = LayoutMoodle
	hdr := ro.Rows[0]
	ro.lang = moodleLang(hdr)
	w := moodleWords[ro.lang]
	ro.prefix = w.hiddenuser
	ro.idCol, ro.gradeCol = indexOf(hdr, w.recordid), indexOf(hdr, w.grade)
	if ro.gradeCol < 0 || indexOf(hdr, w.modified) < 0 {
		return &RosterError{Path: path, Code: RosterNoGrade, Detail: strings.Join(hdr, ", "), Line: 1}
	}
	// The full name (gradingtable.php: recordid, then fullname), which a worksheet of an assignment
	// with blind marking leaves out: its participants are known by their identifiers alone.
	ro.nameCol = indexOf(hdr, w.fullname)
	ro.feedbackCol = indexOf(hdr, w.feedback)
	ro.submittedCol = indexOf(hdr, w.submitted)
	ro.maxCol = maxGradeCol(hdr, ro.lang)
	return ro.readMoodleRows(path)
}

// isMoodleByOrder reports whether rows are a Moodle worksheet in titles grade has no words for: its
// first column holds participant identifiers (see moodleOrder).
func isMoodleByOrder(rows [][]string) bool {
	_, moodle, _ := moodleOrder(rows)
	return moodle
}

// readMoodleByOrder reads a worksheet by the order of its columns (moodleOrder), refusing one whose
// grade, "last modified (grade)" or feedback column is not certain.
func (ro *Roster) readMoodleByOrder(path string) error {
	ro.Layout = LayoutMoodle
	c, _, why := moodleOrder(ro.Rows)
	if why != "" {
		return &RosterError{Path: path, Code: RosterNoGrade, Detail: why + ": " + strings.Join(ro.Rows[0], ", "), Line: 1}
	}
	ro.prefix, ro.idCol, ro.nameCol, ro.gradeCol, ro.maxCol = c.prefix, 0, c.name, c.grade, c.max
	ro.submittedCol, ro.feedbackCol = c.submitted, c.feedback
	return ro.readMoodleRows(path)
}

// readMoodleRows reads the students of a worksheet whose columns are known.
func (ro *Roster) readMoodleRows(path string) error {
	hdr := ro.Rows[0]
	for i, row := range ro.Rows[1:] {
		if blankRow(row) {
			continue // a spreadsheet's empty rows under the table
		}
		if len(row) > len(hdr) && !blankRow(row[len(hdr):]) {
			return &RosterError{Path: path, Code: RosterCells, Detail: fmt.Sprintf("%d/%d", len(row), len(hdr)), Line: i + 2}
		}
		// Moodle fills the maximum grade and the submission's time ("-" for none) of every row: a row
		// that stops before them was cut (by hand, or by a spreadsheet), and its values are lost.
		if need := max(ro.maxCol, ro.submittedCol, ro.idCol, ro.nameCol) + 1; len(row) < need {
			return &RosterError{Path: path, Code: RosterCells, Detail: fmt.Sprintf("%d/%d", len(row), len(hdr)), Line: i + 2}
		}
		// A spreadsheet may leave out a row's empty cells at its end, or add empty ones.
		for len(row) < len(hdr) {
			row = append(row, "")
		}
		row = row[:len(hdr)]
		ro.Rows[i+1] = row
		id, ok := strings.CutPrefix(row[ro.idCol], ro.prefix)
		if !ok || !allDigits(id) {
			return &RosterError{Path: path, Code: RosterBadID, Detail: row[ro.idCol], Line: i + 2}
		}
		st := RosterStudent{ID: id, Name: row[ro.idCol], row: i + 1}
		if ro.nameCol >= 0 {
			st.Name = row[ro.nameCol]
		}
		if ro.submittedCol >= 0 {
			st.Submitted = parseMoodleTime(row[ro.submittedCol])
		}
		if err := ro.add(path, st); err != nil {
			return err
		}
	}
	return nil
}

// blankRow reports whether a row's cells are all empty.
func blankRow(row []string) bool {
	for _, c := range row {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// canvasAssignment is Canvas's "Title (id)" (Assignment.title_and_id: /\A(.*)\s\((\d+)\)\z/).
var canvasAssignment = regexp.MustCompile(`^(.*)\s\((\d+)\)$`)

// canvasReserved are the columns of Canvas's export that are no assignment
// (GRADEBOOK_IMPORTER_RESERVED_NAMES and NON_ASSIGNMENT_COLUMN_HEADERS, matched as the importer
// does: the second list anywhere in the title, "Unposted …" included).
var (
	canvasReserved = []string{"Student", "LastName", "FirstName", "ID", "SIS User ID", "SIS Login ID", "Section", "Integration ID", "Root Account"}
	canvasTotals   = regexp.MustCompile(`Current Score|Current Points|Current Grade|Final Score|Final Points|Final Grade|Override Score|Override Grade|Override Status`)
)

func isCanvasHeader(row []string) bool {
	return len(row) > 3 && strings.Contains(row[0], "Student") && strings.Contains(row[1], "ID")
}

func (ro *Roster) readCanvas(path, want string, titles []string) error {
	ro.Layout = LayoutCanvas
	hdr := ro.Rows[0]
	ro.nameCol, ro.idCol, ro.loginCol = 0, 1, indexOf(hdr, "SIS Login ID")
	if indexOf(hdr, "Section") < 0 {
		return &RosterError{Path: path, Code: RosterUnknown, Detail: strings.Join(hdr, ", "), Line: 1}
	}
	if err := ro.chooseAssignment(path, want, titles); err != nil {
		return err
	}
	for i, row := range ro.Rows[1:] {
		if len(row) == 0 || (len(row) == 1 && strings.TrimSpace(row[0]) == "") {
			continue
		}
		if strings.Contains(row[0], "Points Possible") {
			if ro.assignCol < len(row) {
				ro.PointsPossible = row[ro.assignCol]
			}
			continue
		}
		if mutedRow(row) {
			continue
		}
		if len(row) <= ro.assignCol {
			return &RosterError{Path: path, Code: RosterCells, Detail: fmt.Sprintf("%d/%d", len(row), len(hdr)), Line: i + 2}
		}
		id := strings.TrimSpace(row[ro.idCol])
		if !allDigits(id) {
			return &RosterError{Path: path, Code: RosterBadID, Detail: row[ro.idCol], Line: i + 2}
		}
		st := RosterStudent{ID: id, Name: row[ro.nameCol], row: i + 1}
		if ro.loginCol >= 0 && ro.loginCol < len(row) {
			st.Login = row[ro.loginCol]
		}
		if err := ro.add(path, st); err != nil {
			return err
		}
	}
	return nil
}

// mutedRow is the row Canvas writes under the header for muted or manually posted assignments
// (check_for_non_student_row).
func mutedRow(row []string) bool {
	re := regexp.MustCompile(`(?i)^\s*(Muted|Manual Posting.*)?\s*$`)
	for _, c := range row {
		if !re.MatchString(c) {
			return false
		}
	}
	return true
}

// chooseAssignment finds the assignment's column: the one whose id or title is want, else the only
// assignment column, else the one whose title is the exercise's name or a title of it.
func (ro *Roster) chooseAssignment(path, want string, titles []string) error {
	var cols []int
	for i, c := range ro.Rows[0] {
		if isReserved(c) || canvasTotals.MatchString(c) {
			continue
		}
		cols = append(cols, i)
	}
	pick := func(match func(title, id string) bool) []int {
		var out []int
		for _, i := range cols {
			title, id := ro.Rows[0][i], ""
			if m := canvasAssignment.FindStringSubmatch(title); m != nil {
				title, id = m[1], m[2]
			}
			if match(strings.TrimSpace(title), id) {
				out = append(out, i)
			}
		}
		return out
	}
	var found []int
	switch {
	case want != "":
		found = pick(func(title, id string) bool {
			return id == want || strings.EqualFold(title, want) || (id != "" && title+" ("+id+")" == want)
		})
	case len(cols) == 1:
		found = cols
	default:
		found = pick(func(title, _ string) bool {
			for _, t := range titles {
				if t != "" && strings.EqualFold(title, t) {
					return true
				}
			}
			return false
		})
	}
	if len(found) != 1 {
		var names []string
		for _, i := range cols {
			names = append(names, ro.Rows[0][i])
		}
		return &RosterError{Path: path, Code: RosterAssignment, Detail: strings.Join(names, "; "), Line: 1}
	}
	ro.assignCol = found[0]
	ro.Assignment = ro.Rows[0][ro.assignCol]
	if m := canvasAssignment.FindStringSubmatch(ro.Assignment); m != nil {
		ro.AssignmentID = m[2]
	}
	return nil
}

func isReserved(c string) bool {
	for _, r := range canvasReserved {
		if c == r {
			return true
		}
	}
	return false
}

func (ro *Roster) add(path string, st RosterStudent) error {
	if _, dup := ro.byID[st.ID]; dup {
		return &RosterError{Path: path, Code: RosterDuplicate, Detail: st.ID, Line: st.row + 1}
	}
	ro.byID[st.ID] = len(ro.Students)
	ro.Students = append(ro.Students, st)
	return nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Student returns the roster's student with the id.
func (ro *Roster) Student(id string) (RosterStudent, bool) {
	if ro == nil {
		return RosterStudent{}, false
	}
	i, ok := ro.byID[id]
	if !ok {
		return RosterStudent{}, false
	}
	return ro.Students[i], true
}

// confirms reports whether the roster lists the reading's id, under the same name for Moodle (whose
// export writes the full name with "_" made " ", as the worksheet shows it).
func (ro *Roster) confirms(r reading) bool {
	st, ok := ro.Student(r.id)
	if !ok || r.anon || r.layout != ro.Layout {
		return false
	}
	if r.layout == LayoutMoodle && ro.nameCol < 0 {
		// Blind marking: Moodle names the entries "Participant_ID_…" and the worksheet has no names.
		return true
	}
	if r.layout == LayoutMoodle {
		entry := strings.ReplaceAll(st.Name, "_", " ")
		if cleanName(entry) == cleanName(r.name) {
			return true
		}
		// An entry whose name was too long for a file system, shortened as the class was unpacked.
		return len(entry+r.rest) > maxComponentBytes && shortComponent(entry+r.rest) == r.name+r.rest
	}
	return true
}

// Check refuses a roster that does not describe the export: another LMS's, or one that lacks ids the
// export has (a roster of another assignment: Moodle's participant ids are the assignment's own).
func (ro *Roster) Check(path string, subs []Submission) error {
	var missing []string
	for _, s := range subs {
		if s.Layout == "" || s.ID == "" || s.Anonymous {
			continue
		}
		if s.Layout != ro.Layout {
			return &RosterError{Path: path, Code: RosterOtherLayout, Detail: s.Layout}
		}
		if _, ok := ro.Student(s.ID); !ok {
			missing = append(missing, s.ID)
		}
	}
	if len(missing) > 0 {
		return &RosterError{Path: path, Code: RosterMissingID, Detail: strings.Join(missing, ", ")}
	}
	return nil
}

// parseMoodleTime reads a time as Moodle's worksheet writes it: userdate() in the format
// strftimedaydatetime of the teacher's language ("Tuesday, 1 December 2026, 9:03 PM" in English,
// "вторник, 01 декабря 2026, 21:03" in Russian, the month's name in either of its forms), or an ISO
// time; the zero time when it cannot ("-", words of a language it does not know).
func parseMoodleTime(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t
		}
	}
	m := moodleDate.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}
	}
	month := monthOf(m[2])
	day, _ := strconv.Atoi(m[1])
	year, _ := strconv.Atoi(m[3])
	hour, _ := strconv.Atoi(m[4])
	minute, _ := strconv.Atoi(m[5])
	switch ampm := strings.ToUpper(m[6]); {
	case month == 0 || day < 1 || day > 31 || hour > 23 || minute > 59:
		return time.Time{}
	case ampm == "PM" && hour < 12:
		hour += 12
	case ampm == "AM" && hour == 12:
		hour = 0
	}
	return time.Date(year, month, day, hour, minute, 0, 0, time.Local)
}

// moodleDate is the day, month, year and time of a userdate(), whatever the weekday before it.
var moodleDate = regexp.MustCompile(`(\d{1,2})\.?\s+(\pL+)\.?\s+(\d{4})(?:\s*г\.)?,?\s+(\d{1,2}):(\d{2})(?:\s*([AaPp][Mm]))?`)

// monthStems are the first letters of the months' names in English, Russian and Bulgarian, in
// both forms a language pack's date may have them (Russian "декабря" and "декабрь").
var monthStems = [12][]string{{"jan", "янв", "яну"}, {"feb", "фев"}, {"mar", "мар"}, {"apr", "апр"},
	{"may", "мая", "май"}, {"jun", "июн", "юни"}, {"jul", "июл", "юли"}, {"aug", "авг"},
	{"sep", "сен", "сеп"}, {"oct", "окт"}, {"nov", "ноя", "ное"}, {"dec", "дек"}}

func monthOf(word string) time.Month {
	w := []rune(strings.ToLower(word))
	if len(w) < 3 {
		return 0
	}
	stem := string(w[:3])
	for i, stems := range monthStems {
		for _, x := range stems {
			if x == stem {
				return time.Month(i + 1)
			}
		}
	}
	return 0
}

// fmtMoodleTime writes a time that Moodle's importer reads back (it passes the cell to PHP's
// strtotime, which takes ISO 8601).
func fmtMoodleTime(t time.Time) string { return t.Format(time.RFC3339) }

// missing is a row for every student of the roster who handed in nothing (in the job's shard).
func (g *grader) missing(subs []Submission) []Student {
	ro := g.job.Roster
	if ro == nil {
		return nil
	}
	have, names := map[string]bool{}, map[string]bool{}
	for _, s := range subs {
		if s.ID != "" {
			have[s.ID] = true
		}
		names[s.Name] = true
	}
	var out []Student
	for _, rs := range ro.Students {
		if have[rs.ID] {
			continue
		}
		st := Student{Name: cleanName(rs.Name), Layout: ro.Layout, Display: cmp.Or(rs.Display, rs.Name), ID: rs.ID, Lang: g.job.Lang, LangFrom: LangFromForced}
		if names[st.Name] {
			st.Name = fmt.Sprintf("%s (%s)", st.Name, rs.ID) // a namesake who handed something in
		}
		names[st.Name] = true
		if st.Lang == "" {
			st.Lang, st.LangFrom = g.job.fallback(), LangFromFallback
		}
		if !g.job.Shard.Has(st.Name) {
			continue
		}
		st.Result = g.verdict(st, NoSubmission, "", "")
		out = append(out, st)
	}
	return out
}
