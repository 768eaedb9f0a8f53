package web

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/learn"
	"github.com/workbook-course/workbook/internal/workspace"
)

// The exercise page's Reset and Restore buttons are `workbook reset NAME` and `workbook restore NAME
// N` (N the newest kept version): the same learn.Session use cases, which keep what they replace as
// a version, and the same words. The page asks first, in the words the terminal asks in; what the
// editor holds is saved before (as a check saves it), so that the version kept is what the learner
// sees. They need a workspace (a place with one): outside one the page has no such buttons, and the
// API refuses.

// replaceReply is what a reset or a restore answers: what the terminal says after the same command,
// the learner's program as it is now, and the newest kept version, to bring back.
type replaceReply struct {
	Message string        `json:"message"`
	Code    string        `json:"code"`
	Hash    string        `json:"hash"`
	Restore *restoreOffer `json:"restore,omitempty"`
}

// restoreOffer is the kept version the Restore button brings back: its number, the button's words
// and the question asked before.
type restoreOffer struct {
	N       int    `json:"n"`
	Label   string `json:"label"`
	Confirm string `json:"confirm"`
}

// apiReset puts the starter back, as `workbook reset` does (learn.Session.Reset).
func (s *Server) apiReset(ctx context.Context, p *i18n.Printer, req *request) (any, error) {
	ex, ss, err := s.replacing(p, req)
	if err != nil {
		return nil, err
	}
	kept, err := ss.Reset(ex, checker.GoVersion())
	var re *learn.RecordError
	switch {
	case errors.As(err, &re):
		s.logf("%v", err) // the starter is back; the count of resets could not be kept
	case err != nil:
		return nil, &apiError{http.StatusInternalServerError, ss.ResetFailed(ex, kept, err, s.shown)}
	}
	return s.replaced(ex, ss, ss.ResetSays(ex, kept, s.shown))
}

// apiRestore brings version req.Version back, as `workbook restore NAME N` does
// (learn.Session.Restore).
func (s *Server) apiRestore(ctx context.Context, p *i18n.Printer, req *request) (any, error) {
	ex, ss, err := s.replacing(p, req)
	if err != nil {
		return nil, err
	}
	list, err := ss.Versions(ex)
	if err != nil {
		return nil, err
	}
	last := 0
	if len(list) > 0 {
		last = list[len(list)-1].N
	}
	kept, err := ss.Restore(ex, req.Version)
	var nv *workspace.NoVersionError
	switch {
	case errors.As(err, &nv):
		return nil, &apiError{http.StatusNotFound, ss.RestoreFailed(ex, req.Version, last, err, s.shown)}
	case err != nil:
		return nil, &apiError{http.StatusInternalServerError, ss.RestoreFailed(ex, req.Version, last, err, s.shown)}
	}
	return s.replaced(ex, ss, ss.RestoreSays(ex, req.Version, kept, s.shown))
}

// replacing is the exercise and session of a reset or a restore, once what the editor holds is
// saved (unless the file changed on disk since the editor read it).
func (s *Server) replacing(p *i18n.Printer, req *request) (*course.Exercise, *learn.Session, error) {
	ex, err := s.apiExercise(p, req.Exercise)
	if err != nil {
		return nil, nil, err
	}
	if !s.replaceable() {
		return nil, nil, &apiError{http.StatusConflict, p.T("web_err_no_workspace")}
	}
	lang := s.codeLang(req.Lang)
	if req.Code != "" {
		if _, err := s.save(p, ex, lang, normalizeCode(req.Code), req.Base); err != nil {
			return nil, nil, err
		}
	}
	return ex, s.session(lang, p), nil
}

// replaced is the reply after a reset or a restore of ex that says msg.
func (s *Server) replaced(ex *course.Exercise, ss *learn.Session, msg string) (*replaceReply, error) {
	code, hash, _, err := s.learnerCode(ex, ss.Lang)
	if err != nil {
		return nil, err
	}
	offer, err := s.restoreOffer(ex, ss)
	if err != nil {
		return nil, err
	}
	return &replaceReply{Message: msg, Code: code, Hash: hash, Restore: offer}, nil
}

// restoreOffer is the newest kept version of the learner's program for ex, nil when none is kept.
func (s *Server) restoreOffer(ex *course.Exercise, ss *learn.Session) (*restoreOffer, error) {
	list, err := ss.Versions(ex)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	n := list[len(list)-1].N
	return &restoreOffer{N: n, Label: ss.UI.T("web_restore", "N", n), Confirm: ss.RestoreConfirm(ex, n, s.shown)}, nil
}

// replaceButtons gives the exercise page, in a workspace, its Reset button and, when a version is
// kept, its Restore button.
func (s *Server) replaceButtons(body *exerciseBody, ex *course.Exercise, p *i18n.Printer) {
	if !s.replaceable() || body.File == "" {
		return
	}
	ss := s.session(body.CodeLang, p)
	body.Reset = ss.ResetConfirm(ex, s.shown)
	offer, err := s.restoreOffer(ex, ss)
	if err != nil {
		s.logf("%v", err) // the page shows no Restore button; `workbook restore` says what is wrong
	}
	body.Restore = offer
}

// replaceable reports whether the learner's files are in a workspace, which reset and restore need.
func (s *Server) replaceable() bool { return s.cfg.Place != nil && s.cfg.Place.Workspace != nil }

// shown is a path of the place as the page shows it: relative to the place's root when it is inside.
func (s *Server) shown(path string) string {
	if s.cfg.Place != nil {
		if rel, err := filepath.Rel(s.cfg.Place.Root, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return path
}
