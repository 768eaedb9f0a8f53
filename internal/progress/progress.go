// Package progress keeps a learner's progress through the course in one small JSON file: the last
// verdict of every exercise, the hints used, the quiz scores and when the learner started.
//
//	st, err := progress.Load(path)
//	var ce *progress.CorruptError
//	switch {
//	case errors.Is(err, fs.ErrNotExist):
//		st = progress.New("bg", time.Now())
//	case errors.As(err, &ce):
//		// the broken file now lives at ce.Backup: tell the learner, go on with a fresh state
//		st = progress.New("bg", time.Now())
//	case err != nil:
//		return err
//	}
//	st.Record("exercise-deadline", "pass", time.Now())
//	err = progress.Save(path, st)
//
// Progress is decided by verdicts only: Record takes the verdict of a check, never anything read from
// the learner's source. Save writes atomically (a temporary file in the same folder, synced, then
// renamed over the old one), so a crash leaves either the old state or the new one, never half of
// each. A file that cannot be read as a state is never silently replaced: Load renames it aside and
// reports where it went. Update serialises a load-change-save cycle between processes (a `watch`
// in one terminal and a `hint` in another) with a lock file.
package progress

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"
)

// FileName is the name of the state file at the root of a workspace (or of a clone).
const FileName = ".workbook.json"

// Version is the version of the file format this package writes.
const Version = 1

// State is everything remembered about one learner in one workspace.
type State struct {
	Version   int                  `json:"version"`
	Lang      string               `json:"lang,omitempty"`         // the content language of the workspace
	Messages  string               `json:"messages,omitempty"`     // the message language chosen, if one was
	Assumed   bool                 `json:"lang_assumed,omitempty"` // Lang was the default, not the learner's choice
	Started   time.Time            `json:"started"`
	Exercises map[string]*Exercise `json:"exercises,omitempty"` // progress in Lang
	// Other is the progress on exercises in the other content languages, by language: each language
	// keeps its own copy of the learner's programs, and so its own verdicts.
	Other   map[string]map[string]*Exercise `json:"other_langs,omitempty"`
	Quizzes map[string]*Quiz                `json:"quizzes,omitempty"`
	Lessons map[string]time.Time            `json:"lessons,omitempty"` // topic -> when it was first opened
}

// Exercise is the progress on one exercise.
type Exercise struct {
	Verdict      string    `json:"verdict,omitempty"` // verdict of the last check (checker.Verdict)
	Checks       int       `json:"checks,omitempty"`  // checks run
	LastCheck    time.Time `json:"last_check,omitzero"`
	PassedAt     time.Time `json:"passed_at,omitzero"` // first time a check passed
	Hints        int       `json:"hints,omitempty"`    // hint steps shown
	SolutionSeen bool      `json:"solution_seen,omitempty"`
	Resets       int       `json:"resets,omitempty"`
}

// Status is where the learner stands on an exercise.
type Status string

// The statuses of an exercise.
const (
	NotStarted Status = "not_started" // never checked
	Failing    Status = "failing"     // the last check did not pass
	Passed     Status = "passed"      // the last check passed
)

// Status returns the exercise's status, decided by the last verdict only.
func (e *Exercise) Status() Status {
	switch {
	case e == nil || e.Checks == 0:
		return NotStarted
	case e.Verdict == "pass":
		return Passed
	}
	return Failing
}

// EverPassed reports whether a check of the exercise has passed at least once.
func (e *Exercise) EverPassed() bool { return e != nil && !e.PassedAt.IsZero() }

// Quiz is the score on one lesson's quizzes.
type Quiz struct {
	Total    int       `json:"total"`    // questions in the last attempt
	Last     int       `json:"last"`     // right answers in the last attempt
	Best     int       `json:"best"`     // most right answers in any attempt
	Attempts int       `json:"attempts"` // attempts finished
	LastAt   time.Time `json:"last_at,omitzero"`
}

// New returns the state of a learner who starts now, working in lang.
func New(lang string, now time.Time) *State {
	return &State{Version: Version, Lang: lang, Started: now.UTC().Truncate(time.Second)}
}

// Exercise returns the progress on exercise name, creating it when missing.
func (s *State) Exercise(name string) *Exercise {
	if s.Exercises == nil {
		s.Exercises = map[string]*Exercise{}
	}
	e := s.Exercises[name]
	if e == nil {
		e = &Exercise{}
		s.Exercises[name] = e
	}
	return e
}

