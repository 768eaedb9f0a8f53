package main

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/web"
	"github.com/workbook-course/workbook/internal/workspace"
)

// A learner's path through the terminal and through the browser is one path (internal/learn): the
// same scripted learner, each in a workspace of their own, solves, fails, asks for a hint, passes,
// hands in the other language's program and is told what comes next, once with `workbook` commands
// and once with the browser's HTTP API as the page's script calls it; what each is told must be the
// same, sentence for sentence (the report, what is kept, what comes next, the hints given); then
// each puts the starter back and brings their program back again, which must say and do the same
// (the same words, the same file, the same kept versions).

const parityAddr = "127.0.0.1:8080"

// parityLearner is one front end of the scripted learner.
type parityLearner interface {
	// check checks the program code of ex (saved first) and says what the learner is told.
	check(t *testing.T, ex, code string) told
	// hint asks for one more hint and says how many are given of how many.
	hint(t *testing.T, ex string) (given, total int)
	// reset puts the starter of ex back, the question before answered yes, and says what it said.
	reset(t *testing.T, ex string) string
	// restore brings the newest kept version of ex back, as reset, and says what it said.
	restore(t *testing.T, ex string) string
}

// told is what a check tells the learner: the report as text, then what follows it.
type told struct {
	verdict string
	report  string
	says    []string
	next    string // the exercise the next step is about, "" for none
}

type terminalLearner struct {
	root string
	env  func(string) string
}

func (l *terminalLearner) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var stdout, stderr syncBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: l.env}
	code := run(context.Background(), args, e)
	if code == 2 {
		t.Fatalf("workbook %s: exit 2\n%s", strings.Join(args, " "), stderr.String())
	}
	return stdout.String(), code
}

