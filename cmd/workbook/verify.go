package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/report"
)

var verifyCmd = &command{name: "verify", usage: "verify_usage", summary: "verify_summary"}

func init() {
	verifyCmd.run = runVerify
	register(verifyCmd)
}

// verifyTargets is what one `workbook verify` checks.
type verifyTargets struct {
	files     []lesson.File  // lesson files, some read for parity only
	loadErrs  lesson.Errors  // problems found while reading them (a missing language)
	exercises []exerciseAt   // exercises, with where their files are shown from
	lessons   int            // lesson files to check (not those read for parity only)
	seen      map[string]int // lesson file name -> index in files
	course    fs.FS          // the course the default lessons belong to, for their references
}

type exerciseAt struct {
	ex      *course.Exercise
	display string // the course root as the user sees it ("" for the clone root or embedded course)
}

// problem is one line of the report, from a lesson or an exercise.
type problem struct {
	File    string        `json:"file"`
	Line    int           `json:"line,omitempty"`
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Diff    *checker.Diff `json:"diff,omitempty"`
	Detail  string        `json:"detail,omitempty"`
}

// runVerify checks lessons and exercises as an author needs them checked.
func runVerify(ctx context.Context, e *env, args []string) error {
	fset := e.newFlags(verifyCmd)
	asJSON := fset.Bool("json", false, e.ui.T("flag_json"))
	noCache := fset.Bool("no-cache", false, e.ui.T("flag_no_cache"))
	pos, err := e.parse(verifyCmd, fset, args)
	if err != nil {
		return err
	}
	t := &verifyTargets{seen: map[string]int{}}
	if len(pos) == 0 {
		if err := t.addDefault(e); err != nil {
			return err
		}
	}
	for _, p := range pos {
		if err := t.addPath(e, p); err != nil {
			return err
		}
	}

	var probs []problem
	cache := course.OpenCache(*noCache)
	lessonErrs, lessonsCached, err := course.VerifyLessons(ctx, t.files, cache)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return e.usageErr("err_verify_tool", "Err", err.Error())
	}
	all := append(append(lesson.Errors{}, t.loadErrs...), lessonErrs...)
	all = append(all, t.checkRefs()...)
	all.Sort()
	for _, le := range all {
		probs = append(probs, e.lessonProblem(le))
	}
	exProbs, scores, cached, err := e.verifyExercises(ctx, t.exercises, cache)
	if err != nil {
		return err
	}
	probs = append(probs, exProbs...)

	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if probs == nil {
			probs = []problem{}
		}
		if err := enc.Encode(struct {
			OK        bool            `json:"ok"`
			Lessons   int             `json:"lesson_files"`
			Exercises int             `json:"exercises"`
			Problems  []problem       `json:"problems"`
			Mutation  []mutationScore `json:"mutation"`
			Cached    int             `json:"exercises_cached"`
			LCached   int             `json:"lesson_files_cached"`
		}{len(probs) == 0, t.lessons, len(t.exercises), probs, scores, cached, lessonsCached}); err != nil {
			return err
		}
	} else {
		for _, p := range probs {
			e.printProblem(e.stdout, p)
		}
		if len(probs) > 0 && len(scores) > 0 {
			fmt.Fprintln(e.stdout)
		}
		for _, s := range scores {
			id := "verify_mutation"
			if s.Cached {
				id = "verify_mutation_cached"
			}
			fmt.Fprintln(e.stdout, e.ui.T(id, "Name", s.Exercise, "Mutants", s.Mutants, "Killed", s.Killed,
				"Equivalent", s.Equivalent, "Survivors", s.Survivors, "Score", decimal(e.ui.Lang(), s.Score), "Seconds", decimal(e.ui.Lang(), s.Seconds)))
		}
		if cache.Reads() && t.lessons > 0 {
			fmt.Fprintln(e.stdout, e.ui.T("verify_cache", "Unchanged", e.ui.N("verify_n_lessons_unchanged", lessonsCached),
				"Analysed", e.ui.N("verify_n_lessons_analysed", t.lessons-lessonsCached)))
		}
		if cache.Reads() && len(t.exercises) > 0 {
			fmt.Fprintln(e.stdout, e.ui.T("verify_cache", "Unchanged", e.ui.N("verify_n_unchanged", cached),
				"Analysed", e.ui.N("verify_n_analysed", len(t.exercises)-cached)))
		}
		checked := []any{
			"Lessons", e.ui.N("verify_n_lessons", t.lessons),
			"Exercises", e.ui.N("verify_n_exercises", len(t.exercises)),
		}
		if len(probs) == 0 {
			fmt.Fprintln(e.stdout, e.ui.T("verify_ok", checked...))
		} else {
			fmt.Fprintln(e.stdout)
			fmt.Fprintln(e.stdout, e.ui.T("verify_failed", append(checked, "Problems", e.ui.N("verify_n_problems", len(probs)))...))
		}
	}
	if len(probs) > 0 {
		return errFailed
	}
	return nil
}

