package grade

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// DefaultSeed is the seed of the drawn cases when the instructor gives none: fixed, so that the same
// program graded again gets the same grade, and written in results.json (Report.Seed).
const DefaultSeed uint64 = 1

// Options are what the instructor asked for (cmd/workbook/grade.go reads them from the flags);
// NewJob turns them into a Job.
type Options struct {
	Exercise *course.Exercise
	Course   fs.FS  // the course's content: starters, solutions, hints
	Fallback string // the content language when a program does not say
	Tests    string // the instructor's cases folder ("" for none)
	RunTime  time.Duration
	Jobs     int
	Only     string
	Force    bool
	Shard    Shard
	Seed     uint64
	Lang     string // the class's content language ("" tells each student's)
	Late     Late
	Roster   string // the LMS's export as the roster ("" for none)
	// Assignment chooses the roster's column (Canvas: the assignment's id or title).
	Assignment string
	MoodleLang string // the language of the Moodle worksheet's titles written without a roster
	Read       ReadLimits
	// CopyThreshold is the similarity every two students of a copy group reach (0: the default).
	CopyThreshold float64
}

// Errors of NewJob the instructor reads as such (besides *CaseError and *RosterError).
var (
	ErrTestsDir   = errors.New("the tests folder is missing")
	ErrTestsEmpty = errors.New("the tests folder holds no cases")
	ErrMoodleLang = errors.New("no Moodle worksheet titles in this language")
)

// TestsError is a case folder that cannot be read, or a case whose name is taken.
type TestsError struct {
	Dir, Name string // Name is set for a name taken twice
	Err       error
}

func (e *TestsError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("%s: the case %s is there twice", e.Dir, e.Name)
	}
	return fmt.Sprintf("%s: %v", e.Dir, e.Err)
}

func (e *TestsError) Unwrap() error { return e.Err }

// NewJob builds the grading of an exercise: its cases and the instructor's (checked against the
// reference solutions first: a case they do not pass would be charged to every student), the
// starters, solutions and hints for copy detection, the drawn cases seeded per class and exercise,
// and the roster. An error means nothing was graded.
func NewJob(ctx context.Context, o Options) (*Job, error) {
	ex := o.Exercise
	cases, err := ex.Cases()
	if err != nil {
		return nil, err
	}
	job := &Job{Exercise: ex.Name, Titles: ex.Titles, Fallback: o.Fallback, Limits: ex.Limits(checker.Limits{RunTime: o.RunTime}),
		Jobs: o.Jobs, Only: o.Only, Force: o.Force, Shard: o.Shard, Late: o.Late, Lang: o.Lang, TestsFrom: map[string]bool{}, CopyThreshold: o.CopyThreshold,
		Seed: o.Seed, MoodleLang: o.MoodleLang, Read: o.Read}
	if job.MoodleLang == "" {
		job.MoodleLang = "en"
	}
	var extra []checker.Case
	if o.Tests != "" {
		if extra, err = InstructorCases(o.Tests, cases); err != nil {
			return nil, err
		}
		for _, c := range extra {
			job.TestsFrom[c.Name] = true
		}
	}
	job.Cases = append(cases, extra...)
	job.setDraw(ex, o.Seed)
	job.readCourse(ex, o.Course)
	job.Others = otherCases(o.Course, ex)
	if o.Roster != "" {
		titles := []string{ex.Name}
		for _, t := range ex.Titles {
			titles = append(titles, t)
		}
		if job.Roster, err = ReadRoster(o.Roster, o.Assignment, titles); err != nil {
			return nil, err
		}
		if err := checkAssignment(o.Course, ex, job.Roster); err != nil {
			return nil, err
		}
	} else if !validMoodleLang(job.MoodleLang) {
		return nil, fmt.Errorf("%w: %s", ErrMoodleLang, job.MoodleLang)
	}
	if err := CheckCases(ctx, job.Exercise, job.Solutions, extra, job.Limits); err != nil {
		return nil, err
	}
	return job, nil
}

