package course

import (
	"io/fs"
	"path"
	"sort"
	"time"

	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/progress"
)

// LessonInfo is what the learner's commands need of a lesson: its topic, title and place in the
// course, read from its front matter alone, and how many quizzes it has, counted when asked.
type LessonInfo struct {
	Topic string
	Title string
	Order int

	file    string // its path in the course, in the language it was read in
	src     []byte
	counted bool
	quizzes int
}

// Quizzes counts the lesson's quizzes, parsing the whole lesson the first time it is asked: most
// commands plan the course without needing it.
func (l *LessonInfo) Quizzes() int {
	if !l.counted {
		l.counted = true
		if ls, _ := lesson.Parse(l.file, l.src); ls != nil {
			l.quizzes = len(ls.Quizzes)
		}
	}
	return l.quizzes
}

// Step is one stop of the course: a lesson with the exercises that follow it.
type Step struct {
	Lesson    *LessonInfo // nil for exercises whose lesson is not in the course
	Exercises []*Exercise
}

// Plan is the course in order: lessons by their order, each followed by its exercises, and last
// the exercises whose lesson is not in the course.
type Plan []Step

// Plan is the course in order, with the lessons read in lang (see Lessons).
func (c *Course) Plan(lang string) (Plan, error) {
	lessons, err := c.Lessons(lang)
	if err != nil {
		return nil, err
	}
	exercises, err := c.Exercises()
	if err != nil {
		return nil, err
	}
	var steps Plan
	index := map[string]int{}
	for i := range lessons {
		index[lessons[i].Topic] = len(steps)
		steps = append(steps, Step{Lesson: &lessons[i]})
	}
	var orphans []*Exercise
	for _, ex := range exercises {
		if i, ok := index[ex.Lesson]; ok {
			steps[i].Exercises = append(steps[i].Exercises, ex)
		} else {
			orphans = append(orphans, ex)
		}
	}
	if len(orphans) > 0 {
		steps = append(steps, Step{Exercises: orphans})
	}
	return steps, nil
}

// Exercises flattens the plan into its exercises, in course order.
func (p Plan) Exercises() []*Exercise {
	var list []*Exercise
	for _, s := range p {
		list = append(list, s.Exercises...)
	}
	return list
}

// Next is the first exercise in course order whose last check did not pass, or nil.
func (p Plan) Next(st *progress.State) *Exercise {
	for _, ex := range p.Exercises() {
		if st.Lookup(ex.Name).Status() != progress.Passed {
			return ex
		}
	}
	return nil
}

// LessonOf is the lesson of the step holding ex, or nil.
func (p Plan) LessonOf(ex *Exercise) *LessonInfo {
	for _, s := range p {
		for _, x := range s.Exercises {
			if x == ex {
				return s.Lesson
			}
		}
	}
	return nil
}

// Begun reports whether the learner has started on a lesson of the plan: opened it, or checked one
// of its exercises.
func (p Plan) Begun(st *progress.State, l *LessonInfo) bool {
	if _, read := st.Lessons[l.Topic]; read {
		return true
	}
	for _, s := range p {
		if s.Lesson != l {
			continue
		}
		for _, ex := range s.Exercises {
			if st.Lookup(ex.Name).Status() != progress.NotStarted {
				return true
			}
		}
	}
	return false
}

// AfterPass is what comes after ex passed: the first exercise not passed yet (nil when the course
// is done) and, when that exercise belongs to another lesson the learner has not begun, that lesson,
// to read first (else nil).
func (p Plan) AfterPass(st *progress.State, ex *Exercise) (next *Exercise, read *LessonInfo) {
	next = p.Next(st)
	if l := p.LessonOf(next); next != nil && l != nil && l != p.LessonOf(ex) && !p.Begun(st, l) {
		return next, l
	}
	return next, nil
}

// OtherLangs is every content language but lang, in course order.
func OtherLangs(lang string) []string {
	var list []string
	for _, l := range lesson.Langs {
		if l != lang {
			list = append(list, l)
		}
	}
	return list
}

// Lessons reads the front matter of every lesson in lang (or another language when a lesson is not
// written in lang yet), in course order. A lesson with problems still gives what could be read:
// `workbook verify` is where authors hear about the problems.
func (c *Course) Lessons(lang string) ([]LessonInfo, error) {
	fsys := c.FS()
	topics, err := lesson.Topics(fsys, "lessons")
	if err != nil {
		return nil, err
	}
	var list []LessonInfo
	for _, topic := range topics {
		for _, l := range append([]string{lang}, OtherLangs(lang)...) {
			name := path.Join("lessons", topic, l+".md")
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				continue
			}
			info := LessonInfo{Topic: topic, Title: topic, file: name, src: data}
			meta := lesson.ReadMeta(data)
			if meta.Title != "" {
				info.Title = meta.Title
			}
			info.Order = meta.Order
			list = append(list, info)
			break
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Order != list[j].Order {
			return list[i].Order < list[j].Order
		}
		return list[i].Topic < list[j].Topic
	})
	return list, nil
}

// StepKind is what the learner should do next.
type StepKind string

const (
	ReadLesson    StepKind = "read"  // read the lesson the next exercise follows
	StartExercise StepKind = "start" // start on the next exercise
	TakeHint      StepKind = "hint"  // ask for a hint: checked twice per hint taken, and failing
	FixExercise   StepKind = "fix"   // keep at the exercise
	TakeQuiz      StepKind = "quiz"  // answer the quizzes of a lesson whose exercises are done
	CourseDone    StepKind = "done"  // nothing left
)

// NextStep is the one thing to do next, with the exercise or the lesson it is about.
type NextStep struct {
	Kind     StepKind
	Exercise *Exercise
	Lesson   *LessonInfo
}

// FirstStep is the course's first step in lang: the next step of a learner who has done nothing yet.
func (p Plan) FirstStep(lang string) NextStep {
	return p.NextStep(progress.New(lang, time.Time{}), lang)
}

// NextStep is the one thing the learner whose progress is st should do next, in this order: read
// the lesson of the next exercise, solve the exercise (check it, then ask for a hint once it has
// failed twice per hint), answer the quizzes of the lessons, and finally celebrate. lang is the
// language whose hints count.
func (p Plan) NextStep(st *progress.State, lang string) NextStep {
	if ex := p.Next(st); ex != nil {
		l := p.LessonOf(ex)
		x := st.Lookup(ex.Name)
		switch {
		case l != nil && !p.Begun(st, l):
			return NextStep{Kind: ReadLesson, Exercise: ex, Lesson: l}
		case x.Status() == progress.NotStarted:
			return NextStep{Kind: StartExercise, Exercise: ex, Lesson: l}
		}
		hints, _ := ex.Hints(lang)
		if x.Hints < len(hints) && x.Checks >= 2*(x.Hints+1) {
			return NextStep{Kind: TakeHint, Exercise: ex, Lesson: l}
		}
		return NextStep{Kind: FixExercise, Exercise: ex, Lesson: l}
	}
	for _, s := range p {
		if s.Lesson == nil {
			continue
		}
		if _, done := st.Quizzes[s.Lesson.Topic]; !done && s.Lesson.Quizzes() > 0 {
			return NextStep{Kind: TakeQuiz, Lesson: s.Lesson}
		}
	}
	return NextStep{Kind: CourseDone}
}
