package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/learn"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/report"
)

// The learner's program is the file main.go in the exercise's folder of the place (workspace or
// clone), the same folder `workbook check` checks. Outside a place the editor starts from the
// starter, the browser keeps the draft, and a check runs on a scratch copy.
const learnerFile = "main.go"

type indexBody struct {
	Groups    []indexGroup
	Passed    int
	Total     int
	HintsUsed int
}

type indexGroup struct {
	Topic     string // "" for exercises of no lesson
	Title     string
	Summary   string
	Opened    bool
	Quiz      string // the best quiz score, in words
	Exercises []indexExercise
}

type indexExercise struct {
	Name       string
	Title      string
	Difficulty string
	Minutes    int
	Status     string
	StatusText string
}

// index shows the lessons in course order, each with its exercises and the learner's progress.
func (s *Server) index(d *pageData) (string, error) {
	p := d.P
	d.Title = p.T("web_course_title")
	st := s.state()
	lessons, err := s.topicsIn(d.Lang)
	if err != nil {
		return "", err
	}
	exercises, err := s.cfg.Course.Exercises()
	if err != nil {
		return "", err
	}
	body := &indexBody{Total: len(exercises)}
	if st != nil {
		body.HintsUsed = st.HintsUsed()
	}
	at := map[string]int{}
	for _, lp := range lessons {
		g := indexGroup{Topic: lp.topic, Title: lp.l.Meta.Title, Summary: lp.l.Meta.Summary}
		if st != nil {
			_, g.Opened = st.Lessons[lp.topic]
			if q := st.Quizzes[lp.topic]; q != nil {
				g.Quiz = p.N("web_quiz_best", q.Best, "Total", q.Total)
			}
		}
		at[lp.topic] = len(body.Groups)
		body.Groups = append(body.Groups, g)
	}
	// One course order, the one every command uses: the exercises in the order of their
	// exercise.yaml, each under the first lesson (in course order) that lists it, or else the lesson
	// its exercise.yaml names.
	listedIn := map[string]int{}
	for i := len(lessons) - 1; i >= 0; i-- {
		for _, name := range lessons[i].l.Meta.Exercises {
			listedIn[name] = i
		}
	}
	add := func(i int, ex *course.Exercise) {
		ie := s.exerciseItem(p, d.Lang, ex, st)
		if ie.Status == string(progress.Passed) {
			body.Passed++
		}
		body.Groups[i].Exercises = append(body.Groups[i].Exercises, ie)
	}
	for _, ex := range exercises {
		if i, ok := listedIn[ex.Name]; ok {
			add(i, ex)
			continue
		}
		i, ok := at[ex.Lesson]
		if !ok {
			i = len(body.Groups)
			at[ex.Lesson] = i
			body.Groups = append(body.Groups, indexGroup{Title: p.T("web_other_exercises")})
		}
		add(i, ex)
	}
	d.Body = body
	return "index", nil
}

// exerciseItem is an exercise as lists show it, with its status in st (nil: not started).
func (s *Server) exerciseItem(p *i18n.Printer, lang string, ex *course.Exercise, st *progress.State) indexExercise {
	var status progress.Status = progress.NotStarted
	if st != nil {
		status = st.Lookup(ex.Name).Status()
	}
	return indexExercise{Name: ex.Name, Title: ex.Title(lang), Minutes: ex.Minutes,
		Difficulty: p.T(fmt.Sprintf("web_difficulty_%d", min(max(ex.Difficulty, 1), 3))),
		Status:     string(status), StatusText: p.T("web_status_" + string(status))}
}

// topicsIn returns the lessons in lang, in course order.
func (s *Server) topicsIn(lang string) ([]*lessonPage, error) {
	all, err := s.topics()
	if err != nil {
		return nil, err
	}
	list := make([]*lessonPage, 0, len(all))
	for _, lp := range all {
		lp, err := s.lessonPage(lp.topic, lang)
		if err != nil {
			return nil, err
		}
		list = append(list, lp)
	}
	return list, nil
}

type lessonBody struct {
	Topic     string
	HTML      template.HTML
	Headings  []tocEntry
	Exercises []indexExercise
	Prev      *lessonLink
	Next      *lessonLink
	Quizzes   int
	Score     string // the best score so far
}

type tocEntry struct{ ID, Text string }

type lessonLink struct{ Topic, Title string }

