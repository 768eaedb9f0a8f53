// Package gradebook joins the reports of several exercises of a course (each a folder that
// `workbook grade` wrote, with its results.json) into a semester's gradebook: a row per student, a
// column per exercise in the course's order, and a weighted total.
//
//	workbook grade book week1 week2 week3 --out book [--weights weights.toml]
//
// Students are joined by the identity their LMS gave (internal/grade's Student.Layout and ID), never
// by a name a student typed: Canvas's user id, GitHub Classroom's login, and for Moodle, whose
// participant ids are each assignment's own, the email address of the grading worksheet given as
// --roster, or the ID number or the username when the worksheets show that and no email (without
// any, the full name Moodle shows, refused when two students of a report share it). Students graded without an LMS are joined by their submission's name.
//
// Build reads and checks everything first; any fault (a folder without a report, a report of an
// exercise the course does not have or of one shard, two reports of one exercise, reports of
// different LMSes or classes, students the tool could not grade, a Canvas column that is another
// exercise's, a weights file that does not fit) is an *Error and nothing is written. Write then
// writes the gradebook's files into a new folder beside the output and swaps it in whole:
//
//   - grades.csv: student, LMS id, a score per exercise, the total (in the instructor's language's
//     spreadsheet style, as grade's own grades.csv);
//   - canvas.csv (Canvas classes): Canvas's gradebook import, a column per assignment "Title (id)",
//     the Points Possible row second;
//   - moodle.csv (Moodle classes): a gradebook import (Grades → Import → CSV file), its students
//     found by the identity the grading worksheets show ("Email address", "ID number" or
//     "Username"), a column per exercise whose title says its scale, grades in points out of each
//     assignment's maximum (Moodle refuses the whole import over one grade above it); students the
//     worksheets give no such identity for are left out, and said;
//   - book.html: the class × exercise table, in the instructor's language;
//   - summaries/<student>.md: each student's course summary in the student's own language;
//   - gradebook.json: the gradebook as data, which also marks the folder as a gradebook's.
//
// The weights file is TOML, one exercise per key (`exercise-retry = 2`); without it every exercise
// weighs 1. With it, every exercise of the reports must be given a weight of zero or more, and
// their sum must be above zero. The total is the weighted mean of the scores (percent), a student
// without a row in an exercise's report counting 0 for it.
package gradebook

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/grade"
)

// Book is a semester's gradebook.
type Book struct {
	Layout    string   `json:"layout,omitempty"` // the classes' LMS layout (grade.LayoutCanvas, …), "" for none
	Exercises []Column `json:"exercises"`        // in the course's order
	Students  []Row    `json:"students"`         // by name
	Mean      float64  `json:"mean"`             // the class's mean total
	Weighted  bool     `json:"weighted"`         // weights came from a file
	// MoodleIdentity is what moodle.csv finds each student by in Moodle's grade import (one of
	// grade.IdentityKinds): the identity the grading worksheets show for the most students; ""
	// when they show none.
	MoodleIdentity string `json:"moodle_identity,omitempty"`
	reports        []*grade.Report
}

// Column is one exercise of the gradebook.
type Column struct {
	Exercise string            `json:"exercise"`
	Titles   map[string]string `json:"titles"`
	Weight   float64           `json:"weight"`
	Report   string            `json:"report"` // the folder its report came from
	// Assignment is the Canvas column it was graded for ("Title (id)"), AssignmentID its id and
	// Points the assignment's points possible, when the class came with a Canvas roster.
	Assignment   string `json:"assignment,omitempty"`
	AssignmentID string `json:"assignment_id,omitempty"`
	Points       string `json:"points,omitempty"`
	// MaxGrade is the Moodle assignment's maximum grade, when the class came with its grading
	// worksheet: moodle.csv gives grades in points out of it, as Moodle's import takes them.
	MaxGrade string  `json:"max_grade,omitempty"`
	Mean     float64 `json:"mean"` // the class's mean score in it
}

// Title is the exercise's title in lang, or in another language of the course, or its name.
func (c Column) Title(lang string) string {
	for _, l := range []string{lang, "ru", "bg"} {
		if t := c.Titles[l]; t != "" {
			return t
		}
	}
	return c.Exercise
}

// Row is one student of the gradebook.
type Row struct {
	Key     string  `json:"key"`               // the identity the row is joined by
	Name    string  `json:"student"`           // the student's name as the first report has it
	Display string  `json:"display,omitempty"` // the name the LMS shows
	ID      string  `json:"lms_id,omitempty"`  // Canvas's user id, GitHub's login, Moodle's email
	Lang    string  `json:"lang"`              // the language of the student's programs (of the last exercise graded)
	Cells   []Cell  `json:"cells"`             // one per Column
	Total   float64 `json:"total"`             // the weighted mean of the scores, two decimals
	// Summary is the name of the student's file under summaries/.
	Summary string `json:"summary"`
	// Moodle is the student's identities that Moodle's grade import can find them by, by kind
	// (grade.IdentityKinds), from every exercise's grading worksheet.
	Moodle map[string]string `json:"moodle,omitempty"`
	// Rows of the LMS's file to fill in (Canvas: the roster's cells of the student).
	canvas []string
}

// Cell is a student's result in one exercise.
type Cell struct {
	Graded  bool    `json:"graded"`           // the exercise's report has the student
	Status  string  `json:"status,omitempty"` // grade.StatusPass, …
	Score   float64 `json:"score"`
	Passed  int     `json:"passed,omitempty"`
	Total   int     `json:"total,omitempty"`
	Late    bool    `json:"late,omitempty"`
	Penalty float64 `json:"penalty,omitempty"`
}

