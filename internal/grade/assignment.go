package grade

import (
	"io/fs"
	"strings"

	"github.com/workbook-course/workbook/internal/course"
)

// RosterOtherExercise is a Canvas column chosen (--assignment) that is another exercise's: its
// title is the name or a title of another exercise of the course, and not this one's.
const RosterOtherExercise = "other_exercise"

// ColumnExercise is the name of the course's exercise that a Canvas assignment column ("Title
// (id)", or a bare title) is titled after: its name or its title in a language, letter case aside;
// "" when the title is none of them.
func ColumnExercise(fsys fs.FS, column string) string {
	title := column
	if m := canvasAssignment.FindStringSubmatch(column); m != nil {
		title = m[1]
	}
	title = strings.TrimSpace(title)
	exs, err := course.New(fsys).Exercises()
	if err != nil {
		return ""
	}
	for _, ex := range exs {
		if titledAfter(ex, title) {
			return ex.Name
		}
	}
	return ""
}

// titledAfter reports whether title is the exercise's name or one of its titles.
func titledAfter(ex *course.Exercise, title string) bool {
	if strings.EqualFold(title, ex.Name) {
		return true
	}
	for _, t := range ex.Titles {
		if t != "" && strings.EqualFold(title, t) {
			return true
		}
	}
	return false
}

// checkAssignment refuses a Canvas roster whose chosen column is another exercise's: grading it
// would send this exercise's scores to that assignment.
func checkAssignment(fsys fs.FS, ex *course.Exercise, ro *Roster) error {
	if ro == nil || ro.Layout != LayoutCanvas || ro.Assignment == "" {
		return nil
	}
	if other := ColumnExercise(fsys, ro.Assignment); other != "" && other != ex.Name {
		title := ro.Assignment
		if m := canvasAssignment.FindStringSubmatch(title); m != nil {
			title = m[1]
		}
		if !titledAfter(ex, strings.TrimSpace(title)) {
			return &RosterError{Path: ro.Path, Code: RosterOtherExercise, Detail: ro.Assignment, Line: 1}
		}
	}
	return nil
}

// Identity kinds a Moodle grading worksheet can show its students by (the site's "Show user
// identity" setting), which are also what Moodle's grade import finds a user by ("Map to":
// useremail, useridnumber, username), in the order a gradebook prefers them. A worksheet's
// participant ids are each assignment's own and match no user.
const (
	IdentityEmail    = "email"
	IdentityIDNumber = "idnumber"
	IdentityUsername = "username"
)

// IdentityKinds are the identity kinds, in the order a gradebook prefers them.
var IdentityKinds = []string{IdentityEmail, IdentityIDNumber, IdentityUsername}

// MoodleIdentityTitle is the title of an identity column in an English Moodle (lang/en/moodle.php:
// email, idnumber, username).
func MoodleIdentityTitle(kind string) string {
	return moodleWords["en"].identity(kind)
}

// identity is the title of the identity column of kind.
func (w moodleTitles) identity(kind string) string {
	switch kind {
	case IdentityEmail:
		return w.email
	case IdentityIDNumber:
		return w.idnumber
	case IdentityUsername:
		return w.username
	}
	return ""
}

// Emails is Identities(IdentityEmail).
func (f *RosterFile) Emails() map[string]string { return f.Identities(IdentityEmail) }

// Identities is each student's identity of kind in a Moodle grading worksheet (by the roster's id,
// the participant id of that assignment), for joining the assignments of a course and matching the
// students in Moodle's grade import. The column is the one titled as Moodle titles it in a
// language grade knows, or for email addresses the identity column whose every cell holds one
// address (so that a worksheet in another language is read too). Email addresses and usernames
// are compared in lower case, as Moodle keeps them. Nil when the roster is not Moodle's or does
// not show that identity.
func (f *RosterFile) Identities(kind string) map[string]string {
	if f == nil || f.Layout != LayoutMoodle {
		return nil
	}
	ro, err := f.Roster()
	if err != nil || len(ro.Rows) == 0 {
		return nil
	}
	col := -1
	for i, h := range ro.Rows[0] {
		for _, w := range moodleWords {
			if t := w.identity(kind); t != "" && strings.TrimSpace(h) == t {
				col = i
			}
		}
	}
	if col < 0 && kind == IdentityEmail {
		col = ro.emailColumn()
	}
	if col < 0 {
		return nil
	}
	out := map[string]string{}
	for _, st := range ro.Students {
		if row := ro.Rows[st.row]; col < len(row) && strings.TrimSpace(row[col]) != "" {
			v := strings.TrimSpace(row[col])
			if kind != IdentityIDNumber {
				v = strings.ToLower(v)
			}
			out[st.ID] = v
		}
	}
	return out
}

// emailColumn is the column of a worksheet, other than the id and the name, whose every cell of a
// student holds one email address (-1 for none).
func (ro *Roster) emailColumn() int {
	for i := range ro.Rows[0] {
		if i == ro.idCol || i == ro.nameCol {
			continue
		}
		all, n := true, 0
		for _, st := range ro.Students {
			if row := ro.Rows[st.row]; i < len(row) && row[i] != "" {
				n++
				all = all && strings.Count(row[i], "@") == 1 && !strings.ContainsAny(row[i], " \t")
			}
		}
		if all && n == len(ro.Students) && n > 0 {
			return i
		}
	}
	return -1
}

// MaxGrade is the assignment's maximum grade as a Moodle worksheet gives it ("Maximum grade" of
// its first student who has one), "" when the roster is not Moodle's or has no such column.
func (f *RosterFile) MaxGrade() string {
	if f == nil || f.Layout != LayoutMoodle {
		return ""
	}
	ro, err := f.Roster()
	if err != nil || ro.maxCol < 0 {
		return ""
	}
	for _, st := range ro.Students {
		if row := ro.Rows[st.row]; ro.maxCol < len(row) && strings.TrimSpace(row[ro.maxCol]) != "" {
			return strings.TrimSpace(row[ro.maxCol])
		}
	}
	return ""
}
