package grade

import (
	"regexp"
	"strconv"
	"strings"
)

// A Moodle grading worksheet whose titles are in a language grade has no words for (a Bulgarian
// Moodle above all: see moodleWords) is read by the order of its columns, which Moodle fixes.
//
// mod/assign/gradingtable.php (assign_grading_table::__construct, Moodle 4.1 as
// moodleulpgc/moodle41ulpgc keeps it, commit 4e2bcecb82a4a106ef2a2eeb46d8459ea742fdea; the same order
// in moodle/moodle 1494620bfbb33538251bc1a222027f665b7da2ea, where the grade's title is still
// get_string('grade')) writes, when downloading:
//
//   - recordid, whose every cell is get_string('hiddenuser', 'assign') followed by the participant's
//     unique id (col_recordid);
//   - fullname and the identity fields ($extrauserfields), unless the assignment marks blind and the
//     teacher may not see who is who: then recordid alone;
//   - status; the override dates (allowsubmissionsfromdate, duedate, cutoffdate) when there are
//     overrides; team; the allocated marker;
//   - grade: empty or format_float(grade) (display_grade);
//   - grademax: format_float of the assignment's maximum, the same on every row (col_grademax), or
//     scale for a scale, or nothing for an assignment without a grade (grade refuses both, as it has
//     no number to write);
//   - workflowstate with a marking workflow;
//   - gradecanbechanged: get_string('yes') or get_string('no') (col_gradecanbechanged);
//   - when any submission plugin is on, timesubmitted: userdate() or "-" (col_timesubmitted), then
//     each submission plugin's editor fields (online text);
//   - timemarked, the importer's "last modified (grade)": userdate() or "-" (col_timemarked);
//   - each feedback plugin's editor fields: the comments plugin's is the only one in Moodle itself
//     (assign_feedback_comments::get_editor_fields); the file, PDF and offline plugins have none;
//   - outcomes, when the site has them on and the activity has some.
//
// The importer (mod/assign/feedback/offline/importgradeslib.php, init()) then finds the grade, the
// identifier, "last modified (grade)" and the feedback fields by their titles in the uploading
// teacher's language, the same strings the download wrote: so a worksheet filled in with its own
// titles kept is one that teacher's Moodle takes, whatever its language.
//
// The Moodle app's Bulgarian strings (moodlehq/moodleapp, src/assets/lang/bg.json, commit
// 01a80b497ead0792d36dfd30649ddc445a3f60a8; the app takes its translations of Moodle's own strings
// from the same translators' work, AMOS) confirm what such a worksheet holds, as far as they go: addon.mod_assign.hiddenuser "Участник", core.yes "Да" and core.no "Не"
// (gradecanbechanged), core.decsep "," (format_float writes "10,00"), core.strftimedaydatetime
// "%A, %d %B %Y, %H:%M" (userdate: "вторник, 01 декември 2026, 20:00", which parseMoodleTime reads),
// addon.mod_assign_feedback_comments.pluginname "Обратни коментари" (the comments column's title).
//
// Only the grade, "last modified (grade)", the submission time and the feedback are needed, and each
// is found for certain or the worksheet is refused (RosterNoGrade): the maximum grade is the column
// with one and the same positive number on every row, right after a column of grades no higher;
// "grade can be changed" is one or two words, two columns after the grade at most (a workflow state
// between), and is followed by the submission time; "last modified (grade)" is the only column after
// it whose every cell is a time or "-"; the feedback is the one column after that, and a worksheet
// with more than one there (another plugin's field, outcomes) is refused rather than guessed into.

// moodleColumns are the columns of a worksheet read by their order.
type moodleColumns struct {
	name, grade, max, submitted, modified, feedback int
	prefix                                          string // hiddenuser, as the identifiers start
}

// participantID is an identifier of the worksheet: hiddenuser (a word, "Participant ", "Участник",
// "Teilnehmer/in") and the participant's id.
var participantID = regexp.MustCompile(`^(\D*\pL\D*)(\d+)$`)

// moodleNumber is a number as format_float writes it, with the language's decimal separator.
var moodleNumber = regexp.MustCompile(`^\d+(?:[.,]\d+)?$`)

// moodleYesNo is a word of get_string('yes') or get_string('no').
var moodleYesNo = regexp.MustCompile(`^\pL+$`)