// lesson shows a lesson and notes, in the learner's progress, that it was opened.
func (s *Server) lesson(topic string, d *pageData) (string, error) {
	lp, err := s.lessonPage(topic, d.Lang)
	if err != nil {
		return "", err
	}
	d.Title = lp.l.Meta.Title
	body := &lessonBody{Topic: topic, HTML: lp.html, Quizzes: len(lp.l.Quizzes)}
	for _, h := range lp.l.Headings {
		if h.Level == 2 {
			body.Headings = append(body.Headings, tocEntry{ID: h.ID, Text: h.Text})
		}
	}
	all, err := s.topicsIn(d.Lang)
	if err != nil {
		return "", err
	}
	for i, o := range all {
		if o.topic != topic {
			continue
		}
		if i > 0 {
			body.Prev = &lessonLink{all[i-1].topic, all[i-1].l.Meta.Title}
		}
		if i+1 < len(all) {
			body.Next = &lessonLink{all[i+1].topic, all[i+1].l.Meta.Title}
		}
	}
	// A GET changes nothing: the page's script records the opening with a POST to /api/open.
	st := s.state()
	listed := map[string]bool{}
	for _, name := range lp.l.Meta.Exercises {
		listed[name] = true
	}
	if all, err := s.cfg.Course.Exercises(); err == nil {
		for _, ex := range all { // in course order, as every list of the course
			if listed[ex.Name] {
				body.Exercises = append(body.Exercises, s.exerciseItem(d.P, d.Lang, ex, st))
			}
		}
	}
	if st != nil {
		if q := st.Quizzes[topic]; q != nil {
			body.Score = d.P.N("web_quiz_best", q.Best, "Total", q.Total)
		}
	}
	d.Body = body
	return "lesson", nil
}

type exerciseBody struct {
	Name       string
	Title      string
	Statement  template.HTML
	Lesson     *lessonLink
	Difficulty string
	Minutes    int
	Status     string
	StatusText string
	Code       string
	Editor     template.HTML
	Hash       string // of the file as it was read ("" when there is none yet)
	File       string // where the program is kept, or ""
	FileShown  string // the same, relative to the place
	CodeLang   string // the language of the program and its transcripts
	LangNote   string
	Hints      []template.HTML
	HintTotal  int
	Draft      string        // localStorage key of the draft, outside a place
	Reset      string        // what the Reset button asks first; "" outside a workspace (no button)
	Restore    *restoreOffer // the kept version the Restore button brings back; nil when none is kept
}

// exercise shows an exercise: the statement, the learner's program in an editor, Check, hints.
func (s *Server) exercise(name string, d *pageData) (string, error) {
	ex, err := s.findExercise(name)
	if err != nil {
		return "", err
	}
	p := d.P
	statement, err := ex.Statement(d.Lang)
	if err != nil {
		return "", err
	}
	body := &exerciseBody{Name: ex.Name, Title: ex.Title(d.Lang), Minutes: ex.Minutes,
		Difficulty: p.T(fmt.Sprintf("web_difficulty_%d", min(max(ex.Difficulty, 1), 3)))}
	if body.Statement, err = renderMarkdown(dropTitle(statement), true); err != nil {
		return "", err
	}
	if lp, err := s.lessonPage(ex.Lesson, d.Lang); err == nil {
		body.Lesson = &lessonLink{lp.topic, lp.l.Meta.Title}
	}
	body.CodeLang = s.codeLang(d.Lang)
	if body.CodeLang != d.Lang {
		body.LangNote = p.T("web_code_lang_note", "Lang", p.T("web_lang_"+body.CodeLang))
	}
	code, hash, file, err := s.learnerCode(ex, body.CodeLang)
	if err != nil {
		return "", err
	}
	body.Code, body.Hash, body.File = code, hash, file
	if file != "" {
		body.FileShown = file
		if rel, err := filepath.Rel(s.cfg.Place.Root, file); err == nil && !strings.HasPrefix(rel, "..") {
			body.FileShown = filepath.ToSlash(rel)
		}
	}
	s.replaceButtons(body, ex, p)
	var ed strings.Builder
	writeEditor(&ed, strings.TrimSuffix(code, "\n"), p.T("web_editor_exercise", "Name", ex.Name))
	body.Editor = template.HTML(ed.String())
	if file == "" {
		body.Draft = fmt.Sprintf("exercise/%s/%s/%s", ex.Name, body.CodeLang, hashOf(code))
	}
	hints, err := ex.Hints(d.Lang)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	body.HintTotal = len(hints)
	var status progress.Status = progress.NotStarted
	if st := s.state(); st != nil {
		x := st.Lookup(ex.Name)
		status = x.Status()
		if x != nil {
			for _, h := range hints[:min(x.Hints, len(hints))] {
				html, err := renderMarkdown(h, false)
				if err != nil {
					return "", err
				}
				body.Hints = append(body.Hints, html)
			}
		}
	}
	body.Status, body.StatusText = string(status), p.T("web_status_"+string(status))
	d.Title = body.Title
	d.Body = body
	return "exercise", nil
}

