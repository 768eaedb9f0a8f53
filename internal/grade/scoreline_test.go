package grade

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// TestFeedbackScoreFirst: the feedback says the score and how it was made (the weights when they
// differ, the late penalty) and the hint that helps most (the transcript written to stderr) under the
// count of cases passed, before the failed cases, in the student's language.
func TestFeedbackScoreFirst(t *testing.T) {
	due := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	cases := []checker.CaseResult{
		{Name: "c1", Visible: true, Status: checker.Pass},
		{Name: "c2", Visible: true, Status: checker.Fail, Want: "ок\n", Stderr: "ок\n", Diff: &checker.Diff{Line: 1, Want: "ок"}},
		{Name: "c3", Status: checker.Fail, Want: "x\n"},
	}
	tests := []struct {
		name    string
		lang    string
		weights []float64
		st      Student
		want    []string // in this order, before the first failed case
	}{
		{"weights alike, no penalty", "ru", []float64{1, 1, 1}, Student{Score: 33.33},
			[]string{"Оценка: 33,33 из 100.", "Что исправить в первую очередь:", "ожидаемый вывод напечатан в stderr"}},
		{"weights differ, late by the LMS's mark", "bg", []float64{1, 1, 2}, Student{Score: 15, Penalty: 10, DaysLate: 1, Late: true},
			[]string{"Оценка: 15 от 100.", "минатите тежат 1 от 4", "отбелязала LMS): наказание −10"}},
		{"late by days", "en", []float64{1, 1, 1}, Student{Score: 13.33, Penalty: 20, DaysLate: 2, Late: true, Submitted: due.Add(30 * time.Hour), TimeFrom: TimeFromZip},
			[]string{"Score: 13.33 of 100.", "2 days after the due date: penalty −20"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &Report{Exercise: "exercise-deadline", Due: due}
			for i, c := range cases {
				rep.Cases = append(rep.Cases, CaseInfo{Name: c.Name, Visible: c.Visible, Weight: tt.weights[i]})
			}
			st := tt.st
			st.Name, st.Lang = "s", tt.lang
			st.Result = &checker.Result{Exercise: "exercise-deadline", Lang: tt.lang, Cases: cases}
			st.Result.Summarize()
			rep.Students = []Student{st}
			var fb bytes.Buffer
			Feedback(&fb, rep, st)
			text := fb.String()
			firstCase := strings.Index(text, "## ✗")
			at := 0
			for _, w := range tt.want {
				k := strings.Index(text, w)
				if k < at || k > firstCase {
					t.Fatalf("%q is not in its place (after %d, before the cases at %d):\n%s", w, at, firstCase, text)
				}
				at = k
			}
		})
	}
}