func (l *terminalLearner) check(t *testing.T, ex, code string) told {
	t.Helper()
	if err := os.WriteFile(filepath.Join(exerciseDir(t, l.root, ex), "main.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	out, exit := l.run(t, "check", ex)
	// The report, then what is kept and what comes next, then (after a failure of the learner's own
	// program) where the statement and the program are: the terminal's own line.
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var says []string
	for len(lines) > 0 {
		last := lines[len(lines)-1]
		if !strings.HasPrefix(last, "Next:") && !strings.HasPrefix(last, "Stuck?") &&
			!strings.HasPrefix(last, "This is the starter") && !strings.HasPrefix(last, "Every exercise") &&
			!strings.HasPrefix(last, "Statement:") {
			break
		}
		if !strings.HasPrefix(last, "Statement:") {
			says = append([]string{last}, says...)
		}
		lines = lines[:len(lines)-1]
	}
	verdict := "pass"
	if exit != 0 {
		verdict = "fail"
	}
	tl := told{verdict: verdict, report: strings.Join(lines, "\n") + "\n", says: says}
	if m := nextRE.FindStringSubmatch(strings.Join(says, "\n")); m != nil {
		tl.next = m[1]
	}
	return tl
}

var nextRE = regexp.MustCompile(`(?:check|hint) (exercise-[a-z-]+)`)

func (l *terminalLearner) hint(t *testing.T, ex string) (given, total int) {
	t.Helper()
	out, _ := l.run(t, "hint", ex)
	m := regexp.MustCompile(`Hint (\d+) of (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("workbook hint %s said no hint heading:\n%s", ex, out)
	}
	return atoi(t, m[1]), atoi(t, m[2])
}

func (l *terminalLearner) reset(t *testing.T, ex string) string {
	t.Helper()
	out, _ := l.run(t, "reset", ex, "--yes")
	return out
}

func (l *terminalLearner) restore(t *testing.T, ex string) string {
	t.Helper()
	out, _ := l.run(t, "restore", ex, "last", "--yes")
	return out
}

type browserLearner struct{ srv *web.Server }

func (l *browserLearner) post(t *testing.T, target string, body any, reply any) {
	t.Helper()
	data, _ := json.Marshal(body)
	r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(string(data)))
	r.Host = parityAddr
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Origin", "http://"+parityAddr)
	r.Header.Set(web.TokenHeader, "parity-token")
	w := httptest.NewRecorder()
	l.srv.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("%s: %d %s", target, w.Code, w.Body.String())
	}
	if err := json.Unmarshal(w.Body.Bytes(), reply); err != nil {
		t.Fatalf("%s: %v", target, err)
	}
}

var hashRE = regexp.MustCompile(`data-hash="([0-9a-f]*)"`)

func (l *browserLearner) check(t *testing.T, ex, code string) told {
	t.Helper()
	// As the page does: it opens with the hash of the file it shows, and a check saves over it.
	var page struct {
		HTML string `json:"html"`
	}
	l.post(t, "/api/page", map[string]any{"lang": "ru", "path": "/ru/exercises/" + ex}, &page)
	m := hashRE.FindStringSubmatch(page.HTML)
	if m == nil {
		t.Fatalf("the page of %s has no data-hash", ex)
	}
	var reply struct {
		Verdict string   `json:"verdict"`
		Report  string   `json:"report"`
		Says    []string `json:"says"`
		Next    *struct {
			Exercise string `json:"exercise"`
		} `json:"next"`
	}
	l.post(t, "/api/check", map[string]any{"lang": "ru", "exercise": ex, "code": code, "base": m[1]}, &reply)
	tl := told{verdict: reply.Verdict, report: html.UnescapeString(tagRE.ReplaceAllString(reply.Report, "")), says: reply.Says}
	if reply.Next != nil {
		tl.next = reply.Next.Exercise
	}
	return tl
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// replace presses the page's Reset or Restore button as its script does: what the editor holds
// (the file it read) goes along with the hash it read it with, and, for Restore, the version the
// button names.
func (l *browserLearner) replace(t *testing.T, target, ex string) string {
	t.Helper()
	var page struct {
		HTML string `json:"html"`
	}
	l.post(t, "/api/page", map[string]any{"lang": "ru", "path": "/ru/exercises/" + ex}, &page)
	hash, button := hashRE.FindStringSubmatch(page.HTML), "reset-starter"
	body := map[string]any{"lang": "ru", "exercise": ex, "base": hash[1]}
	if target == "/api/restore" {
		button = "restore"
		m := versionRE.FindStringSubmatch(page.HTML)
		if m == nil {
			t.Fatalf("the page of %s offers no version to restore", ex)
		}
		body["version"] = atoi(t, m[1])
	}
	if !strings.Contains(page.HTML, `class="button `+button+`"`) {
		t.Fatalf("the page of %s has no %s button", ex, button)
	}
	m := editorRE.FindStringSubmatch(page.HTML)
	if m == nil {
		t.Fatalf("the page of %s has no editor", ex)
	}
	body["code"] = html.UnescapeString(m[1])
	var reply struct {
		Message string `json:"message"`
	}
	l.post(t, target, body, &reply)
	return reply.Message + "\n"
}

var (
	versionRE = regexp.MustCompile(`class="button restore" data-n="(\d+)"`)
	editorRE  = regexp.MustCompile(`(?s)<textarea[^>]*>(.*?)</textarea>`)
)

func (l *browserLearner) reset(t *testing.T, ex string) string { return l.replace(t, "/api/reset", ex) }

func (l *browserLearner) restore(t *testing.T, ex string) string {
	return l.replace(t, "/api/restore", ex)
}

func (l *browserLearner) hint(t *testing.T, ex string) (given, total int) {
	t.Helper()
	var reply struct {
		Hints []string `json:"hints"`
		Total int      `json:"total"`
	}
	l.post(t, "/api/hint", map[string]any{"lang": "ru", "exercise": ex}, &reply)
	return len(reply.Hints), reply.Total
}

// newParityWorkspace makes a workspace in Russian, messages in English, with `workbook init`, and
// the environment its commands see.
func newParityWorkspace(t *testing.T) (string, func(string) string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "course")
	getenv := func(k string) string {
		switch k {
		case "NO_COLOR":
			return "1"
		case "HOME":
			return filepath.Dir(root)
		}
		return ""
	}
	var stdout, stderr syncBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: getenv}
	if code := run(context.Background(), []string{"init", root, "--lang", "ru", "--messages", "en"}, e); code != 0 {
		t.Fatalf("workbook init: exit %d\n%s", code, stderr.String())
	}
	return root, getenv
}

// newBrowser serves the workspace at root as `workbook serve` does there (its web.Config).
func newBrowser(t *testing.T, root string, getenv func(string) string) *browserLearner {
	t.Helper()
	t.Chdir(root)
	var stderr syncBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &syncBuffer{}, stderr: &stderr, getenv: getenv,
		course: course.New(workbook.Content())}
	if err := e.decideLangs("", ""); err != nil {
		t.Fatal(err)
	}
	p, err := e.keepWorkspace()
	if err != nil || p == nil {
		t.Fatalf("the workspace at %s: %v", root, err)
	}
	cfg := e.webConfig(p, 2*time.Second)
	cfg.Addr, cfg.Token = parityAddr, "parity-token"
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &browserLearner{srv: srv}
}

func TestTerminalAndBrowserAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and checks programs")
	}
	const ex = "exercise-timeout"
	read := func(p string) string {
		data, err := os.ReadFile(filepath.Join(repoRoot, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	starter, solution, other := read("exercises/"+ex+"/ru/main.go"), read("solutions/"+ex+"/ru/main.go"), read("solutions/"+ex+"/bg/main.go")

	termRoot, termEnv := newParityWorkspace(t)
	webRoot, webEnv := newParityWorkspace(t)
	browser := newBrowser(t, webRoot, webEnv)
	term := &terminalLearner{root: termRoot, env: termEnv}
	t.Chdir(termRoot)
	learners := []parityLearner{term, browser}
	norm := func(s, root string) string {
		dir := exerciseDir(t, root, ex)
		s = strings.ReplaceAll(s, dir, "DIR")
		if rel, err := filepath.Rel(root, dir); err == nil {
			s = strings.ReplaceAll(s, rel, "DIR")
		}
		return dropDrawn(seedRE.ReplaceAllString(s, "--seed N"))
	}
	roots := []string{termRoot, webRoot}

	steps := []struct {
		name    string
		code    string
		hint    bool
		verdict string
		next    string // the exercise the next step names
		says    string // in what follows the report
		report  string // in the report
	}{
		{name: "starter", code: starter, verdict: "fail", next: ex, says: "workbook hint " + ex},
		{name: "hint", hint: true},
		{name: "hint again", hint: true},
		{name: "solved", code: solution, verdict: "pass", next: "exercise-retry", says: "workbook check exercise-retry"},
		{name: "other language", code: other, verdict: "fail", next: ex, report: "Bulgarian"},
		{name: "solved again", code: solution, verdict: "pass", next: "exercise-retry"},
	}
	for _, st := range steps {
		if st.hint {
			tg, tt := term.hint(t, ex)
			bg, bt := browser.hint(t, ex)
			if tg != bg || tt != bt || tg == 0 {
				t.Errorf("%s: the terminal gave hint %d of %d, the browser %d of %d", st.name, tg, tt, bg, bt)
			}
			continue
		}
		var said [2]told
		for i, l := range learners {
			said[i] = l.check(t, ex, st.code)
			said[i].report = norm(said[i].report, roots[i])
		}
		tm, br := said[0], said[1]
		if tm.verdict != st.verdict || br.verdict != st.verdict {
			t.Errorf("%s: verdicts %s (terminal), %s (browser), want %s", st.name, tm.verdict, br.verdict, st.verdict)
		}
		if tm.report != br.report {
			t.Errorf("%s: the reports differ\nterminal:\n%s\nbrowser:\n%s", st.name, tm.report, br.report)
		}
		if strings.Join(tm.says, "\n") != strings.Join(br.says, "\n") {
			t.Errorf("%s: after the report the terminal says %q, the browser %q", st.name, tm.says, br.says)
		}
		if tm.next != st.next || br.next != st.next {
			t.Errorf("%s: next %q (terminal), %q (browser), want %q", st.name, tm.next, br.next, st.next)
		}
		if !strings.Contains(strings.Join(tm.says, "\n"), st.says) {
			t.Errorf("%s: the terminal says %q, want %q in it", st.name, tm.says, st.says)
		}
		if !strings.Contains(tm.report, st.report) {
			t.Errorf("%s: the report does not say %q:\n%s", st.name, st.report, tm.report)
		}
	}
	replaceAgree(t, learners, roots, norm, starter, solution)
}

// replaceAgree puts the starter back through each front end, then brings the learner's program
// back: each must say the same, leave the same file and keep the same versions.
func replaceAgree(t *testing.T, learners []parityLearner, roots []string, norm func(s, root string) string, starter, solution string) {
	t.Helper()
	const name = "exercise-timeout"
	ex, err := course.New(workbook.Content()).Exercise(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		name string
		do   func(l parityLearner) string
		file string // what the learner's main.go holds afterwards
		says string // in what the learner is told
		kept int    // versions kept afterwards
	}{
		{"reset", func(l parityLearner) string { return l.reset(t, name) }, starter, "is kept as version 1", 1},
		{"restore", func(l parityLearner) string { return l.restore(t, name) }, solution, "Version 1 of " + name + " is back", 1},
	} {
		var said, files [2]string
		var kept [2]int
		for i, l := range learners {
			said[i] = norm(st.do(l), roots[i])
			data, err := os.ReadFile(filepath.Join(exerciseDir(t, roots[i], name), "main.go"))
			if err != nil {
				t.Fatal(err)
			}
			files[i] = string(data)
			list, err := workspace.Find(roots[i]).Versions(ex, "ru")
			if err != nil {
				t.Fatal(err)
			}
			kept[i] = len(list)
		}
		if said[0] != said[1] {
			t.Errorf("%s: the terminal says %q, the browser %q", st.name, said[0], said[1])
		}
		if !strings.Contains(said[0], st.says) {
			t.Errorf("%s: the terminal says %q, want %q in it", st.name, said[0], st.says)
		}
		if files[0] != st.file || files[1] != st.file {
			t.Errorf("%s: the terminal left the file right: %v, the browser: %v", st.name, files[0] == st.file, files[1] == st.file)
		}
		if kept[0] != st.kept || kept[1] != st.kept {
			t.Errorf("%s: %d versions kept by the terminal, %d by the browser, want %d", st.name, kept[0], kept[1], st.kept)
		}
	}
}

var seedRE = regexp.MustCompile(`--seed \d+`)

// exerciseDir is the folder of the learner's program for the exercise name in the workspace at
// root, in Russian.
func exerciseDir(t *testing.T, root, name string) string {
	t.Helper()
	ex, err := course.New(workbook.Content()).Exercise(name)
	if err != nil {
		t.Fatal(err)
	}
	return workspace.Find(root).ExerciseDir(ex, "ru")
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// dropDrawn leaves out the drawn cases (their titles and what they say under them: the arguments,
// the command that draws them again) and the number of cases passed: drawn afresh at each check,
// they differ from check to check whichever front end asks.
func dropDrawn(report string) string {
	var out []string
	drawn := false
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, "✗ ") || strings.HasPrefix(line, "✓ ") || line == "" {
			drawn = strings.Contains(line, "drawn")
		}
		if drawn {
			continue
		}
		out = append(out, passedRE.ReplaceAllString(line, "N cases of M passed"))
	}
	return strings.Join(out, "\n")
}

// passedRE is the count of a report's closing line, which counts the drawn cases too: a drawn case
// that happens to be a usage error passes even in the other language, so the count is not the same
// from one check to the next (the cases the two front ends drew are not the same).
var passedRE = regexp.MustCompile(`\b\d+ cases? of \d+ passed`)