// dropTitle removes the statement's first-level heading: the page shows the title itself.
func dropTitle(md string) string {
	if strings.HasPrefix(md, "# ") {
		if _, rest, ok := strings.Cut(md, "\n"); ok {
			return rest
		}
	}
	return md
}

func (s *Server) findExercise(name string) (*course.Exercise, error) {
	ex, err := s.cfg.Course.Exercise(name)
	if errors.Is(err, course.ErrUnknownExercise) {
		return nil, errNotFound
	}
	return ex, err
}

// codeLang is the language of the learner's programs: a workspace's own, else the page's.
func (s *Server) codeLang(pageLang string) string {
	if p := s.cfg.Place; p != nil && isLang(p.Lang) {
		return p.Lang
	}
	return pageLang
}

// learnerCode reads the learner's program for ex: the file in the place (its text, its hash and
// its path), or the starter when there is no place or no file yet (hash "").
func (s *Server) learnerCode(ex *course.Exercise, lang string) (code, hash, file string, err error) {
	if p := s.cfg.Place; p != nil {
		file = filepath.Join(p.Dir(ex, lang), learnerFile)
		data, err := os.ReadFile(file)
		if err == nil {
			return string(data), hashOf(string(data)), file, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", "", "", err
		}
	}
	data, err := fs.ReadFile(s.cfg.Course.FS(), path.Join(ex.StarterDir(lang), learnerFile))
	if err != nil {
		return "", "", "", err
	}
	return string(data), "", file, nil
}

// save writes code to the learner's file, unless the file changed on disk since the editor read it
// (base is the hash it had then).
func (s *Server) save(p *i18n.Printer, ex *course.Exercise, lang, code, base string) (string, error) {
	pl := s.cfg.Place
	if pl == nil {
		return "", &apiError{http.StatusConflict, p.T("web_err_no_place")}
	}
	dir := pl.Dir(ex, lang)
	file := filepath.Join(dir, learnerFile)
	old, err := os.ReadFile(file)
	switch {
	case err == nil:
		if hashOf(string(old)) != base && string(old) != code {
			return "", &apiError{http.StatusConflict, p.T("web_err_changed", "File", file)}
		}
	case errors.Is(err, fs.ErrNotExist):
		if base != "" {
			return "", &apiError{http.StatusConflict, p.T("web_err_changed", "File", file)}
		}
	default:
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".main.go.tmp-*")
	if err != nil {
		return "", err
	}
	_, werr := tmp.WriteString(code)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), file)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", werr
	}
	return hashOf(code), nil
}

type saveReply struct {
	Hash    string `json:"hash"`
	Message string `json:"message"`
}

func (s *Server) apiSave(ctx context.Context, p *i18n.Printer, req *request) (any, error) {
	ex, err := s.apiExercise(p, req.Exercise)
	if err != nil {
		return nil, err
	}
	hash, err := s.save(p, ex, s.codeLang(req.Lang), normalizeCode(req.Code), req.Base)
	if err != nil {
		return nil, err
	}
	return &saveReply{Hash: hash, Message: p.T("web_saved")}, nil
}

type checkReply struct {
	Verdict string        `json:"verdict"`
	Passed  int           `json:"passed"`
	Total   int           `json:"total"`
	Report  template.HTML `json:"report"`
	Hash    string        `json:"hash,omitempty"` // the saved file's new hash
	Status  string        `json:"status"`         // the exercise's status afterwards
	Text    string        `json:"status_text"`
	// Note says, when a failing check of the pristine starter kept a pass, that it did and why.
	Note string `json:"note,omitempty"`
	// Says is what the terminal says after the same check's report (learn.Session.Says): the pass
	// kept, then what to do next, commands and all.
	Says []string `json:"says,omitempty"`
	// Next is what to do next (learn.Checked.Next), with a link to its page; nil when there is
	// nothing to suggest.
	Next *nextLink `json:"next,omitempty"`
	// Charts are the charts of the scenario cases (report.ScenarioFigures), which charts.js draws:
	// the figures the report says, drawn from the series the run measured.
	Charts template.HTML `json:"charts,omitempty"`
}

type nextLink struct {
	Kind     string `json:"kind"`               // course.StepKind: start, read, hint or done
	Exercise string `json:"exercise,omitempty"` // the exercise it is about
	Lesson   string `json:"lesson,omitempty"`   // the lesson to read first
	URL      string `json:"url,omitempty"`
	Text     string `json:"text"`
}

