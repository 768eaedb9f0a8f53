package learn

import (
	"errors"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

// ErrNoWorkspace means a use case that replaces the learner's files was asked for outside a
// workspace.
var ErrNoWorkspace = errors.New("no workspace")

// RecordError is a change to the learner's files that was made, whose record in the progress file
// could not be kept.
type RecordError struct{ Err error }

func (e *RecordError) Error() string { return e.Err.Error() }
func (e *RecordError) Unwrap() error { return e.Err }

func (s *Session) workspace() *workspace.Workspace {
	if s.Place == nil {
		return nil
	}
	return s.Place.Workspace
}

// HasWork reports whether the learner's folder for ex holds something of theirs, which a reset or
// a restore keeps as a version before replacing it (a front end asks first).
func (s *Session) HasWork(ex *course.Exercise) bool {
	ws := s.workspace()
	return ws != nil && ws.HasWork(s.Course, ex, s.Lang)
}

// Reset puts the pristine starter of ex back in the learner's folder (workspace.Workspace.Reset:
// what the folder held is kept as a version first) and counts the reset in the progress, whose
// verdicts stay: a pass stays a pass. It returns the version that holds what the folder held (zero
// when that was nothing of the learner's). goLine is the go line of the go.mod it writes.
func (s *Session) Reset(ex *course.Exercise, goLine string) (workspace.Version, error) {
	ws := s.workspace()
	if ws == nil {
		return workspace.Version{}, ErrNoWorkspace
	}
	kept, err := ws.Reset(s.Course, ex, s.Lang, goLine)
	if err != nil {
		return kept, err
	}
	if _, err := s.Update(func(st *progress.State) error {
		st.In(s.Lang, ex.Name).Resets++
		return nil
	}); err != nil {
		return kept, &RecordError{err}
	}
	return kept, nil
}

// Versions lists the kept versions of the learner's program for ex, oldest first.
func (s *Session) Versions(ex *course.Exercise) ([]workspace.Version, error) {
	ws := s.workspace()
	if ws == nil {
		return nil, ErrNoWorkspace
	}
	return ws.Versions(ex, s.Lang)
}

// Restore brings the kept version n of the learner's program for ex back into its folder
// (workspace.Workspace.RestoreVersion: what the folder held is kept as a version first). It returns
// that version, zero when the folder held nothing of the learner's.
func (s *Session) Restore(ex *course.Exercise, n int) (workspace.Version, error) {
	ws := s.workspace()
	if ws == nil {
		return workspace.Version{}, ErrNoWorkspace
	}
	return ws.RestoreVersion(s.Course, ex, s.Lang, n)
}
