// Package course reads the course out of its files: the exercises with their metadata, statements,
// hints, starters, solutions and cases, in each language.
//
//	c := course.New(workbook.Content())
//	ex, err := c.Exercise("exercise-deadline")
//	cases, err := ex.Cases()
//
// The files are laid out as exercises/README.md describes; course.New works on any fs.FS with that
// layout, the embedded one or a folder on disk.
//
// course is the content model and what a learner's commands do with it (check one program, build it
// to run by hand, draw cases, plan the course, show it); the author's verification of the content
// (workbook verify: every program's verdict, the mutation analysis of the cases, its cache) is
// package verify.
package course

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/gencase"
)

// Langs are the content languages, in the order they are offered.
var Langs = []string{"bg", "ru"}

// Course is the course content in a file system.
type Course struct {
	fsys fs.FS
}

// New returns the course stored in fsys.
func New(fsys fs.FS) *Course { return &Course{fsys: fsys} }

// FS returns the file system the course is read from.
func (c *Course) FS() fs.FS { return c.fsys }

// Exercise is one exercise of the course.
type Exercise struct {
	Name       string            `yaml:"-"`
	Order      int               `yaml:"order"`
	Lesson     string            `yaml:"lesson"`
	Difficulty int               `yaml:"difficulty"`
	Minutes    int               `yaml:"minutes"`
	Titles     map[string]string `yaml:"title"`
	Generate   *gencase.Spec     `yaml:"generate"` // how to draw valid arguments, if the exercise says
	// Time is "virtual" for an exercise whose program runs in virtual time (see checker.Limits.Virtual),
	// "" for one that runs in real time.
	Time   string `yaml:"time"`
	course *Course
}

// ErrUnknownExercise is returned (wrapped) for a name that is not an exercise of the course.
var ErrUnknownExercise = errors.New("unknown exercise")

// Exercises returns every exercise in course order.
func (c *Course) Exercises() ([]*Exercise, error) {
	entries, err := fs.ReadDir(c.fsys, "exercises")
	if err != nil {
		return nil, err
	}
	var list []*Exercise
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(c.fsys, path.Join("exercises", e.Name(), "exercise.yaml")); err != nil {
			continue // not an exercise (yet); the content test reports such folders
		}
		ex, err := c.Exercise(e.Name())
		if err != nil {
			return nil, err
		}
		list = append(list, ex)
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Order != list[j].Order {
			return list[i].Order < list[j].Order
		}
		return list[i].Name < list[j].Name
	})
	return list, nil
}

// Exercise returns the exercise called name.
func (c *Course) Exercise(name string) (*Exercise, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return nil, fmt.Errorf("%w %q", ErrUnknownExercise, name)
	}
	dir := path.Join("exercises", name)
	data, err := fs.ReadFile(c.fsys, path.Join(dir, "exercise.yaml"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w %q", ErrUnknownExercise, name)
	}
	if err != nil {
		return nil, err
	}
	ex := &Exercise{Name: name, course: c}
	if err := yaml.Unmarshal(data, ex); err != nil {
		return nil, fmt.Errorf("%s/exercise.yaml: %v", dir, err)
	}
	return ex, nil
}

// Names returns the names of every exercise in course order.
func (c *Course) Names() []string {
	list, err := c.Exercises()
	if err != nil {
		return nil
	}
	names := make([]string, len(list))
	for i, ex := range list {
		names[i] = ex.Name
	}
	return names
}

// Course is the course the exercise belongs to.
func (e *Exercise) Course() *Course { return e.course }

// Dir is the exercise's folder in the course file system.
func (e *Exercise) Dir() string { return path.Join("exercises", e.Name) }

// Title returns the exercise's title in lang (falling back to the other language, then the name).
func (e *Exercise) Title(lang string) string {
	for _, l := range append([]string{lang}, Langs...) {
		if t := e.Titles[l]; t != "" {
			return t
		}
	}
	return e.Name
}

// Cases returns the exercise's cases, visible first.
func (e *Exercise) Cases() ([]checker.Case, error) {
	return checker.LoadCases(e.course.fsys, path.Join(e.Dir(), "cases"))
}

// Statement returns the task statement in lang.
func (e *Exercise) Statement(lang string) (string, error) {
	return e.read(path.Join(e.Dir(), lang+".md"))
}

// Hints returns the hints in lang, in the order they are given.
func (e *Exercise) Hints(lang string) ([]string, error) {
	text, err := e.read(path.Join(e.Dir(), "hints."+lang+".md"))
	if err != nil {
		return nil, err
	}
	// A hint starts at each "## " heading; a line inside a fenced code block is never a heading.
	var hints []string
	var cur []string
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "" && strings.HasPrefix(trimmed, fence):
			fence = ""
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
		case fence == "" && strings.HasPrefix(line, "## "):
			if cur != nil {
				hints = append(hints, strings.TrimSpace(strings.Join(cur, "\n")))
			}
			cur = []string{}
		}
		if cur != nil {
			cur = append(cur, line)
		}
	}
	if cur != nil {
		hints = append(hints, strings.TrimSpace(strings.Join(cur, "\n")))
	}
	return hints, nil
}

// StarterDir is the folder of the starter in lang within the course file system.
func (e *Exercise) StarterDir(lang string) string { return path.Join(e.Dir(), lang) }

// SolutionDir is the folder of the reference solution in lang within the course file system.
func (e *Exercise) SolutionDir(lang string) string { return path.Join("solutions", e.Name, lang) }

func (e *Exercise) read(name string) (string, error) {
	data, err := fs.ReadFile(e.course.fsys, name)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// Virtual reports whether the exercise's program runs in virtual time (exercise.yaml "time: virtual").
func (e *Exercise) Virtual() bool { return e.Time == "virtual" }

// Limits returns lim as the exercise's programs run under it: in virtual time when the exercise says so.
func (e *Exercise) Limits(lim checker.Limits) checker.Limits {
	lim.Virtual = e.Virtual()
	return lim
}