// mutationScore is the measure of one exercise's cases by mutation testing.
type mutationScore struct {
	Exercise   string  `json:"exercise"`
	Mutants    int     `json:"mutants"`
	Killed     int     `json:"killed"`
	Equivalent int     `json:"equivalent"`
	Survivors  int     `json:"survivors"`
	Score      float64 `json:"score"`
	Seconds    float64 `json:"seconds"` // of the run that measured it, for a result from the cache too
	Cached     bool    `json:"cached"`  // taken from the cache: nothing it depends on has changed
}

// verifyExercises audits the exercises (course.AuditAll), taking from cache what has not changed and
// telling a person at a terminal what it is doing. The problems and the mutation scores come in the
// order of list; cached is how many exercises were taken from the cache whole.
func (e *env) verifyExercises(ctx context.Context, list []exerciseAt, cache *course.Cache) (probs []problem, scores []mutationScore, cached int, err error) {
	exs := make([]*course.Exercise, len(list))
	for i, xa := range list {
		exs[i] = xa.ex
	}
	var progress func(name string, n, total int)
	if isTerminal(e.stderr) {
		progress = func(name string, n, total int) {
			if name == "" {
				fmt.Fprintf(e.stderr, "\r\x1b[K%s", e.ui.T("verify_progress_build", "Exercises", e.ui.N("verify_n_exercises", total)))
				return
			}
			fmt.Fprintf(e.stderr, "\r\x1b[K%s", e.ui.T("verify_progress", "Name", name, "N", n, "Total", total))
		}
	}
	audits, err := course.AuditAll(ctx, exs, checker.Limits{}, cache, progress)
	if progress != nil && len(list) > 0 {
		fmt.Fprint(e.stderr, "\r\x1b[K")
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, nil, 0, err
		}
		return nil, nil, 0, e.usageErr("err_verify_tool", "Err", err.Error())
	}
	scores = []mutationScore{}
	for i, xa := range list {
		a := audits[i]
		if a.Cached {
			cached++
		}
		for _, p := range a.Problems {
			msg := p.Msg
			if id := "exercise_" + p.Code; i18n.Has(e.ui.Lang(), id) {
				msg = e.ui.T(id, p.Args...)
			}
			probs = append(probs, problem{File: joinDisplay(xa.display, p.File), Line: p.Line, Code: "exercise_" + p.Code, Message: msg, Detail: p.Detail})
		}
		if m := a.Mutation; m != nil {
			scores = append(scores, mutationScore{Exercise: xa.ex.Name, Mutants: m.Mutants, Killed: m.Killed,
				Equivalent: m.Equivalent, Survivors: len(m.Survivors), Score: m.Score(), Seconds: m.Elapsed.Seconds(), Cached: a.MutationCached})
		}
	}
	return probs, scores, cached, nil
}

// isTerminal reports whether w is a terminal (where a progress line that rewrites itself is welcome).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// addDefault adds every lesson and every exercise: the clone's when the command runs in one (so an
// author sees their edits), else the embedded course.
func (t *verifyTargets) addDefault(e *env) error {
	fsys := e.course.FS()
	if root := findClone(); root != "" {
		fsys = os.DirFS(root)
	}
	t.course = fsys
	if err := t.addLessons(fsys, "lessons", "lessons"); err != nil {
		return err
	}
	return t.addExercises(course.New(fsys), "")
}

