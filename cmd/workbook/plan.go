package main

import (
	"io/fs"
	"path"
	"sort"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/progress"
)

// lessonInfo is what the learner's commands need of a lesson: its topic, title and place in the
// course, read from its front matter alone, and how many quizzes it has, counted when asked.
type lessonInfo struct {
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
func (l *lessonInfo) Quizzes() int {
	if !l.counted {
		l.counted = true
		if ls, _ := lesson.Parse(l.file, l.src); ls != nil {
			l.quizzes = len(ls.Quizzes)
		}
	}
	return l.quizzes
}

// step is one stop of the course: a lesson with the exercises that follow it.
type step struct {
	Lesson    *lessonInfo // nil for exercises whose lesson is not in the course
	Exercises []*course.Exercise
}

// plan is the course in order: lessons by their order, each followed by its exercises.
func (e *env) plan(lang string) ([]step, error) {
	lessons, err := e.lessons(lang)
	if err != nil {
		return nil, err
	}
	exercises, err := e.course.Exercises()
	if err != nil {
		return nil, err
	}
	var steps []step
	index := map[string]int{}
	for i := range lessons {
		index[lessons[i].Topic] = len(steps)
		steps = append(steps, step{Lesson: &lessons[i]})
	}
	var orphans []*course.Exercise
	for _, ex := range exercises {
		if i, ok := index[ex.Lesson]; ok {
			steps[i].Exercises = append(steps[i].Exercises, ex)
		} else {
			orphans = append(orphans, ex)
		}
	}
	if len(orphans) > 0 {
		steps = append(steps, step{Exercises: orphans})
	}
	return steps, nil
}

// exercisesInOrder flattens a plan into its exercises.
func exercisesInOrder(steps []step) []*course.Exercise {
	var list []*course.Exercise
	for _, s := range steps {
		list = append(list, s.Exercises...)
	}
	return list
}

// nextExercise is the first exercise in course order whose last check did not pass, or nil.
func nextExercise(steps []step, st *progress.State) *course.Exercise {
	for _, ex := range exercisesInOrder(steps) {
		if st.Lookup(ex.Name).Status() != progress.Passed {
			return ex
		}
	}
	return nil
}

// lessonOf returns the lesson of the step holding ex.
func lessonOf(steps []step, ex *course.Exercise) *lessonInfo {
	for _, s := range steps {
		for _, x := range s.Exercises {
			if x == ex {
				return s.Lesson
			}
		}
	}
	return nil
}

// lessons reads the front matter of every lesson in lang (or the other language when a lesson is
// not written in lang yet), in course order. A lesson with problems still gives what could be read:
// `workbook verify` is where authors hear about the problems.
func (e *env) lessons(lang string) ([]lessonInfo, error) {
	fsys := e.course.FS()
	topics, err := lesson.Topics(fsys, "lessons")
	if err != nil {
		return nil, err
	}
	var list []lessonInfo
	for _, topic := range topics {
		for _, l := range append([]string{lang}, otherLangs(lang)...) {
			name := path.Join("lessons", topic, l+".md")
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				continue
			}
			info := lessonInfo{Topic: topic, Title: topic, file: name, src: data}
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
