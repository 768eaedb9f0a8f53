package grade

import (
	"slices"
	"strings"
	"time"
)

// GitHub Classroom's grades export ("Download grades" of an assignment, the REST API's
// classroom-assignment-grade): one row per student with assignment_name, assignment_url,
// starter_code_url, github_username, roster_identifier, student_repository_name,
// student_repository_url, submission_timestamp, points_awarded, points_available (and group_name for
// a group assignment). Given as --roster, it names the students by their GitHub login (what the
// folders of a classroom clone are named after), lists those who accepted the assignment and handed
// in nothing, and gives the submission time as GitHub records it: a time the student cannot write,
// unlike the dates of the commits in the repository (times.go).

// classroomColumns are the titles that tell GitHub Classroom's export.
var classroomColumns = []string{"github_username", "submission_timestamp"}

// isClassroomHeader reports whether a header row is GitHub Classroom's grades export's.
func isClassroomHeader(row []string) bool {
	for _, c := range classroomColumns {
		if !slices.Contains(trimmed(row), c) {
			return false
		}
	}
	return true
}

func trimmed(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = strings.TrimSpace(c)
	}
	return out
}

// readClassroom reads GitHub Classroom's grades export: the login is the student's id and name (a
// classroom's folders are named after it), the roster identifier, when the instructor linked one, is
// kept as what the LMS shows.
func (ro *Roster) readClassroom(path string) error {
	ro.Layout = LayoutClassroom
	hdr := trimmed(ro.Rows[0])
	login := slices.Index(hdr, "github_username")
	ident := slices.Index(hdr, "roster_identifier")
	ro.submittedCol = slices.Index(hdr, "submission_timestamp")
	for i, row := range ro.Rows[1:] {
		if blankRow(row) {
			continue
		}
		if len(row) <= max(login, ro.submittedCol, ident) {
			return &RosterError{Path: path, Code: RosterMalformed, Detail: strings.Join(row, ","), Line: i + 2}
		}
		id := strings.TrimSpace(row[login])
		if id == "" {
			continue // a roster identifier no GitHub account has claimed: nobody to grade
		}
		st := RosterStudent{ID: id, Name: id, Login: id, Submitted: parseClassroomTime(row[ro.submittedCol]), row: i + 1}
		if ident >= 0 {
			st.Display = strings.TrimSpace(row[ident])
		}
		if err := ro.add(path, st); err != nil {
			return err
		}
	}
	return nil
}

// parseClassroomTime reads a submission_timestamp: RFC 3339, or a date and a time with a zone
// ("2026-12-01 20:05:09 UTC", "… +0200"); a time without a zone is UTC, as GitHub keeps its times.
// The zero time when the cell is empty (nothing handed in) or unreadable.
func parseClassroomTime(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05 MST", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 -07:00",
		"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t
		}
	}
	return time.Time{}
}