func validMoodleLang(l string) bool {
	for _, x := range MoodleLangs {
		if x == l {
			return true
		}
	}
	return false
}

// DrawSeed is the seed of an exercise's drawn cases in a class graded with seed: one for the whole
// class, so that two students with the same program get the same cases and the same grade.
func DrawSeed(seed uint64, exercise string) uint64 {
	return course.StudentSeed(seed, "class\x00"+exercise)
}

// setDraw gives the job the exercise's drawn cases, if it has any. They are drawn with one seed for
// the class, so every student of a language gets the same cases: they are drawn (and the reference
// solution run for their expected output) once per language, not once per student.
func (j *Job) setDraw(ex *course.Exercise, seed uint64) {
	if ex.Generate == nil {
		return
	}
	j.DrawCount = ex.Generate.CaseCount()
	s := DrawSeed(seed, ex.Name)
	type entry struct {
		mu sync.Mutex
		d  *Drawn
	}
	var mu sync.Mutex
	byLang := map[string]*entry{}
	j.Draw = func(ctx context.Context, _, lang string) (*Drawn, error) {
		mu.Lock()
		e := byLang[lang]
		if e == nil {
			e = &entry{}
			byLang[lang] = e
		}
		mu.Unlock()
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.d == nil {
			cs, drawn, err := ex.DrawnCases(ctx, s, lang)
			if err != nil {
				return nil, err // not kept: a cancelled draw is drawn again
			}
			d := &Drawn{Seed: s, Cases: cs}
			for _, x := range drawn {
				d.Args = append(d.Args, x.Args)
			}
			e.d = d
		}
		d := &Drawn{Seed: e.d.Seed, Cases: slices.Clone(e.d.Cases)}
		for _, a := range e.d.Args {
			d.Args = append(d.Args, slices.Clone(a))
		}
		return d, nil
	}
}

// readCourse reads the exercise's starters, solutions and hints in every language.
func (j *Job) readCourse(ex *course.Exercise, fsys fs.FS) {
	for _, l := range course.Langs {
		if s, err := ReadSource(fsys, ex.StarterDir(l), l); err == nil && len(s.Files) > 0 {
			j.Starters = append(j.Starters, s)
		}
		if s, err := ReadSource(fsys, ex.SolutionDir(l), l); err == nil && len(s.Files) > 0 {
			j.Solutions = append(j.Solutions, s)
		}
		if hints, err := ex.Hints(l); err == nil {
			j.Hints = append(j.Hints, HintCode(strings.Join(hints, "\n\n"), l)...)
		}
	}
	j.Hints = append(j.Hints, courseCode(fsys, ex.Name)...) // the rest of the course's code: nobody's own either
}

// InstructorCases reads the instructor's cases from dir: *.txtar and hidden/*.txtar are hidden,
// visible/*.txtar are shown in feedback like the exercise's visible cases. A name that one of have
// (or another of dir's) already has is refused.
func InstructorCases(dir string, have []checker.Case) ([]checker.Case, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, &TestsError{Dir: dir, Err: ErrTestsDir}
	}
	fsys := os.DirFS(dir)
	var all []checker.Case
	for _, g := range []struct {
		sub     string
		visible bool
	}{{"visible", true}, {".", false}, {"hidden", false}} {
		cs, err := checker.LoadCaseDir(fsys, g.sub, g.visible)
		if err != nil {
			return nil, &TestsError{Dir: dir, Err: err}
		}
		all = append(all, cs...)
	}
	if len(all) == 0 {
		return nil, &TestsError{Dir: dir, Err: ErrTestsEmpty}
	}
	names := map[string]bool{}
	for _, c := range have {
		names[c.Name] = true
	}
	for _, c := range all {
		if names[c.Name] {
			return nil, &TestsError{Dir: dir, Name: c.Name}
		}
		names[c.Name] = true
	}
	return all, nil
}
