package web

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
)

// Place is where the learner works, as the command line finds it: a workspace made by `workbook
// init` or a clone of the course repository. Its state file is the same one check, hint and
// progress use, so the browser and the terminal see the same progress.
type Place struct {
	Root      string                                        // shown on the index page
	StatePath string                                        // the progress file
	Lang      string                                        // a workspace's language (its files are in it); "" in a clone
	Dir       func(ex *course.Exercise, lang string) string // the folder holding the learner's program for ex
	Fresh     func() *progress.State                        // the state of a learner who starts now
	// Pristine reports whether the folder of ex in lang holds the pristine starter, as a command
	// (reset, restore, a new language) puts it there: a failing check of it never takes a pass
	// back (progress.State.RecordCheck), as in the terminal. Nil: no folder is taken for pristine.
	Pristine func(ex *course.Exercise, lang string) bool
}

// state reads the learner's progress for showing it, changing nothing (pages are GETs, and no GET
// changes state): a missing file is a fresh start; a file that is not a valid state is shown as a
// fresh start and left where it is, for the next change (a POST) to set aside as the command line
// does.
func (s *Server) state() *progress.State {
	p := s.cfg.Place
	if p == nil {
		return nil
	}
	st, err := progress.Peek(p.StatePath)
	switch {
	case err == nil:
		return st
	case !errors.Is(err, fs.ErrNotExist):
		s.logf("%s", s.ui(s.cfg.Lang).T("web_err_state", "Path", p.StatePath, "Err", err.Error()))
	}
	return p.Fresh()
}

// update changes the learner's progress and saves it, as the command line does. Without a place
// there is nothing to keep, and it does nothing.
func (s *Server) update(change func(*progress.State)) (*progress.State, error) {
	p := s.cfg.Place
	if p == nil {
		return nil, nil
	}
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	st, err := progress.Update(p.StatePath, p.Fresh, func(st *progress.State) error {
		change(st)
		return nil
	})
	var ce *progress.CorruptError
	if errors.As(err, &ce) {
		s.logf("%s", s.ui(s.cfg.Lang).T("web_warn_state_corrupt", "Path", ce.Path, "Backup", ce.Backup, "Err", fmt.Sprint(ce.Err)))
		return st, nil
	}
	return st, err
}
