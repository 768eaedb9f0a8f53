package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/web/static"
)

//go:embed templates/*.html
var templateFS embed.FS

// Config is what a Server serves and how.
type Config struct {
	Course *course.Course // the course (lessons, exercises, solutions)
	Lang   string         // the language pages open in: bg or ru
	// Messages is the message language the learner chose (en, ru or bg) for the page's own words:
	// menus, buttons, status, legends, errors. "" lets them follow each page's content language.
	Messages string
	Place    *Place         // the learner's workspace or clone; nil outside both (nothing is saved)
	Addr     string         // the address the server listens on, host:port, for the Host check
	Token    string         // the session token; New makes one when empty
	Limits   checker.Limits // for snippet runs and checks (the checker's defaults when zero)
	Jobs     int            // programs built or run at once (default 2)
	Log      io.Writer      // where the server tells about problems it works around (nil: nowhere)
	Now      func() time.Time
	// Rewrite, when set, rewrites the commands a message suggests ("workbook hint X") into the
	// invocation that runs where the learner works (workspace.Runnable), as the terminal does.
	Rewrite func(string) string
}

// Server serves the course. It is an http.Handler.
type Server struct {
	cfg    Config
	guard  *guard
	mux    *http.ServeMux
	pages  map[string]*template.Template
	assets map[string]asset
	jobs   chan struct{}

	mu      sync.Mutex
	lessons map[string]*lessonPage // by lang/topic
	runs    *runCache

	quizMu   sync.Mutex          // guards attempts
	attempts map[string]*attempt // quiz answers by topic
	logMu    sync.Mutex
}

type asset struct {
	body  []byte
	ctype string
	etag  string
}

// New returns a server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Course == nil {
		return nil, errors.New("web: no course")
	}
	if !isLang(cfg.Lang) {
		cfg.Lang = "bg"
	}
	if cfg.Token == "" {
		cfg.Token = NewToken()
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = 2
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{
		cfg:      cfg,
		guard:    newGuard(cfg.Addr, cfg.Token),
		mux:      http.NewServeMux(),
		pages:    map[string]*template.Template{},
		assets:   map[string]asset{},
		jobs:     make(chan struct{}, cfg.Jobs),
		lessons:  map[string]*lessonPage{},
		runs:     newRunCache(64),
		attempts: map[string]*attempt{},
	}
	if err := s.loadTemplates(); err != nil {
		return nil, err
	}
	if err := s.loadAssets(); err != nil {
		return nil, err
	}
	s.routes()
	return s, nil
}

// Token returns the session token: the command hands it to the learner in the address it prints.
func (s *Server) Token() string { return s.cfg.Token }

func (s *Server) routes() {
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/"+s.cfg.Lang+"/", http.StatusFound)
	})
	s.mux.HandleFunc("GET /static/{file}", s.static)
	s.mux.HandleFunc("POST /api/page", s.api(s.apiPage))
	s.mux.HandleFunc("POST /api/run", s.api(s.apiRun))
	s.mux.HandleFunc("POST /api/quiz", s.api(s.apiQuiz))
	s.mux.HandleFunc("POST /api/save", s.api(s.apiSave))
	s.mux.HandleFunc("POST /api/check", s.api(s.apiCheck))
	s.mux.HandleFunc("POST /api/hint", s.api(s.apiHint))
	s.mux.HandleFunc("POST /api/reset", s.api(s.apiReset))
	s.mux.HandleFunc("POST /api/restore", s.api(s.apiRestore))
	s.mux.HandleFunc("POST /api/open", s.api(s.apiOpen))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		s.shell(w, r)
	})
}

// ServeHTTP checks the Host of every request, and the token and origin of every POST, before
// anything else. A GET gets only what is not private (see shell.go); what is private comes from
// the API, with the token.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secure(w.Header())
	code, id := s.guard.check(r, r.Method == http.MethodPost)
	if code != 0 {
		lang := langOfPath(r.URL.Path, s.cfg.Lang)
		if r.Method == http.MethodPost {
			writeJSON(w, code, map[string]string{"error": s.ui(lang).T(id)})
		} else {
			http.Error(w, s.ui(lang).T(id), code)
		}
		return
	}
	s.mux.ServeHTTP(w, r)
}

// pageData is what every page template sees.
type pageData struct {
	Lang    string
	Other   string // the other content language
	Title   string
	P       *i18n.Printer
	Here    string // the path below /{lang}/, for the language switch
	Version string // of the assets, to keep caches fresh
	Place   *Place
	JS      map[string]string // the messages app.js shows
	Body    any
}

// jsMessages are the message IDs app.js needs, by its own names.
var jsMessages = map[string]string{
	"error": "web_js_error", "offline": "web_js_offline", "running": "web_js_running",
	"your_output": "web_js_your_output", "verified_output": "web_js_verified_output",
	"choose_first": "web_js_choose_first", "checking": "web_js_checking", "fixed_line": "web_js_fixed_line",
	"check_pass": "web_js_check_pass", "check_fail": "web_js_check_fail", "hint_count": "web_js_hint_count",
	"run_same": "web_js_run_same", "experiment_same": "web_js_experiment_same", "experiment_differs": "web_js_experiment_differs",
	"no_token": "web_err_no_token",
}

func (s *Server) newPage(lang, urlPath string) *pageData {
	here := strings.TrimPrefix(urlPath, "/"+lang)
	if here == "" {
		here = "/"
	}
	p := s.ui(lang)
	js := map[string]string{}
	for k, id := range jsMessages {
		js[k] = p.T(id)
	}
	return &pageData{
		Lang: lang, Other: otherLang(lang), P: p, Here: here,
		Version: s.assets["app.js"].etag, Place: s.cfg.Place, JS: js,
	}
}

