package verify

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/lesson"
)

// Targets is what one `workbook verify` checks: lesson files (some read only to compare the other
// language with) and exercises, each with the folder its files are shown from.
//
//	t := verify.NewTargets()
//	err := t.AddPath("lessons/slow-neighbour") // or t.AddCourse(fsys) for the whole course
//	errs := t.CheckRefs()
type Targets struct {
	Files     []lesson.File    // lesson files, some read for parity only
	LoadErrs  lesson.Errors    // problems found while reading them (a missing language)
	Exercises []TargetExercise // exercises, with where their files are shown from
	Lessons   int              // lesson files to check (not those read for parity only)

	seen   map[string]int // lesson file name -> index in Files
	course fs.FS          // the course the default lessons belong to, for their references
}

// TargetExercise is an exercise to verify and the course root its files are shown from ("" for the
// working directory's own course or the embedded one).
type TargetExercise struct {
	Ex      *course.Exercise
	Display string
}

// TargetError is a path verify cannot take. Code names the case, for the message in the user's
// language: "path" (no such file or folder, or unreadable), "not_lesson" (a file that is not bg.md
// or ru.md), "exercise_place" (an exercise folder outside an exercises/ folder), "nothing" (a folder
// with no lesson or exercise in it), or "tool" (the course could not be read; Err says why).
type TargetError struct {
	Code string
	Path string
	Err  error
}

func (e *TargetError) Error() string {
	if e.Err != nil {
		return e.Path + ": " + e.Err.Error()
	}
	return e.Path + ": " + strings.ReplaceAll(e.Code, "_", " ")
}

func (e *TargetError) Unwrap() error { return e.Err }

// NewTargets returns an empty set of targets.
func NewTargets() *Targets { return &Targets{seen: map[string]int{}} }

