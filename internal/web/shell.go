package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
)

// A page is loaded in two steps, so that a browser without the token gets nothing private, and
// no cookie is needed (a cookie would go to every port of 127.0.0.1):
//
//  1. The GET of the page's address (a navigation, which cannot carry a header) answers with the
//     shell: the page's frame, its scripts and the words app.js shows, and nothing of the learner's
//     (no program, no progress, no folder). Anyone who reaches the port may have it.
//  2. app.js asks POST /api/page, with the token in its header, for the page's content (the
//     learner's program, progress, quizzes) and puts it in the frame.
//
// Whether a page exists is the course's business, not the learner's: an address of no page is
// answered 404 at once, with the page that says so.

// pageRef names one page of the course: the index (/{lang}/), a lesson (/{lang}/lessons/{topic})
// or an exercise (/{lang}/exercises/{name}).
type pageRef struct {
	lang string
	kind string // "", "lessons" or "exercises"
	arg  string // the topic or the exercise's name
}

// parsePage returns the page at p, a path as the browser's address has it (escaped); ok is false
// when p is the address of no page.
func parsePage(p string) (ref pageRef, ok bool) {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, part := range parts {
		u, err := url.PathUnescape(part)
		if err != nil {
			return pageRef{}, false
		}
		parts[i] = u
	}
	if !isLang(parts[0]) {
		return pageRef{}, false
	}
	switch {
	case len(parts) == 2 && parts[1] == "":
		return pageRef{lang: parts[0]}, true
	case len(parts) == 3 && (parts[1] == "lessons" || parts[1] == "exercises") && parts[2] != "":
		return pageRef{lang: parts[0], kind: parts[1], arg: parts[2]}, true
	}
	return pageRef{}, false
}

// exists reports whether the course has the page: what the embedded course shows anyone.
func (s *Server) exists(ref pageRef) bool {
	switch ref.kind {
	case "lessons":
		_, err := s.lessonPage(ref.arg, ref.lang)
		return err == nil
	case "exercises":
		_, err := s.findExercise(ref.arg)
		return err == nil
	}
	return true
}

// build fills d with the page's content and returns the name of its template.
func (s *Server) build(ref pageRef, d *pageData) (string, error) {
	switch ref.kind {
	case "lessons":
		return s.lesson(ref.arg, d)
	case "exercises":
		return s.exercise(ref.arg, d)
	}
	return s.index(d)
}

// shell answers the GET of a page: its frame without anything private, or the page that says
// there is no such page.
func (s *Server) shell(w http.ResponseWriter, r *http.Request) {
	ref, ok := parsePage(r.URL.EscapedPath())
	if !ok || !s.exists(ref) {
		s.notFound(w, r, langOfPath(r.URL.Path, s.cfg.Lang))
		return
	}
	d := s.newPage(ref.lang, r.URL.Path)
	d.Title = d.P.T("web_course_title")
	s.render(w, http.StatusOK, "shell", d)
}

// pageReply is a page's content, for app.js to put in the shell.
type pageReply struct {
	Status int    `json:"status"` // 200, or 404 for no such page
	Title  string `json:"title"`
	HTML   string `json:"html"`   // in place of the shell's <main>
	Footer string `json:"footer"` // the footer: where progress is kept
}

// apiPage answers POST /api/page: the content of the page at req.Path, the learner's program and
// progress in it. It changes nothing.
func (s *Server) apiPage(ctx context.Context, _ *i18n.Printer, req *request) (any, error) {
	ref, ok := parsePage(req.Path)
	lang := ref.lang
	if !ok {
		lang = langOfPath(req.Path, s.cfg.Lang)
	}
	shown, err := url.PathUnescape(req.Path)
	if err != nil {
		shown = req.Path
	}
	d := s.newPage(lang, shown)
	name, status := "", http.StatusOK
	if ok {
		name, err = s.build(ref, d)
		if err != nil && !errors.Is(err, errNotFound) {
			return nil, err
		}
	}
	if name == "" {
		name, status = "notfound", http.StatusNotFound
		d.Title = d.P.T("web_not_found_title")
		d.Body = shown
	}
	reply := &pageReply{Status: status, Title: d.Title}
	var html, footer strings.Builder
	t := s.pages[name]
	if err := t.ExecuteTemplate(&html, "content", d); err != nil {
		return nil, err
	}
	if err := t.ExecuteTemplate(&footer, "footer", d); err != nil {
		return nil, err
	}
	reply.HTML, reply.Footer = html.String(), footer.String()
	return reply, nil
}