var errNotFound = errors.New("not found")

func (s *Server) notFound(w http.ResponseWriter, r *http.Request, lang string) {
	d := s.newPage(lang, "/")
	d.Title = d.P.T("web_not_found_title")
	d.Body = r.URL.Path
	s.render(w, http.StatusNotFound, "notfound", d)
}

func (s *Server) render(w http.ResponseWriter, code int, name string, d *pageData) {
	t := s.pages[name]
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, "layout", d); err != nil {
		s.logf("template %s: %v", name, err)
		http.Error(w, d.P.T("web_err_internal", "Err", err.Error()), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	io.WriteString(w, b.String())
}

func (s *Server) loadTemplates() error {
	funcs := template.FuncMap{
		"add": func(a, b int) int { return a + b },
		"langName": func(p *i18n.Printer, l string) string {
			return p.T("web_lang_" + l)
		},
	}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return err
	}
	for _, n := range names {
		base := strings.TrimSuffix(path.Base(n), ".html")
		if base == "layout" {
			continue
		}
		t, err := template.New(base).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", n)
		if err != nil {
			return fmt.Errorf("web: template %s: %w", n, err)
		}
		s.pages[base] = t
	}
	return nil
}

func (s *Server) loadAssets() error {
	add := func(name string, body []byte, ctype string) {
		sum := sha256.Sum256(body)
		s.assets[name] = asset{body: body, ctype: ctype, etag: hex.EncodeToString(sum[:6])}
	}
	for _, f := range []struct{ name, ctype string }{
		{"app.css", "text/css; charset=utf-8"},
		{"app.js", "text/javascript; charset=utf-8"},
		{"favicon.svg", "image/svg+xml"},
		{"charts.js", "text/javascript; charset=utf-8"},        // the lesson charts (charts.go)
		{"chart.umd.min.js", "text/javascript; charset=utf-8"}, // Chart.js, vendored
		{"chart.LICENSE.txt", "text/plain; charset=utf-8"},     // its licence
	} {
		body, err := static.FS.ReadFile(f.name)
		if err != nil {
			return err
		}
		add(f.name, body, f.ctype)
	}
	add("chroma.css", chromaCSS(), "text/css; charset=utf-8")
	return nil
}

func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	a, ok := s.assets[r.PathValue("file")]
	if !ok {
		s.notFound(w, r, s.cfg.Lang)
		return
	}
	w.Header().Set("Content-Type", a.ctype)
	w.Header().Set("ETag", `"`+a.etag+`"`)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == `"`+a.etag+`"` {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write(a.body)
}

// apiError is an error an API handler answers with: an HTTP status and a message for the learner.
type apiError struct {
	code int
	msg  string
}

func (e *apiError) Error() string { return e.msg }

// api wraps an API handler: it reads the JSON request (at most 1 MiB), checks its language and
// writes the JSON answer or the error.
func (s *Server) api(h func(ctx context.Context, p *i18n.Printer, req *request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req request
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
		if err := dec.Decode(&req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": s.ui(s.cfg.Lang).T("web_err_request", "Err", err.Error())})
			return
		}
		if !isLang(req.Lang) {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": s.ui(s.cfg.Lang).T("web_err_lang", "Lang", req.Lang)})
			return
		}
		p := s.ui(req.Lang)
		out, err := h(r.Context(), p, &req)
		var ae *apiError
		switch {
		case errors.As(err, &ae):
			writeJSON(w, ae.code, map[string]string{"error": ae.msg})
		case errors.Is(err, context.Canceled):
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": p.T("web_err_cancelled")})
		case err != nil:
			s.logf("%s: %v", r.URL.Path, err)
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": p.T("web_err_internal", "Err", err.Error())})
		default:
			writeJSON(w, http.StatusOK, out)
		}
	}
}

// request is the JSON body of every API call; each uses the fields it needs.
type request struct {
	Lang     string            `json:"lang"`
	Topic    string            `json:"topic"`
	Block    int               `json:"block"`
	Edits    map[string]string `json:"edits"`
	Quiz     int               `json:"quiz"`
	Answer   string            `json:"answer"`
	Exercise string            `json:"exercise"`
	Code     string            `json:"code"`
	Base     string            `json:"base"`  // hash of the file the editor started from
	Shown    int               `json:"shown"` // hints shown so far (outside a place)
	Path     string            `json:"path"`  // the address of a page, as the browser has it

	Version int `json:"version"` // the kept version to bring back (restore)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	w.Write(report.EscapeJSON(buf.Bytes()))
}

// ui returns the message printer for a page language.
func (s *Server) ui(lang string) *i18n.Printer {
	if s.cfg.Messages != "" {
		lang = s.cfg.Messages
	}
	if s.cfg.Rewrite != nil {
		return i18n.New(lang).Rewriting(s.cfg.Rewrite)
	}
	return i18n.New(lang)
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, "workbook serve: "+format+"\n", args...)
}

// acquire waits for a free job slot (building and running are limited to cfg.Jobs at once).
func (s *Server) acquire(ctx context.Context) (func(), error) {
	select {
	case s.jobs <- struct{}{}:
		return func() { <-s.jobs }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func isLang(l string) bool { return l == "bg" || l == "ru" }

func otherLang(l string) string {
	if l == "ru" {
		return "bg"
	}
	return "ru"
}

// langOfPath returns the language a path starts with, or def.
func langOfPath(p, def string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	if isLang(first) {
		return first
	}
	return def
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}
