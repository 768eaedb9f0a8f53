package web

import (
	"fmt"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/learn"
	"github.com/workbook-course/workbook/internal/progress"
)

// Place is where the learner works, as the command line finds it: a workspace made by `workbook
// init` or a clone of the course repository (learn.Place). Its state file is the same one check,
// hint and progress use, so the browser and the terminal see the same progress.
type Place = learn.Place

// session is the learner as the terminal sees them too (learn.Session): the course, the content
// language lang, the messages of p and the place. Every use case of the browser goes through it.
func (s *Server) session(lang string, p *i18n.Printer) *learn.Session {
	return &learn.Session{Course: s.cfg.Course, Lang: lang, UI: p, Place: s.cfg.Place, Now: s.cfg.Now,
		Warn: func(ce *progress.CorruptError) {
			s.logf("%s", s.ui(s.cfg.Lang).T("web_warn_state_corrupt", "Path", ce.Path, "Backup", ce.Backup, "Err", fmt.Sprint(ce.Err)))
		}}
}

// state reads the learner's progress for showing it, changing nothing (pages are GETs, and no GET
// changes state): a missing file is a fresh start; a file that is not a valid state is shown as a
// fresh start and left where it is, for the next change (a POST) to set aside as the command line
// does.
func (s *Server) state() *progress.State {
	st, err := s.session(s.cfg.Lang, s.ui(s.cfg.Lang)).Peek()
	if err != nil {
		s.logf("%s", s.ui(s.cfg.Lang).T("web_err_state", "Path", s.cfg.Place.StatePath, "Err", err.Error()))
	}
	return st
}
