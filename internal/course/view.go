package course

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/tty"
)

// View writes the course's plan and a learner's progress in it for a terminal, in UI's language
// (workbook list, progress and the home screen; the web's pages are its twin).
type View struct {
	W     io.Writer
	UI    *i18n.Printer
	Paint tty.Paint
}

// List writes the course in order: each lesson, then its exercises with their status in st, their
// difficulty and estimated time, titled in lang.
func (v View) List(steps Plan, st *progress.State, lang string) {
	nameWidth := 0
	for _, ex := range steps.Exercises() {
		nameWidth = max(nameWidth, len(ex.Name))
	}
	for i, s := range steps {
		if i > 0 {
			fmt.Fprintln(v.W)
		}
		if s.Lesson != nil {
			mark := v.Paint.Dim("·")
			if _, read := st.Lessons[s.Lesson.Topic]; read {
				mark = v.Paint.Green("✓")
			}
			line := fmt.Sprintf("%s %s", mark, v.Paint.Bold(v.UI.T("list_lesson", "N", i+1, "Title", s.Lesson.Title)))
			if q := st.Quizzes[s.Lesson.Topic]; q != nil {
				line += "  " + v.Paint.Dim(v.UI.T("list_quiz", "Score", v.UI.N("quiz_score", q.Best, "Total", q.Total)))
			}
			fmt.Fprintln(v.W, line)
			fmt.Fprintln(v.W, "    "+v.Paint.Dim("workbook lesson "+s.Lesson.Topic))
		} else {
			fmt.Fprintln(v.W, v.Paint.Bold(v.UI.T("list_other")))
		}
		for _, ex := range s.Exercises {
			status := st.Lookup(ex.Name).Status()
			facts := []string{v.statusText(status)}
			if d := v.difficulty(ex); d != "" {
				facts = append(facts, d)
			}
			if ex.Minutes > 0 {
				facts = append(facts, v.UI.T("list_minutes", "Minutes", ex.Minutes))
			}
			fmt.Fprintf(v.W, "  %s %s  %s\n", v.statusMark(status), pad(ex.Name, nameWidth), ex.Title(lang))
			fmt.Fprintf(v.W, "    %s  %s\n", strings.Repeat(" ", nameWidth), v.Paint.Dim(strings.Join(facts, " · ")))
		}
	}
}

// Exercises writes when the learner started and every exercise in course order with its
// status, checks and hints.
func (v View) Exercises(steps Plan, st *progress.State, now time.Time) {
	w := v.W
	list := steps.Exercises()
	passed, nameWidth := 0, 0
	for _, ex := range list {
		if st.Lookup(ex.Name).Status() == progress.Passed {
			passed++
		}
		nameWidth = max(nameWidth, len(ex.Name))
	}
	fmt.Fprintln(w, v.Paint.Bold(v.UI.T("progress_started", "Since", v.Since(st.Started, now), "Date", st.Started.Local().Format("2006-01-02"))))
	fmt.Fprintln(w)
	fmt.Fprintln(w, v.Paint.Bold(v.UI.N("home_passed", passed, "Total", len(list))))
	for _, ex := range list {
		x := st.Lookup(ex.Name)
		status := x.Status()
		line := fmt.Sprintf("  %s %s  %s", v.statusMark(status), pad(ex.Name, nameWidth), v.statusText(status))
		var facts []string
		if x != nil && x.Checks > 0 {
			facts = append(facts, v.UI.N("progress_checks", x.Checks))
		}
		if x != nil && x.Hints > 0 {
			facts = append(facts, v.UI.N("progress_hints", x.Hints))
		}
		if x != nil && x.SolutionSeen {
			facts = append(facts, v.UI.T("progress_solution_seen"))
		}
		if len(facts) > 0 {
			line += " (" + strings.Join(facts, ", ") + ")"
		}
		fmt.Fprintln(w, line)
	}
}

// Quizzes writes the score of every lesson's quiz taken, and the quizzes not taken yet.
func (v View) Quizzes(steps Plan, st *progress.State) {
	w := v.W
	fmt.Fprintln(w, v.Paint.Bold(v.UI.T("progress_quizzes")))
	any := false
	for _, s := range steps {
		if s.Lesson == nil {
			continue
		}
		q := st.Quizzes[s.Lesson.Topic]
		if q == nil {
			if s.Lesson.Quizzes() > 0 {
				fmt.Fprintln(w, "  "+v.Paint.Dim("·")+" "+v.UI.T("progress_quiz_none", "Title", s.Lesson.Title, "Topic", s.Lesson.Topic))
				any = true
			}
			continue
		}
		any = true
		line := v.UI.T("progress_quiz_once", "Title", s.Lesson.Title, "Score", v.UI.N("quiz_score", q.Last, "Total", q.Total))
		if q.Best != q.Last {
			line = v.UI.T("progress_quiz", "Title", s.Lesson.Title,
				"Score", v.UI.N("quiz_score", q.Last, "Total", q.Total),
				"Best", v.UI.N("quiz_score", q.Best, "Total", q.Total))
		}
		fmt.Fprintln(w, "  "+v.quizMark(q)+" "+line)
	}
	if !any {
		fmt.Fprintln(w, "  "+v.UI.T("progress_no_quizzes"))
	}
}

func (v View) quizMark(q *progress.Quiz) string {
	if q.Best == q.Total {
		return v.Paint.Green("✓")
	}
	return v.Paint.Yellow("~")
}

// statusMark is the one-character mark of an exercise's status, coloured.
func (v View) statusMark(s progress.Status) string {
	switch s {
	case progress.Passed:
		return v.Paint.Green("✓")
	case progress.Failing:
		return v.Paint.Red("✗")
	}
	return v.Paint.Dim("·")
}

// statusText names an exercise's status in the user's language.
func (v View) statusText(s progress.Status) string { return v.UI.T("ex_status_" + string(s)) }

// difficulty names an exercise's difficulty (1 easy, 2 medium, 3 hard).
func (v View) difficulty(ex *Exercise) string {
	switch {
	case ex.Difficulty <= 0:
		return ""
	case ex.Difficulty == 1:
		return v.UI.T("difficulty_easy")
	case ex.Difficulty == 2:
		return v.UI.T("difficulty_medium")
	}
	return v.UI.T("difficulty_hard")
}

// Since says how long ago t was, in whole minutes, hours or days.
func (v View) Since(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return v.UI.T("ago_now")
	case d < time.Hour:
		return v.UI.N("ago_minutes", int(d/time.Minute))
	case d < 24*time.Hour:
		return v.UI.N("ago_hours", int(d/time.Hour))
	}
	return v.UI.N("ago_days", int(d/(24*time.Hour)))
}

// pad right-pads s with spaces to width columns (counting runes, which is right for the names and
// Cyrillic titles printed here).
func pad(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}
