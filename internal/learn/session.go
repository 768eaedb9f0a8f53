package learn

import (
	"errors"
	"io/fs"
	"sync"
	"time"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

// Place is where the learner works: a workspace made by `workbook init` or the workspace of a clone
// of the course repository. Its state file is the one every command and the browser use.
type Place struct {
	Root      string                                        // where it is, as it is shown
	StatePath string                                        // the progress file
	Lang      string                                        // a workspace's content language; "" when not known
	Dir       func(ex *course.Exercise, lang string) string // the folder holding the learner's program for ex
	Fresh     func() *progress.State                        // the state of a learner who starts now
	// Pristine reports whether the folder of ex in lang holds the pristine starter, as a command
	// (reset, restore, a new language) puts it there: a failing check of it never takes a pass
	// back (progress.State.RecordCheck). Nil: no folder is taken for pristine.
	Pristine func(ex *course.Exercise, lang string) bool
	// Workspace is the workspace itself, for the use cases that replace the learner's files (reset,
	// restore), which keep what they replace as a version. Nil: those are refused (ErrNoWorkspace).
	Workspace *workspace.Workspace

	mu sync.Mutex // one change of the state at a time within the process (the file is locked too)
}

// Session is one learner at one moment: the course, the content language their programs and
// transcripts are in, the message language they read, and their place (nil: nothing is kept).
// A Session is cheap; a front end may make one per request.
type Session struct {
	Course *course.Course
	Lang   string        // the content language: bg or ru
	UI     *i18n.Printer // the messages, in the message language (ru, bg or en)
	Place  *Place
	Now    func() time.Time // nil: time.Now
	// Warn is told of a progress file that was not a valid state and was set aside (the learner's
	// progress starts afresh; nothing else is lost). Nil: nobody is told.
	Warn func(*progress.CorruptError)
}

func (s *Session) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Session) fresh() *progress.State {
	if s.Place != nil && s.Place.Fresh != nil {
		return s.Place.Fresh()
	}
	return progress.New(s.Lang, s.now())
}

// Peek reads the learner's progress for showing it, changing nothing: a missing file, or one that
// is not a valid state, is a fresh start (the next change sets a corrupt file aside). Without a
// place it is nil.
func (s *Session) Peek() (*progress.State, error) {
	if s.Place == nil {
		return nil, nil
	}
	st, err := progress.Peek(s.Place.StatePath)
	if errors.Is(err, fs.ErrNotExist) {
		return s.fresh(), nil
	}
	if err != nil {
		return s.fresh(), err
	}
	return st, nil
}

// State reads the learner's progress: a missing file is a fresh start; a corrupt one is set aside
// under a new name (Warn is told) and replaced by a fresh state at once, so that the place stays a
// place. Without a place it is nil.
func (s *Session) State() (*progress.State, error) {
	if s.Place == nil {
		return nil, nil
	}
	st, err := progress.Load(s.Place.StatePath)
	var ce *progress.CorruptError
	switch {
	case err == nil:
		return st, nil
	case errors.Is(err, fs.ErrNotExist):
		return s.fresh(), nil
	case errors.As(err, &ce) && ce.Backup != "":
		if s.Warn != nil {
			s.Warn(ce) // set aside by Load
		}
		return s.Update(func(*progress.State) error { return nil })
	}
	return nil, err
}

// Update changes the learner's progress and saves it (progress.Update: the file locked, written
// whole). A corrupt file is set aside, Warn told, and the change made to a fresh state. Without a
// place there is nothing to keep: it does nothing and returns nil.
func (s *Session) Update(change func(*progress.State) error) (*progress.State, error) {
	p := s.Place
	if p == nil {
		return nil, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	st, err := progress.Update(p.StatePath, s.fresh, change)
	var ce *progress.CorruptError
	if errors.As(err, &ce) {
		if s.Warn != nil {
			s.Warn(ce)
		}
		return st, nil
	}
	return st, err
}

// OpenLesson records that the learner opened the lesson topic.
func (s *Session) OpenLesson(topic string) error {
	_, err := s.Update(func(st *progress.State) error {
		st.OpenLesson(topic, s.now())
		return nil
	})
	return err
}

// RecordQuiz records a finished quiz of the lesson topic; the quiz as kept afterwards (best score,
// attempts), nil without a place.
func (s *Session) RecordQuiz(topic string, right, total int) (*progress.Quiz, error) {
	st, err := s.Update(func(st *progress.State) error {
		st.RecordQuiz(topic, right, total, s.now())
		return nil
	})
	if err != nil || st == nil {
		return nil, err
	}
	return st.Quizzes[topic], nil
}