// addLessons adds every lesson folder under dir of fsys.
func (t *verifyTargets) addLessons(fsys fs.FS, dir, display string) error {
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

func (t *verifyTargets) addTopic(fsys fs.FS, dir, display string) error {
	files, errs, err := lesson.Topic(fsys, dir, display)
	if err != nil {
		return err
	}
	t.loadErrs = append(t.loadErrs, errs...)
	for _, f := range files {
		t.addFile(f)
	}
	return nil
}

// addFile adds a lesson file; a file to check replaces the same file read for parity only.
func (t *verifyTargets) addFile(f lesson.File) {
	if i, ok := t.seen[f.Name]; ok {
		if t.files[i].ParityOnly && !f.ParityOnly {
			t.files[i] = f
			t.lessons++
		}
		return
	}
	t.seen[f.Name] = len(t.files)
	t.files = append(t.files, f)
	if !f.ParityOnly {
		t.lessons++
	}
}

// addExercises adds every exercise of c.
func (t *verifyTargets) addExercises(c *course.Course, display string) error {
	list, err := c.Exercises()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, ex := range list {
		t.exercises = append(t.exercises, exerciseAt{ex: ex, display: display})
	}
	return nil
}

// addPath adds what a path names: a lesson file, a lesson folder, a folder of lessons, an exercise
// folder, a folder of exercises, or the root of a clone.
func (t *verifyTargets) addPath(e *env, p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return e.usageErr("err_verify_path", "Path", p)
	}
	display := filepath.ToSlash(filepath.Clean(p))
	if !info.IsDir() {
		base := filepath.Base(p)
		if base != "bg.md" && base != "ru.md" {
			return e.usageErr("err_verify_not_lesson", "Path", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return e.usageErr("err_verify_path", "Path", p)
		}
		t.addFile(lesson.File{Name: display, Data: data})
		// The other language, to compare with.
		other := "ru.md"
		if base == "ru.md" {
			other = "bg.md"
		}
		if data, err := os.ReadFile(filepath.Join(filepath.Dir(p), other)); err == nil {
			t.addFile(lesson.File{Name: path.Join(path.Dir(display), other), Data: data, ParityOnly: true})
		}
		return nil
	}
	fsys := os.DirFS(p)
	has := func(name string) bool { _, err := fs.Stat(fsys, name); return err == nil }
	switch {
	case has("exercise.yaml"):
		abs, err := filepath.Abs(p)
		if err != nil || filepath.Base(filepath.Dir(abs)) != "exercises" {
			return e.usageErr("err_verify_exercise_place", "Path", p)
		}
		root := filepath.Dir(filepath.Dir(abs))
		ex, err := course.New(os.DirFS(root)).Exercise(filepath.Base(abs))
		if err != nil {
			return e.usageErr("err_verify_tool", "Err", err.Error())
		}
		t.exercises = append(t.exercises, exerciseAt{ex: ex, display: relDisplay(root)})
		return nil
	case has("bg.md") || has("ru.md"):
		return t.addTopic(fsys, ".", display)
	case has("lessons") || has("exercises"):
		before := len(t.files) + len(t.exercises)
		if err := t.addLessons(fsys, "lessons", path.Join(display, "lessons")); err != nil {
			return err
		}
		if err := t.addExercises(course.New(fsys), display); err != nil {
			return err
		}
		if len(t.files)+len(t.exercises) == before {
			return e.usageErr("err_verify_nothing", "Path", p)
		}
		return nil
	}
	if filepath.Base(filepath.Clean(p)) == "exercises" || hasExercises(fsys) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		root := filepath.Dir(abs)
		return t.addExercises(course.New(os.DirFS(root)), relDisplay(root))
	}
	before := len(t.files)
	if err := t.addLessons(fsys, ".", display); err != nil {
		return err
	}
	if len(t.files) == before {
		return e.usageErr("err_verify_nothing", "Path", p)
	}
	return nil
}

// checkRefs checks that the exercises and lessons each lesson's front matter names exist in its
// course: the default course, or for a lesson on disk at <root>/lessons/<topic>/ the course at <root>.
// A lesson outside such a layout is not checked.
func (t *verifyTargets) checkRefs() lesson.Errors {
	groups := map[string][]lesson.File{}
	courses := map[string]fs.FS{}
	for _, f := range t.files {
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
		exercises := course.New(fsys).Names()
		errs = append(errs, lesson.CheckRefs(files, exercises, topics)...)
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

func joinDisplay(root, file string) string {
	if root == "" {
		return file
	}
	return path.Join(root, file)
}

// lessonProblem turns a lesson's problem into a report line in the user's language.
func (e *env) lessonProblem(le *lesson.Error) problem {
	p := problem{File: le.File, Line: le.Line, Code: string(le.Code), Diff: le.Diff, Detail: le.Detail}
	args := map[string]any{}
	for k, v := range le.Args {
		args[k] = v
	}
	if le.Code == lesson.CodeRun {
		switch v, _ := le.Args["Verdict"].(string); v {
		case "exit":
			args["Status"] = e.ui.T("msg_exit_nonzero", "Code", le.Args["Exit"])
		default:
			args["Status"] = e.ui.T("status_" + v)
		}
	}
	kv := make([]any, 0, 2*len(args))
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kv = append(kv, k, args[k])
	}
	id := "lesson_" + string(le.Code)
	p.Message = e.ui.T(id, kv...)
	if p.Message == id {
		p.Message = le.Message()
	}
	return p
}

// printProblem writes one problem: "file:line: message", then the first differing line and what
// the compiler or the program said, indented.
func (e *env) printProblem(w io.Writer, p problem) {
	loc := p.File
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	fmt.Fprintf(w, "%s: %s\n", loc, p.Message)
	ind := "    "
	if d := p.Diff; d != nil {
		dt := report.Explain(e.ui, d)
		fmt.Fprintln(w, ind+e.ui.T("want_label")+" "+dt.Want)
		fmt.Fprintln(w, ind+e.ui.T("got_label")+" "+dt.Got)
		for _, msg := range dt.Notes {
			fmt.Fprintln(w, ind+"! "+msg)
		}
	}
	if p.Detail != "" {
		for _, l := range strings.Split(p.Detail, "\n") {
			fmt.Fprintln(w, ind+l)
		}
	}
}

// decimal writes v with one decimal, with a decimal comma in Bulgarian and Russian.
func decimal(lang string, v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}