// Lookup returns the progress on exercise name, or nil when there is none (a nil *Exercise has
// status NotStarted).
func (s *State) Lookup(name string) *Exercise { return s.Exercises[name] }

// Record notes the verdict of a check of exercise name.
func (s *State) Record(name, verdict string, now time.Time) {
	record(s.Exercise(name), verdict, now)
}

func record(e *Exercise, verdict string, now time.Time) {
	e.Verdict = verdict
	e.Checks++
	e.LastCheck = now.UTC().Truncate(time.Second)
	if verdict == "pass" && e.PassedAt.IsZero() {
		e.PassedAt = e.LastCheck
	}
}

// SwitchLang makes to the state's content language: the progress in the language left is kept in
// Other, and the progress kept for to (if any) becomes Exercises. Quizzes, lessons and settings stay.
func (s *State) SwitchLang(to string) {
	if to == s.Lang {
		return
	}
	if s.Other == nil {
		s.Other = map[string]map[string]*Exercise{}
	}
	if len(s.Exercises) > 0 && s.Lang != "" {
		s.Other[s.Lang] = s.Exercises
	}
	s.Exercises = s.Other[to]
	delete(s.Other, to)
	if len(s.Other) == 0 {
		s.Other = nil
	}
	s.Lang = to
}

// In returns the progress on exercise name in the content language lang, creating it when missing.
// A state that names no language keeps every language's progress in Exercises.
func (s *State) In(lang, name string) *Exercise {
	if lang == s.Lang || lang == "" || s.Lang == "" {
		return s.Exercise(name)
	}
	if s.Other == nil {
		s.Other = map[string]map[string]*Exercise{}
	}
	m := s.Other[lang]
	if m == nil {
		m = map[string]*Exercise{}
		s.Other[lang] = m
	}
	e := m[name]
	if e == nil {
		e = &Exercise{}
		m[name] = e
	}
	return e
}

// LookupIn returns the progress on exercise name in lang, or nil.
func (s *State) LookupIn(lang, name string) *Exercise {
	if lang == s.Lang || lang == "" || s.Lang == "" {
		return s.Lookup(name)
	}
	return s.Other[lang][name]
}

// RecordIn notes the verdict of a check of exercise name made in the content language lang.
func (s *State) RecordIn(lang, name, verdict string, now time.Time) {
	record(s.In(lang, name), verdict, now)
}

// RecordCheck notes the verdict of a check of the learner's own program for exercise name in lang,
// except that a pass is never taken back by a check of the pristine starter (starter), which only a
// command (reset, restore, a new language) put there: the pass is kept, and keptPass says so.
func (s *State) RecordCheck(lang, name, verdict string, starter bool, now time.Time) (keptPass bool) {
	if starter && verdict != "pass" && s.LookupIn(lang, name).Status() == Passed {
		return true
	}
	s.RecordIn(lang, name, verdict, now)
	return false
}

// RecordQuiz notes an attempt at a lesson's quizzes: right answers of total.
func (s *State) RecordQuiz(topic string, right, total int, now time.Time) {
	if s.Quizzes == nil {
		s.Quizzes = map[string]*Quiz{}
	}
	q := s.Quizzes[topic]
	if q == nil {
		q = &Quiz{}
		s.Quizzes[topic] = q
	}
	q.Total, q.Last = total, right
	q.Best = max(q.Best, right)
	q.Attempts++
	q.LastAt = now.UTC().Truncate(time.Second)
}

// OpenLesson notes that the learner opened a lesson (the first time counts).
func (s *State) OpenLesson(topic string, now time.Time) {
	if s.Lessons == nil {
		s.Lessons = map[string]time.Time{}
	}
	if _, ok := s.Lessons[topic]; !ok {
		s.Lessons[topic] = now.UTC().Truncate(time.Second)
	}
}

// HintsUsed is the number of hint steps shown over every exercise.
func (s *State) HintsUsed() int {
	n := 0
	for _, e := range s.Exercises {
		n += e.Hints
	}
	return n
}

