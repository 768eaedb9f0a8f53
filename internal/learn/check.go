package learn

import (
	"context"
	"fmt"
	"io"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/report"
)

// CheckRequest is one check of a learner's program.
type CheckRequest struct {
	Exercise *course.Exercise
	Dir      string         // the folder of the program
	Limits   checker.Limits // the learner's limits (a run's time); the exercise adds its own
	Parallel int            // cases run at once; 0: the checker's default
	// Seed, when not 0, draws the drawn cases of an earlier check (Result.Seed) again and shows them
	// in full; 0 draws afresh.
	Seed uint64
	// Mine says Dir is the learner's own folder for Exercise in the place: the verdict is recorded
	// and what comes next is said. A check of any other folder is reported and forgotten.
	Mine bool
}

// Checked is a check as every front end tells it: the verdict, what was kept, what comes next.
type Checked struct {
	Exercise *course.Exercise
	Result   *checker.Result
	Limits   checker.Limits  // the learner's limits it ran under (the report states the time limit)
	Recorded bool            // the verdict was kept in the learner's progress
	KeptPass bool            // a failing check of the pristine starter kept an earlier pass (progress.State.RecordCheck)
	Status   progress.Status // the exercise's status afterwards: passed or failing
	// Next is what to do next: after a pass that was recorded, the first exercise of the course not
	// passed yet (StartExercise), with the lesson it needs when that is another lesson not begun
	// (ReadLesson), or CourseDone; after a failure, TakeHint when the exercise has hints. The zero
	// Kind: nothing to suggest.
	Next course.NextStep
}

// Check checks the program of req.Dir against the exercise's cases in the session's content
// language (course.Exercise.CheckSeeded: its own cases and a few drawn afresh, the other language's
// transcript named, advice on the code), case titles in the message language; records the verdict
// when the folder is the learner's own; and decides what comes next. A check cut short by ctx
// returns ctx.Err(); one the checker could not make, a *course.ToolError; a progress file that
// cannot be written, the error with the Checked (the check itself is done).
func (s *Session) Check(ctx context.Context, req CheckRequest) (*Checked, error) {
	ex := req.Exercise
	o := checker.Options{Lang: s.Lang, UILang: s.UI.Lang(), Limits: req.Limits, Parallel: req.Parallel}
	res, err := ex.CheckSeeded(ctx, req.Dir, o, req.Seed)
	if err != nil {
		return nil, err
	}
	c := &Checked{Exercise: ex, Result: res, Limits: req.Limits, Status: progress.Failing}
	if res.Verdict == checker.Pass {
		c.Status = progress.Passed
	}
	var st *progress.State
	if req.Mine && s.Place != nil {
		starter := res.Verdict != checker.Pass && s.Place.Pristine != nil && s.Place.Pristine(ex, s.Lang)
		st, err = s.Update(func(st *progress.State) error {
			c.KeptPass = st.RecordCheck(s.Lang, ex.Name, string(res.Verdict), starter, s.now())
			return nil
		})
		if err != nil {
			return c, err
		}
		c.Recorded = true
		if c.KeptPass {
			c.Status = progress.Passed
		}
	}
	c.Next = s.afterCheck(ex, res.Verdict == checker.Pass, st)
	return c, nil
}

// afterCheck is what comes after a check of ex (see Checked.Next); st is the progress it was
// recorded in, nil when it was not.
func (s *Session) afterCheck(ex *course.Exercise, passed bool, st *progress.State) course.NextStep {
	if !passed {
		if hints, _ := ex.Hints(s.Lang); len(hints) > 0 {
			return course.NextStep{Kind: course.TakeHint, Exercise: ex}
		}
		return course.NextStep{}
	}
	if st == nil {
		return course.NextStep{}
	}
	steps, err := s.Course.Plan(s.Lang)
	if err != nil {
		return course.NextStep{}
	}
	switch next, l := steps.AfterPass(st, ex); {
	case next == nil:
		return course.NextStep{Kind: course.CourseDone}
	case l != nil:
		return course.NextStep{Kind: course.ReadLesson, Exercise: next, Lesson: l}
	default:
		return course.NextStep{Kind: course.StartExercise, Exercise: next, Lesson: steps.LessonOf(next)}
	}
}

// Look is how a front end shows a report: in colour (ANSI, which the browser turns into HTML), and
// with the outputs side by side.
type Look struct {
	Color      bool
	SideBySide bool
}

// Report writes the check's report for a person, the same in every front end: the exercise's title,
// every case (passed ones too), identical failures grouped, the time limit stated with a case that
// did not finish, hidden cases by their titles alone, and under a failed drawn case the command
// that draws it again.
func (s *Session) Report(w io.Writer, c *Checked, look Look) {
	// The result whole: report.Text shows a hidden case by its title alone, and groups identical
	// failures by what the programs printed.
	res := c.Result
	opt := report.Options{Color: look.Color, Title: c.Exercise.Title(s.Lang), ShowPass: true, Group: true,
		TimeLimit: c.Limits.RunTime}
	if res.Seed != 0 {
		opt.Replay = s.UI.Rewrite(fmt.Sprintf("workbook check %s --seed %d", c.Exercise.Name, res.Seed))
	}
	report.Text(w, res, s.UI, opt)
	if look.SideBySide {
		report.SideBySide(w, res, s.UI, opt)
	}
}

// Says is what a check says after its report, in the message language, one sentence a line, the
// commands it suggests put through the printer's rewrite (i18n.Printer.Rewriting: as they run
// where the learner is): that a pass was kept, then what to do next.
func (s *Session) Says(c *Checked) []string {
	var lines []string
	if c.KeptPass {
		lines = append(lines, s.UI.T("check_starter_kept_pass", "Name", c.Exercise.Name))
	}
	if line := s.NextText(c.Next); line != "" {
		lines = append(lines, line)
	}
	return lines
}

// NextText is the sentence that suggests step after a check, "" for none.
func (s *Session) NextText(n course.NextStep) string {
	switch n.Kind {
	case course.CourseDone:
		return s.UI.T("next_after_pass_all")
	case course.ReadLesson:
		return s.UI.T("next_after_pass_lesson", "Title", n.Lesson.Title, "Topic", n.Lesson.Topic, "Name", n.Exercise.Name)
	case course.StartExercise:
		return s.UI.T("next_after_pass", "Title", n.Exercise.Title(s.Lang), "Name", n.Exercise.Name)
	case course.TakeHint:
		return s.UI.T("next_hint", "Name", n.Exercise.Name)
	}
	return ""
}