// Error says why reports cannot make a gradebook; Code is a machine code (the message ID's suffix
// book_err_CODE) and the other fields name what is at fault.
type Error struct {
	Code    string // no_report, bad_report, shard, unknown_exercise, same_exercise, mixed_lms, mixed_classes, ambiguous, anonymous, tool_errors, other_column, same_assignment, weights_*
	Report  string
	Detail  string
	Student string
}

func (e *Error) Error() string {
	parts := []string{"gradebook: " + e.Code}
	for _, s := range []string{e.Report, e.Student, e.Detail} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ": ")
}

// Build reads the reports in dirs (report folders, or their results.json), checks that they make
// one class's gradebook of the course in fsys, and joins them; weights is the weights file, "" for
// equal weights.
func Build(fsys fs.FS, dirs []string, weights string) (*Book, error) {
	if len(dirs) == 0 {
		return nil, &Error{Code: "no_report"}
	}
	order, err := courseOrder(fsys)
	if err != nil {
		return nil, err
	}
	b := &Book{}
	seen := map[string]string{}
	for _, dir := range dirs {
		rep, err := readReport(dir)
		if err != nil {
			return nil, err
		}
		if _, ok := order[rep.Exercise]; !ok {
			return nil, &Error{Code: "unknown_exercise", Report: dir, Detail: rep.Exercise}
		}
		if prev, dup := seen[rep.Exercise]; dup {
			return nil, &Error{Code: "same_exercise", Report: dir, Detail: prev}
		}
		seen[rep.Exercise] = dir
		if rep.Shard != "" {
			return nil, &Error{Code: "shard", Report: dir, Detail: rep.Shard}
		}
		if rep.Summary.Tool > 0 {
			return nil, &Error{Code: "tool_errors", Report: dir, Detail: fmt.Sprint(rep.Summary.Tool)}
		}
		b.Exercises = append(b.Exercises, column(rep, dir))
		b.reports = append(b.reports, rep)
	}
	// The course's order: columns and reports together.
	idx := make([]int, len(b.Exercises))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return order[b.Exercises[idx[i]].Exercise] < order[b.Exercises[idx[j]].Exercise] })
	cols, reps := make([]Column, len(idx)), make([]*grade.Report, len(idx))
	for k, i := range idx {
		cols[k], reps[k] = b.Exercises[i], b.reports[i]
	}
	b.Exercises, b.reports = cols, reps
	if err := b.checkCanvas(fsys); err != nil {
		return nil, err
	}
	if err := b.setWeights(weights); err != nil {
		return nil, err
	}
	if err := b.join(); err != nil {
		return nil, err
	}
	b.totals()
	return b, nil
}

// courseOrder is each exercise's place in the course.
func courseOrder(fsys fs.FS) (map[string]int, error) {
	exs, err := course.New(fsys).Exercises()
	if err != nil {
		return nil, err
	}
	order := map[string]int{}
	for i, ex := range exs {
		order[ex.Name] = i
	}
	return order, nil
}

// readReport reads a report folder's results.json (or the file itself).
func readReport(dir string) (*grade.Report, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, &Error{Code: "no_report", Report: dir}
	}
	if !fi.IsDir() {
		if filepath.Base(dir) != grade.ResultsFile {
			return nil, &Error{Code: "no_report", Report: dir}
		}
		dir = filepath.Dir(dir)
	}
	rep, err := grade.ReadReport(dir)
	if err != nil {
		var me *grade.MergeError
		if errorsAs(err, &me) {
			return nil, &Error{Code: "no_report", Report: dir}
		}
		return nil, &Error{Code: "bad_report", Report: dir, Detail: err.Error()}
	}
	if rep.Exercise == "" || rep.Version == 0 {
		return nil, &Error{Code: "bad_report", Report: dir, Detail: grade.ResultsFile}
	}
	return rep, nil
}

// column is a report's exercise as a column of the gradebook.
func column(rep *grade.Report, dir string) Column {
	c := Column{Exercise: rep.Exercise, Titles: rep.Titles, Weight: 1, Report: dir, Mean: rep.Summary.MeanScore, MaxGrade: rep.Roster.MaxGrade()}
	if ro := rep.Roster; ro != nil && ro.Layout == grade.LayoutCanvas && ro.Assignment != "" {
		c.Assignment = ro.Assignment
		if r, err := ro.Roster(); err == nil {
			c.AssignmentID, c.Points = r.AssignmentID, r.PointsPossible
		}
	}
	return c
}

// checkCanvas refuses a Canvas column that is titled after another exercise of the course than the
// one graded for it, and an assignment graded for two exercises.
func (b *Book) checkCanvas(fsys fs.FS) error {
	ids := map[string]string{}
	for _, c := range b.Exercises {
		if c.Assignment == "" {
			continue
		}
		if other := grade.ColumnExercise(fsys, c.Assignment); other != "" && other != c.Exercise {
			return &Error{Code: "other_column", Report: c.Report, Detail: c.Assignment}
		}
		key := c.AssignmentID
		if key == "" {
			key = c.Assignment
		}
		if prev, dup := ids[key]; dup {
			return &Error{Code: "same_assignment", Report: c.Report, Detail: c.Assignment + " — " + prev}
		}
		ids[key] = c.Report
	}
	return nil
}

// totals works out each student's weighted total and the class's mean.
func (b *Book) totals() {
	sum := 0.0
	for _, c := range b.Exercises {
		sum += c.Weight
	}
	all := 0.0
	for i := range b.Students {
		r := &b.Students[i]
		t := 0.0
		for k, c := range r.Cells {
			t += c.Score * b.Exercises[k].Weight
		}
		r.Total = math.Round(t/sum*100) / 100
		all += r.Total
	}
	if len(b.Students) > 0 {
		b.Mean = math.Round(all/float64(len(b.Students))*100) / 100
	}
}