// FindTargets finds what verify checks: what the paths name (AddPath), or with none the whole
// course in fsys (AddCourse).
func FindTargets(fsys fs.FS, paths []string) (*Targets, error) {
	t := NewTargets()
	if len(paths) == 0 {
		if err := t.AddCourse(fsys); err != nil {
			return nil, err
		}
	}
	for _, p := range paths {
		if err := t.AddPath(p); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// AddCourse adds every lesson and every exercise of the course in fsys, whose lessons' references
// are checked against it.
func (t *Targets) AddCourse(fsys fs.FS) error {
	t.course = fsys
	if err := t.addLessons(fsys, "lessons", "lessons"); err != nil {
		return err
	}
	return t.addExercises(course.New(fsys), "")
}

// addLessons adds every lesson folder under dir of fsys.
func (t *Targets) addLessons(fsys fs.FS, dir, display string) error {
	topics, err := lesson.Topics(fsys, dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, topic := range topics {
		if err := t.addTopic(fsys, path.Join(dir, topic), path.Join(display, topic)); err != nil {
			return err
		}
	}
	return nil
}

func (t *Targets) addTopic(fsys fs.FS, dir, display string) error {
	files, errs, err := lesson.Topic(fsys, dir, display)
	if err != nil {
		return err
	}
	t.LoadErrs = append(t.LoadErrs, errs...)
	for _, f := range files {
		t.addFile(f)
	}
	return nil
}

// addFile adds a lesson file; a file to check replaces the same file read for parity only.
func (t *Targets) addFile(f lesson.File) {
	if i, ok := t.seen[f.Name]; ok {
		if t.Files[i].ParityOnly && !f.ParityOnly {
			t.Files[i] = f
			t.Lessons++
		}
		return
	}
	t.seen[f.Name] = len(t.Files)
	t.Files = append(t.Files, f)
	if !f.ParityOnly {
		t.Lessons++
	}
}

// addExercises adds every exercise of c.
func (t *Targets) addExercises(c *course.Course, display string) error {
	list, err := c.Exercises()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, ex := range list {
		t.Exercises = append(t.Exercises, TargetExercise{Ex: ex, Display: display})
	}
	return nil
}

// AddPath adds what a path of the disk names: a lesson file (with the other language's file beside
// it, read for parity only), a lesson folder, a folder of lessons, an exercise folder, a folder of
// exercises, or the root of a course. A path it cannot take is a *TargetError.
func (t *Targets) AddPath(p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return &TargetError{Code: "path", Path: p}
	}
	if !info.IsDir() {
		return t.addLessonFile(p)
	}
	fsys := os.DirFS(p)
	display := filepath.ToSlash(filepath.Clean(p))
	has := func(name string) bool { _, err := fs.Stat(fsys, name); return err == nil }
	switch {
	case has("exercise.yaml"):
		return t.addExerciseDir(p)
	case has("bg.md") || has("ru.md"):
		return t.addTopic(fsys, ".", display)
	case has("lessons") || has("exercises"):
		before := len(t.Files) + len(t.Exercises)
		if err := t.addLessons(fsys, "lessons", path.Join(display, "lessons")); err != nil {
			return err
		}
		if err := t.addExercises(course.New(fsys), display); err != nil {
			return err
		}
		if len(t.Files)+len(t.Exercises) == before {
			return &TargetError{Code: "nothing", Path: p}
		}
		return nil
	case filepath.Base(filepath.Clean(p)) == "exercises" || hasExercises(fsys):
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		root := filepath.Dir(abs)
		return t.addExercises(course.New(os.DirFS(root)), relDisplay(root))
	}
	before := len(t.Files)
	if err := t.addLessons(fsys, ".", display); err != nil {
		return err
	}
	if len(t.Files) == before {
		return &TargetError{Code: "nothing", Path: p}
	}
	return nil
}

// addLessonFile adds the lesson file p and, for parity, the other language's file beside it.
func (t *Targets) addLessonFile(p string) error {
	base := filepath.Base(p)
	if base != "bg.md" && base != "ru.md" {
		return &TargetError{Code: "not_lesson", Path: p}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return &TargetError{Code: "path", Path: p}
	}
	display := filepath.ToSlash(filepath.Clean(p))
	t.addFile(lesson.File{Name: display, Data: data})
	other := "ru.md"
	if base == "ru.md" {
		other = "bg.md"
	}
	if data, err := os.ReadFile(filepath.Join(filepath.Dir(p), other)); err == nil {
		t.addFile(lesson.File{Name: path.Join(path.Dir(display), other), Data: data, ParityOnly: true})
	}
	return nil
}

// addExerciseDir adds the exercise whose folder is p, which must stand in an exercises/ folder.
func (t *Targets) addExerciseDir(p string) error {
	abs, err := filepath.Abs(p)
	if err != nil || filepath.Base(filepath.Dir(abs)) != "exercises" {
		return &TargetError{Code: "exercise_place", Path: p}
	}
	root := filepath.Dir(filepath.Dir(abs))
	ex, err := course.New(os.DirFS(root)).Exercise(filepath.Base(abs))
	if err != nil {
		return &TargetError{Code: "tool", Path: p, Err: err}
	}
	t.Exercises = append(t.Exercises, TargetExercise{Ex: ex, Display: relDisplay(root)})
	return nil
}

// CheckRefs checks that the exercises and lessons each lesson's front matter names exist in its
// course: the course AddCourse added, or for a lesson on disk at <root>/lessons/<topic>/ the course
// at <root>. A lesson outside such a layout is not checked.
func (t *Targets) CheckRefs() lesson.Errors {
	groups := map[string][]lesson.File{}
	courses := map[string]fs.FS{}
	for _, f := range t.Files {
		key := ""
		if t.course != nil {
			courses[key] = t.course
		} else {
			lessons := filepath.Dir(filepath.Dir(filepath.FromSlash(f.Name)))
			root := filepath.Dir(lessons)
			if filepath.Base(lessons) != "lessons" {
				continue
			}
			if fi, err := os.Stat(filepath.Join(root, "exercises")); err != nil || !fi.IsDir() {
				continue
			}
			key = root
			courses[key] = os.DirFS(root)
		}
		groups[key] = append(groups[key], f)
	}
	var errs lesson.Errors
	for key, files := range groups {
		fsys := courses[key]
		topics, _ := lesson.Topics(fsys, "lessons")
		errs = append(errs, lesson.CheckRefs(files, course.New(fsys).Names(), topics)...)
	}
	return errs
}

// hasExercises reports whether a folder holds exercise folders.
func hasExercises(fsys fs.FS) bool {
	m, _ := fs.Glob(fsys, "*/exercise.yaml")
	return len(m) > 0
}

// relDisplay shows a folder relative to the working directory when it is inside it.
func relDisplay(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return filepath.ToSlash(dir)
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(dir)
	}
	if rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}