// Passed returns the names of the exercises whose last check passed, sorted.
func (s *State) Passed() []string {
	var names []string
	for name, e := range s.Exercises {
		if e.Status() == Passed {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// CorruptError reports a state file that could not be read as a state. The file has been renamed to
// Backup (empty if even that failed, and then Err says why).
type CorruptError struct {
	Path   string
	Backup string
	Err    error
}

func (e *CorruptError) Error() string {
	if e.Backup == "" {
		return fmt.Sprintf("%s is not a valid progress file (%v)", e.Path, e.Err)
	}
	return fmt.Sprintf("%s is not a valid progress file (%v); it was moved to %s", e.Path, e.Err, e.Backup)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// ErrNewerVersion is the reason (inside a *CorruptError) for a file written by a newer workbook.
var ErrNewerVersion = errors.New("written by a newer version of workbook")

// Load reads the state at path. A missing file is an error satisfying errors.Is(err, fs.ErrNotExist).
// A file that is not a valid state is renamed to path.corrupt-TIMESTAMP and reported as a
// *CorruptError; the caller decides what to tell the learner and starts a new state.
func Load(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	st, perr := parse(data)
	if perr == nil {
		return st, nil
	}
	ce := &CorruptError{Path: path, Err: perr}
	backup := fmt.Sprintf("%s.corrupt-%s", path, time.Now().Format("20060102-150405"))
	if _, err := os.Stat(backup); err == nil {
		backup += fmt.Sprintf("-%d", time.Now().UnixNano()%1e6)
	}
	if err := os.Rename(path, backup); err != nil {
		ce.Err = fmt.Errorf("%v; moving it aside failed: %w", perr, err)
		return nil, ce
	}
	ce.Backup = backup
	return nil, ce
}

// Peek reads the state at path for showing it, changing nothing: unlike Load, a file that is not a
// valid state is reported (as a plain error) and left where it is, so that a page view (an HTTP GET)
// never moves a file. A missing file is an error satisfying errors.Is(err, fs.ErrNotExist).
func Peek(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parse(data)
}

func parse(data []byte) (*State, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the file is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var st State
	if err := dec.Decode(&st); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected data after the state")
	}
	switch {
	case st.Version > Version:
		return nil, fmt.Errorf("version %d: %w", st.Version, ErrNewerVersion)
	case st.Version < 1:
		return nil, fmt.Errorf("no valid version (got %d)", st.Version)
	case st.Started.IsZero():
		return nil, errors.New("no start time")
	}
	for name, e := range st.Exercises {
		if e == nil {
			return nil, fmt.Errorf("exercise %q has no record", name)
		}
	}
	for lang, m := range st.Other {
		for name, e := range m {
			if e == nil {
				return nil, fmt.Errorf("exercise %q in %q has no record", name, lang)
			}
		}
	}
	for name, q := range st.Quizzes {
		if q == nil {
			return nil, fmt.Errorf("quiz %q has no record", name)
		}
	}
	return &st, nil
}

// Hooks for tests that simulate a crash in the middle of Save.
var (
	rename    = os.Rename
	afterTemp = func() {}
)

// Save writes st to path atomically: into a temporary file in the same folder, synced to disk, then
// renamed over path. If anything fails the old file is left as it was and the temporary file removed.
func Save(path string, st *State) error {
	if st.Version == 0 {
		st.Version = Version
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o644); err != nil && runtime.GOOS != "windows" {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	afterTemp()
	if err := rename(tmp.Name(), path); err != nil {
		return err
	}
	ok = true
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable where the system allows syncing a folder; elsewhere it does nothing.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync() // best effort: not every system can sync a folder
	d.Close()
}

// Lock timing: how long Update waits for another process, and when a lock is considered left over
// by a process that crashed.
var (
	lockWait  = 5 * time.Second
	lockStale = 30 * time.Second
)

// ErrLocked means another process held the state's lock for longer than Update waits.
var ErrLocked = errors.New("the progress file is locked by another workbook process")

// Update loads the state at path (a missing file gives fresh()), lets change modify it and saves it,
// holding a lock file so that two workbook processes do not lose each other's changes. A corrupt
// file is set aside as Load does; the *CorruptError is returned together with the saved new state
// (err is the CorruptError, st is valid), so the caller can report it.
func Update(path string, fresh func() *State, change func(*State) error) (*State, error) {
	unlock, err := lock(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, err := Load(path)
	var ce *CorruptError
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		st, err = fresh(), nil
	case errors.As(err, &ce) && ce.Backup != "":
		st = fresh()
	default:
		return nil, err
	}
	if cerr := change(st); cerr != nil {
		return nil, cerr
	}
	if serr := Save(path, st); serr != nil {
		return nil, serr
	}
	if ce != nil {
		return st, ce
	}
	return st, nil
}

func lock(path string) (func(), error) {
	name := path + ".lock"
	deadline := time.Now().Add(lockWait)
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, serr := os.Stat(name); serr == nil && time.Since(fi.ModTime()) > lockStale {
			os.Remove(name) // left over by a process that crashed
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w (%s)", ErrLocked, name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