// userdate is what userdate() writes in any language's strftimedaydatetime: a year and a time.
var userdateYear, userdateTime = regexp.MustCompile(`\d{4}`), regexp.MustCompile(`\d{1,2}:\d{2}`)

// moodleOrder reads a worksheet's columns by their order. moodle is false when the first column
// holds no participant identifiers (no Moodle worksheet at all); why says which column could not be
// found for certain ("" when all were).
func moodleOrder(rows [][]string) (c moodleColumns, moodle bool, why string) {
	hdr := rows[0]
	width := len(hdr)
	for width > 0 && strings.TrimSpace(hdr[width-1]) == "" {
		width--
	}
	var data [][]string
	for _, r := range rows[1:] {
		if blankRow(r) {
			continue
		}
		row := make([]string, width)
		copy(row, r)
		data = append(data, row)
	}
	if len(data) == 0 || width < 2 {
		return c, false, ""
	}
	m := participantID.FindStringSubmatch(strings.TrimSpace(data[0][0]))
	if m == nil {
		return c, false, ""
	}
	c.prefix = m[1]
	col := func(j int) []string {
		out := make([]string, len(data))
		for i, r := range data {
			out[i] = strings.TrimSpace(r[j])
		}
		return out
	}
	type found struct{ grade, max, canchange int }
	var cands []found
	for mx := 3; mx+2 < width; mx++ {
		max, ok := sameNumber(col(mx))
		if !ok || !gradesUpTo(col(mx-1), max) {
			continue
		}
		for _, cc := range []int{mx + 1, mx + 2} {
			if cc+1 < width && yesNo(col(cc)) && timesOrDash(col(cc+1)) {
				cands = append(cands, found{mx - 1, mx, cc})
			}
		}
	}
	if len(cands) != 1 {
		return c, true, "grade"
	}
	c.grade, c.max, c.submitted = cands[0].grade, cands[0].max, cands[0].canchange+1
	c.modified = -1
	for j := c.submitted + 1; j < width; j++ {
		if timesOrDash(col(j)) {
			if c.modified >= 0 {
				return c, true, "modified"
			}
			c.modified = j
		}
	}
	switch {
	case c.modified < 0:
		return c, true, "modified"
	case width-1-c.modified > 1:
		return c, true, "feedback"
	case width-1-c.modified == 1:
		c.feedback = c.modified + 1
	default:
		c.feedback = -1
	}
	// The full name follows the identifier unless the worksheet is blind: then the status alone is
	// between the identifier and the grade (or the status and the override dates, team or marker,
	// whose first column, the status, is never one name on every row of a class).
	c.name = 1
	if names := col(1); c.grade == 2 || (len(names) > 2 && allSame(names)) {
		c.name = -1
	}
	return c, true, ""
}

// sameNumber reports the number that is every cell of a column (the maximum grade), if it is one
// positive number.
func sameNumber(cells []string) (float64, bool) {
	if !allSame(cells) || !moodleNumber.MatchString(cells[0]) {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.Replace(cells[0], ",", ".", 1), 64)
	return v, err == nil && v > 0
}

// gradesUpTo reports whether every cell is empty or a grade between 0 and max.
func gradesUpTo(cells []string, max float64) bool {
	for _, c := range cells {
		if c == "" {
			continue
		}
		if !moodleNumber.MatchString(c) {
			return false
		}
		if v, err := strconv.ParseFloat(strings.Replace(c, ",", ".", 1), 64); err != nil || v > max {
			return false
		}
	}
	return true
}

// yesNo reports whether a column holds one or two single words (get_string('yes'), get_string('no')).
func yesNo(cells []string) bool {
	seen := map[string]bool{}
	for _, c := range cells {
		if !moodleYesNo.MatchString(c) {
			return false
		}
		seen[c] = true
	}
	return len(seen) <= 2
}

// timesOrDash reports whether every cell is a userdate() or "-" (no time).
func timesOrDash(cells []string) bool {
	for _, c := range cells {
		if c != "-" && !(userdateYear.MatchString(c) && userdateTime.MatchString(c)) {
			return false
		}
	}
	return true
}

func allSame(cells []string) bool {
	for _, c := range cells {
		if c != cells[0] {
			return false
		}
	}
	return len(cells) > 0
}