// apiCheck saves the learner's program (in a place) and checks it as `workbook check` does, through
// the same learn.Session: the same cases, limits and report, the verdict recorded in the same
// progress file, the same next step.
func (s *Server) apiCheck(ctx context.Context, p *i18n.Printer, req *request) (any, error) {
	ex, err := s.apiExercise(p, req.Exercise)
	if err != nil {
		return nil, err
	}
	lang := s.codeLang(req.Lang)
	code := normalizeCode(req.Code)
	reply := &checkReply{}
	var dir string
	if s.cfg.Place != nil {
		if reply.Hash, err = s.save(p, ex, lang, code, req.Base); err != nil {
			return nil, err
		}
		dir = s.cfg.Place.Dir(ex, lang)
	} else {
		tmp, err := checker.TempDir("webcheck")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if err := s.cfg.Course.Extract(ex.StarterDir(lang), tmp); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, learnerFile), []byte(code), 0o644); err != nil {
			return nil, err
		}
		dir = tmp
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	ss := s.session(lang, p)
	c, err := ss.Check(ctx, learn.CheckRequest{Exercise: ex, Dir: dir, Limits: s.cfg.Limits,
		Parallel: s.cfg.Jobs, Mine: s.cfg.Place != nil})
	release()
	if c == nil {
		return nil, err
	}
	if err != nil {
		s.logf("%v", err) // the check is done and told; its record could not be kept
	}
	if s.cfg.Place == nil {
		c.Result.Dir = p.T("web_browser_draft")
	}
	var buf bytes.Buffer
	ss.Report(&buf, c, learn.Look{Color: true})
	res := c.Result
	reply.Verdict, reply.Passed, reply.Total = string(res.Verdict), res.Passed, res.Total
	reply.Report = ansiHTML(buf.String())
	var charts strings.Builder
	if report.ScenarioFigures(&charts, p, res.Redacted(), "scenario") {
		reply.Charts = template.HTML(charts.String())
	}
	reply.Status, reply.Text = string(c.Status), p.T("web_status_"+string(c.Status))
	if c.KeptPass {
		reply.Note = p.T("check_starter_kept_pass", "Name", ex.Name)
	}
	reply.Says = ss.Says(c)
	reply.Next = s.nextLink(p, req.Lang, ss, c.Next)
	return reply, nil
}

// nextLink is step as the browser links to it: the page of the exercise or lesson it names, in the
// page's language lang.
func (s *Server) nextLink(p *i18n.Printer, lang string, ss *learn.Session, step course.NextStep) *nextLink {
	n := &nextLink{Kind: string(step.Kind)}
	if step.Exercise != nil {
		n.Exercise = step.Exercise.Name
	}
	switch step.Kind {
	case "":
		return nil
	case course.StartExercise:
		n.URL = "/" + lang + "/exercises/" + step.Exercise.Name
		n.Text = p.T("web_next_exercise", "Title", step.Exercise.Title(lang))
	case course.ReadLesson:
		n.Lesson = step.Lesson.Topic
		n.URL = "/" + lang + "/lessons/" + step.Lesson.Topic
		n.Text = p.T("web_next_lesson", "Title", step.Lesson.Title)
	default:
		n.Text = ss.NextText(step)
	}
	return n
}

type hintReply struct {
	Hints []template.HTML `json:"hints"`
	Total int             `json:"total"`
}

// apiHint gives one more hint, as `workbook hint` does (learn.Session.Hint), and records it in a
// place.
func (s *Server) apiHint(ctx context.Context, p *i18n.Printer, req *request) (any, error) {
	ex, err := s.apiExercise(p, req.Exercise)
	if err != nil {
		return nil, err
	}
	h, err := s.session(req.Lang, p).Hint(learn.HintRequest{Exercise: ex, Shown: req.Shown})
	if errors.Is(err, learn.ErrNoHints) {
		return nil, &apiError{http.StatusNotFound, p.T("web_err_no_hints", "Name", ex.Name)}
	}
	if err != nil {
		return nil, err
	}
	reply := &hintReply{Total: h.Total}
	for _, step := range h.Given() {
		html, err := renderMarkdown(step, false)
		if err != nil {
			return nil, err
		}
		reply.Hints = append(reply.Hints, html)
	}
	return reply, nil
}

func (s *Server) apiExercise(p *i18n.Printer, name string) (*course.Exercise, error) {
	ex, err := s.findExercise(name)
	if errors.Is(err, errNotFound) {
		return nil, &apiError{http.StatusNotFound, p.T("web_err_no_exercise", "Name", name)}
	}
	return ex, err
}

// normalizeCode turns CRLF into LF and makes the file end with a newline.
func normalizeCode(code string) string {
	code = strings.ReplaceAll(code, "\r\n", "\n")
	if code != "" && !strings.HasSuffix(code, "\n") {
		code += "\n"
	}
	return code
}
