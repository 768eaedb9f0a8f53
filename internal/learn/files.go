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

// The words of a reset and a restore are the Session's, so that the terminal and the browser say
// the same. show gives a path as the front end shows it to the learner (relative to where they
// stand, or to the place).

// folder is the learner's folder for ex, as show gives it ("" without a place).
func (s *Session) folder(ex *course.Exercise, show func(string) string) string {
	if s.Place == nil || s.Place.Dir == nil {
		return ""
	}
	return show(s.Place.Dir(ex, s.Lang))
}

// ResetConfirm is what a front end asks before Reset replaces the learner's program of ex (when
// HasWork).
func (s *Session) ResetConfirm(ex *course.Exercise, show func(string) string) string {
	return s.UI.T("reset_confirm", "Dir", s.folder(ex, show), "Name", ex.Name)
}

// RestoreConfirm is what a front end asks before Restore brings version n of ex back in place of
// the learner's program (when HasWork).
func (s *Session) RestoreConfirm(ex *course.Exercise, n int, show func(string) string) string {
	return s.UI.T("restore_confirm", "Dir", s.folder(ex, show), "Name", ex.Name, "N", n)
}

// ResetSays is what the learner is told after Reset put the starter of ex back, kept being the
// version Reset returned.
func (s *Session) ResetSays(ex *course.Exercise, kept workspace.Version, show func(string) string) string {
	dir := s.folder(ex, show)
	if kept.N == 0 {
		return s.UI.T("reset_done_fresh", "Dir", dir)
	}
	return s.UI.T("reset_done", "Dir", dir, "Backup", show(kept.Dir), "Name", ex.Name, "N", kept.N)
}

// RestoreSays is what the learner is told after Restore brought version n of ex back, kept being
// the version Restore returned.
func (s *Session) RestoreSays(ex *course.Exercise, n int, kept workspace.Version, show func(string) string) string {
	dir := s.folder(ex, show)
	if kept.N != 0 {
		return s.UI.T("restore_done_kept", "Dir", dir, "N", n, "Kept", kept.N, "Name", ex.Name)
	}
	return s.UI.T("restore_done", "Dir", dir, "N", n, "Name", ex.Name)
}

// ResetFailed is what the learner is told when Reset of ex failed with err (a workspace.BackupError:
// nothing changed; else the starter could not be written, and kept holds their version). A
// RecordError is the front end's to tell, as any progress file it could not write.
func (s *Session) ResetFailed(ex *course.Exercise, kept workspace.Version, err error, show func(string) string) string {
	dir := s.folder(ex, show)
	var be *workspace.BackupError
	if errors.As(err, &be) {
		return s.UI.T("err_reset_backup", "Dir", dir, "Err", be.Err.Error())
	}
	return s.UI.T("err_reset_write", "Dir", dir, "Err", err.Error(), "Backup", show(kept.Dir))
}

// RestoreFailed is what the learner is told when Restore of version n of ex failed with err: no
// such version (last is the newest there is), what the folder held could not be kept (nothing
// changed), or the version could not be written.
func (s *Session) RestoreFailed(ex *course.Exercise, n, last int, err error, show func(string) string) string {
	dir := s.folder(ex, show)
	var nv *workspace.NoVersionError
	var be *workspace.BackupError
	switch {
	case errors.As(err, &nv):
		return s.UI.T("err_restore_no_version", "Name", ex.Name, "N", n, "Last", last)
	case errors.As(err, &be):
		return s.UI.T("err_reset_backup", "Dir", dir, "Err", be.Err.Error())
	}
	return s.UI.T("err_restore_write", "Dir", dir, "Err", err.Error())
}
