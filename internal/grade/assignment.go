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

// Emails is each student's email address in a Moodle grading worksheet (by the roster's id, the
// participant id of that assignment), for joining the assignments of a course: Moodle's
// participant ids are each assignment's own, its email addresses are the user's. The column is
// the one titled as Moodle titles it, or else the identity column whose every cell holds one
// address. Nil when the roster is not Moodle's or shows no email.
func (f *RosterFile) Emails() map[string]string {
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
			if strings.TrimSpace(h) == w.email {
				col = i
			}
		}
	}
	if col < 0 {
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
				col = i
				break
			}
		}
	}
	if col < 0 {
		return nil
	}
	out := map[string]string{}
	for _, st := range ro.Students {
		if row := ro.Rows[st.row]; col < len(row) && strings.TrimSpace(row[col]) != "" {
			out[st.ID] = strings.ToLower(strings.TrimSpace(row[col]))
		}
	}
	return out
}
