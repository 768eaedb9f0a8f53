package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/progress"
)

const testAddr = "127.0.0.1:8080"

// newTestServer returns a server for the embedded course; with a place it keeps progress and
// programs in a temporary folder laid out as a clone (exercises/<name>/<lang>/main.go).
func newTestServer(t *testing.T, withPlace bool) (*Server, *Place) {
	t.Helper()
	c := course.New(workbook.Content())
	cfg := Config{Course: c, Lang: "ru", Addr: testAddr, Token: "test-token",
		Limits: checker.Limits{RunTime: 20 * time.Second}}
	if withPlace {
		root := t.TempDir()
		cfg.Place = &Place{
			Root:      root,
			StatePath: filepath.Join(root, progress.FileName),
			Dir: func(ex *course.Exercise, lang string) string {
				return filepath.Join(root, filepath.FromSlash(ex.StarterDir(lang)))
			},
			Fresh: func() *progress.State { return progress.New("", time.Now()) },
			// As the workspace's own test, reduced to the one file a check reads.
			Pristine: func(ex *course.Exercise, lang string) bool {
				got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ex.StarterDir(lang)), learnerFile))
				want, _ := fs.ReadFile(c.FS(), path.Join(ex.StarterDir(lang), learnerFile))
				return err == nil && bytes.Equal(got, want)
			},
		}
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, cfg.Place
}

// get asks for a page as the learner's browser does: the page's address answers with its shell,
// and the shell's script asks POST /api/page, with the token, for the content it puts in the shell.
// What get returns is the page as the browser then holds it, with the status of its content; any
// other answer (a redirection, a static file, a page of no page) as it came.
func get(s *Server, target string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.Host = testAddr
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	shell := w.Body.String()
	if w.Code != http.StatusOK || !shellMain.MatchString(shell) {
		return w
	}
	pw := post(s, "/api/page", map[string]any{"lang": langOfPath(r.URL.Path, "ru"), "path": r.URL.EscapedPath()})
	var reply pageReply
	if pw.Code != http.StatusOK || json.Unmarshal(pw.Body.Bytes(), &reply) != nil {
		return pw
	}
	page := shellMain.ReplaceAllLiteralString(shell, reply.HTML)
	page = strings.Replace(page, `id="page-footer"></footer>`, `id="page-footer">`+reply.Footer+`</footer>`, 1)
	page = titleRE.ReplaceAllLiteralString(page, "<title>"+reply.Title+" · workbook</title>")
	out := httptest.NewRecorder()
	maps.Copy(out.Header(), w.Header())
	out.WriteHeader(reply.Status)
	out.WriteString(page)
	return out
}

var (
	shellMain = regexp.MustCompile(`(?s)<main class="narrow page-wait" data-shell>.*?</main>`)
	titleRE   = regexp.MustCompile(`<title>.*?</title>`)
)

func post(s *Server, target string, body any) *httptest.ResponseRecorder {
	data, _ := json.Marshal(body)
	r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(string(data)))
	r.Host = testAddr
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Origin", "http://"+testAddr)
	r.Header.Set(TokenHeader, "test-token")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func decode[T any](t *testing.T, w *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("answer %q: %v", w.Body.String(), err)
	}
	return v
}

func TestPages(t *testing.T) {
	s, _ := newTestServer(t, false)
	tests := []struct {
		path string
		code int
		want []string
		not  []string
	}{
		{"/", http.StatusFound, nil, nil},
		{"/ru/", 200, []string{`<html lang="ru">`, "Когда сосед тормозит", `href="/ru/lessons/slow-neighbour"`, `href="/ru/exercises/exercise-retry"`, `href="/bg/"`}, []string{"Когато съседът"}},
		{"/bg/", 200, []string{`<html lang="bg">`, "Когато съседът е бавен", `href="/bg/exercises/exercise-retry"`, `href="/ru/"`}, []string{"Когда сосед"}},
		{"/ru/lessons/slow-neighbour", 200, []string{
			`id="таймаут-сколько-ждать"`, `href="#таймаут-сколько-ждать"`, `class="snippet"`, `class="quiz"`,
			`class="output-text"`, `href="/bg/lessons/slow-neighbour"`, `<span class="kd">func</span>`,
		}, []string{"<!-- quiz", "raw HTML omitted", "choice correct", "checked"}},
		{"/bg/lessons/retry-storm", 200, []string{`<html lang="bg">`, `class="snippet"`, `data-kind="fill"`, `class="blank"`}, []string{"checked"}},
		{"/ru/exercises/exercise-retry", 200, []string{"Повторы без двойного списания", `class="snippet exercise-editor"`, "func main()", `data-draft=`}, nil},
		{"/bg/exercises/exercise-retry", 200, []string{"Повторения без двойно теглене", "Покажи подсказка"}, nil},
		{"/ru/lessons/no-such-lesson", 404, []string{"Страница не найдена"}, nil},
		{"/bg/exercises/no-such", 404, []string{"Страницата не е намерена"}, nil},
		{"/bg/exercises/..%2fsecret", 404, nil, nil},
		{"/en/", 404, nil, nil},
		{"/ru/nothing/here", 404, []string{"Страница не найдена"}, nil},
		{"/static/app.js", 200, []string{"X-Workbook-Token"}, nil},
		{"/static/chroma.css", 200, []string{".chroma .kd", "prefers-color-scheme: dark"}, nil},
		{"/static/missing.css", 404, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			w := get(s, tt.path)
			if w.Code != tt.code {
				t.Fatalf("GET %s: %d, want %d", tt.path, w.Code, tt.code)
			}
			body := w.Body.String()
			for _, s := range tt.want {
				if !strings.Contains(body, s) {
					t.Errorf("GET %s: no %q", tt.path, s)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(body, s) {
					t.Errorf("GET %s: has %q", tt.path, s)
				}
			}
			if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("GET %s: Content-Security-Policy %q", tt.path, csp)
			}
		})
	}
	if loc := get(s, "/").Header().Get("Location"); loc != "/ru/" {
		t.Errorf("/ redirects to %q, want /ru/", loc)
	}
}

// TestLessonPagesHideAnswers renders every lesson in both languages and makes sure the page shows
// what a reader should see and nothing that gives an answer away: no hidden block, no fix of a bug
// quiz, no mark on the right choice.
func TestLessonPagesHideAnswers(t *testing.T) {
	s, _ := newTestServer(t, false)
	topics, err := lesson.Topics(workbook.Content(), "lessons")
	if err != nil {
		t.Fatal(err)
	}
	for _, topic := range topics {
		for _, lang := range []string{"bg", "ru"} {
			w := get(s, "/"+lang+"/lessons/"+topic)
			if w.Code != 200 {
				t.Fatalf("%s/%s: %d", lang, topic, w.Code)
			}
			page := w.Body.String()
			lp, err := s.lessonPage(topic, lang)
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range lp.l.Blocks {
				shown := strings.Contains(page, `data-block="`+strconv.Itoa(i)+`"`)
				switch {
				case b.Kind == lesson.GoBlock && b.Quiz == nil && !b.Hidden && !shown:
					t.Errorf("%s/%s: block at line %d is not an editor", lang, topic, b.Line)
				case (b.Hidden || b.Quiz != nil) && shown:
					t.Errorf("%s/%s: block at line %d is an editor", lang, topic, b.Line)
				case b.Kind == lesson.FixBlock:
					qi := -1
					for k, q := range lp.l.Quizzes {
						if q == b.Quiz {
							qi = k
						}
					}
					form := page[strings.Index(page, `data-quiz="`+strconv.Itoa(qi)+`"`):]
					form = form[:strings.Index(form, "</form>")]
					if strings.Contains(form, string(highlight("go", strings.TrimSuffix(b.Text, "\n")))) {
						t.Errorf("%s/%s: the fix at line %d is in its quiz", lang, topic, b.Line)
					}
				}
			}
			if n := strings.Count(page, `<form class="quiz"`); n != len(lp.l.Quizzes) {
				t.Errorf("%s/%s: %d quiz forms, want %d", lang, topic, n, len(lp.l.Quizzes))
			}
			if strings.Contains(page, "checked") {
				t.Errorf("%s/%s: a box is checked on the page", lang, topic)
			}
		}
	}
}

func TestGuard(t *testing.T) {
	s, _ := newTestServer(t, false)
	body := `{"lang":"ru","topic":"slow-neighbour","quiz":0,"answer":"1"}`
	tests := []struct {
		name    string
		method  string
		host    string
		headers map[string]string
		code    int
	}{
		{"page", "GET", testAddr, nil, 200},
		{"page via localhost", "GET", "localhost:8080", nil, 200},
		{"page via ::1", "GET", "[::1]:8080", nil, 200},
		{"page via another name", "GET", "attacker.example:8080", nil, 403},
		{"page via another port", "GET", "127.0.0.1:9999", nil, 403},
		{"page without port", "GET", "127.0.0.1", nil, 403},
		{"post ok", "POST", testAddr, map[string]string{TokenHeader: "test-token", "Origin": "http://" + testAddr}, 200},
		{"post without origin", "POST", testAddr, map[string]string{TokenHeader: "test-token"}, 200},
		{"post without token", "POST", testAddr, map[string]string{"Origin": "http://" + testAddr}, 403},
		{"post with a wrong token", "POST", testAddr, map[string]string{TokenHeader: "guess"}, 403},
		{"post from another origin", "POST", testAddr, map[string]string{TokenHeader: "test-token", "Origin": "http://attacker.example"}, 403},
		{"post from a page on another port", "POST", testAddr, map[string]string{TokenHeader: "test-token", "Origin": "http://127.0.0.1:9999"}, 403},
		{"post from a null origin", "POST", testAddr, map[string]string{TokenHeader: "test-token", "Origin": "null"}, 403},
		{"post marked cross-site", "POST", testAddr, map[string]string{TokenHeader: "test-token", "Sec-Fetch-Site": "cross-site"}, 403},
		{"post rebound by DNS", "POST", "attacker.example:8080", map[string]string{TokenHeader: "test-token", "Origin": "http://attacker.example:8080"}, 403},
		{"post as a form", "POST", testAddr, map[string]string{TokenHeader: "test-token", "Content-Type": "application/x-www-form-urlencoded"}, 415},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := "/ru/"
			var r *http.Request
			if tt.method == "POST" {
				target = "/api/quiz"
				r = httptest.NewRequest(tt.method, target, strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
			} else {
				r = httptest.NewRequest(tt.method, target, nil)
			}
			r.Host = tt.host
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != tt.code {
				t.Errorf("%s %s (Host %s): %d, want %d: %s", tt.method, target, tt.host, w.Code, tt.code, w.Body.String())
			}
		})
	}
	// A GET to the API runs nothing.
	if w := get(s, "/api/run"); w.Code != http.StatusNotFound {
		t.Errorf("GET /api/run: %d, want 404", w.Code)
	}
}

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true}, {"127.1.2.3", true}, {"::1", true}, {"[::1]", true}, {"localhost", true},
		{"LocalHost", true}, {"app.localhost", true}, {"0.0.0.0", false}, {"", false}, {"::", false},
		{"192.168.1.5", false}, {"example.com", false}, {"localhost.example.com", false},
	}
	for _, tt := range tests {
		if got := IsLoopback(tt.host); got != tt.want {
			t.Errorf("IsLoopback(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

func TestGuardHosts(t *testing.T) {
	tests := []struct {
		addr, host string
		want       bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "localhost:8080", true},
		{"127.0.0.1:8080", "LOCALHOST.:8080", true},
		{"127.0.0.1:8080", "192.168.1.5:8080", false},
		{"127.0.0.1:8080", "evil.example:8080", false},
		{"192.168.1.5:8080", "192.168.1.5:8080", true},
		{"192.168.1.5:8080", "10.0.0.1:8080", false},
		{"0.0.0.0:8080", "10.0.0.1:8080", true},
		{"0.0.0.0:8080", "evil.example:8080", false},
		{":8080", "[fe80::1]:8080", true},
	}
	for _, tt := range tests {
		if got := newGuard(tt.addr, "t").hostOK(tt.host); got != tt.want {
			t.Errorf("listening on %s, Host %s: %v, want %v", tt.addr, tt.host, got, tt.want)
		}
	}
}

func TestAPIErrors(t *testing.T) {
	s, _ := newTestServer(t, false)
	tests := []struct {
		path string
		body any
		code int
		want string
	}{
		{"/api/run", map[string]any{"lang": "ru", "topic": "nope", "block": 0}, 404, "Урока nope нет"},
		{"/api/run", map[string]any{"lang": "bg", "topic": "slow-neighbour", "block": 9999}, 404, "няма блок"},
		{"/api/run", map[string]any{"lang": "xx", "topic": "slow-neighbour"}, 400, "bg"},
		{"/api/quiz", map[string]any{"lang": "ru", "topic": "slow-neighbour", "quiz": 99, "answer": "1"}, 404, "нет вопроса"},
		{"/api/quiz", map[string]any{"lang": "bg", "topic": "slow-neighbour", "quiz": 0, "answer": " "}, 400, "Първо избери"},
		{"/api/save", map[string]any{"lang": "ru", "exercise": "exercise-retry", "code": "x"}, 409, "Сохранять некуда"},
		{"/api/check", map[string]any{"lang": "bg", "exercise": "nope", "code": "x"}, 404, "Няма задача nope"},
		{"/api/hint", map[string]any{"lang": "ru", "exercise": "../etc"}, 404, "Задачи ../etc нет"},
	}
	for _, tt := range tests {
		w := post(s, tt.path, tt.body)
		if w.Code != tt.code || !strings.Contains(w.Body.String(), tt.want) {
			t.Errorf("POST %s %v: %d %s, want %d with %q", tt.path, tt.body, w.Code, w.Body.String(), tt.code, tt.want)
		}
	}
	r := httptest.NewRequest(http.MethodPost, "/api/quiz", strings.NewReader("{not json"))
	r.Host = testAddr
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set(TokenHeader, "test-token")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 400 {
		t.Errorf("bad JSON: %d, want 400", w.Code)
	}
}

// TestQuizzes answers every quiz of every lesson in both languages, right and wrong, with the
// answers taken from the parsed lesson, and checks that the score lands in the progress file once
// every quiz of a lesson is answered.
func TestQuizzes(t *testing.T) {
	s, place := newTestServer(t, true)
	topics, err := lesson.Topics(workbook.Content(), "lessons")
	if err != nil {
		t.Fatal(err)
	}
	for _, topic := range topics {
		for _, lang := range []string{"bg", "ru"} {
			lp, err := s.lessonPage(topic, lang)
			if err != nil {
				t.Fatal(err)
			}
			quizzes := lp.l.Quizzes
			for i, q := range quizzes {
				right, wrong := answers(q)
				ask := func(answer string, want bool) quizReply {
					w := post(s, "/api/quiz", map[string]any{"lang": lang, "topic": topic, "quiz": i, "answer": answer})
					if w.Code != 200 {
						t.Fatalf("%s/%s quiz %d: %d %s", lang, topic, i, w.Code, w.Body.String())
					}
					r := decode[quizReply](t, w)
					if r.Correct != want {
						t.Errorf("%s/%s quiz %d (%s, line %d): answer %q judged %v, want %v", lang, topic, i, q.Kind, q.Line, answer, r.Correct, want)
					}
					return r
				}
				// In Russian the first answer is wrong, in Bulgarian right: the score shows which.
				var first, r quizReply
				if lang == "ru" {
					first = ask(wrong, false)
					if first.Fix != "" {
						t.Errorf("%s/%s quiz %d: a wrong answer shows the fix", lang, topic, i)
					}
					r = ask(right, true)
				} else {
					r = ask(right, true)
					first = r
				}
				if q.Kind == lesson.Bug && r.Fix == "" {
					t.Errorf("%s/%s quiz %d: a right answer to a bug quiz shows no fix", lang, topic, i)
				}
				last := i == len(quizzes)-1
				if last != (first.Score != "") {
					t.Errorf("%s/%s quiz %d of %d: score %q", lang, topic, i, len(quizzes), first.Score)
				}
			}
			st, err := progress.Load(place.StatePath)
			if err != nil {
				t.Fatal(err)
			}
			q := st.Quizzes[topic]
			wantRight := len(quizzes)
			if lang == "ru" {
				wantRight = 0
			}
			if q == nil || q.Total != len(quizzes) || q.Last != wantRight {
				t.Errorf("%s/%s: progress %+v, want last %d of %d", lang, topic, q, wantRight, len(quizzes))
			}
		}
	}
}

// answers returns a right and a wrong answer to q, as the page sends them.
func answers(q *lesson.Quiz) (right, wrong string) {
	switch q.Kind {
	case lesson.Choice:
		n := len(q.Options)
		return strconv.Itoa(q.Right()), strconv.Itoa((q.Right() + 1) % n)
	case lesson.Predict:
		n := len(q.Choices())
		return strconv.Itoa(q.Right()), strconv.Itoa((q.Right() + 1) % n)
	case lesson.Bug:
		return strconv.Itoa(q.BugLine), strconv.Itoa(q.BugLine%strings.Count(q.GoBlocks()[0].Text, "\n") + 1)
	case lesson.Fill:
		return " `" + q.Answer + "` ", "0"
	}
	return "", ""
}

func TestRun(t *testing.T) {
	s, _ := newTestServer(t, false)
	lp, err := s.lessonPage("slow-neighbour", "ru")
	if err != nil {
		t.Fatal(err)
	}
	first := -1
	for i, b := range lp.l.Blocks {
		if b.Kind == lesson.GoBlock && b.Quiz == nil && !b.Hidden {
			first = i
			break
		}
	}
	w := post(s, "/api/run", map[string]any{"lang": "ru", "topic": "slow-neighbour", "block": first})
	r := decode[runReply](t, w)
	if w.Code != 200 || r.Status != "pass" || !r.Match || r.Want == nil || r.Stdout != *r.Want {
		t.Fatalf("run of the lesson's first program: %d %+v", w.Code, r)
	}
	if r.Message != "Вывод совпадает с проверенным." {
		t.Errorf("message %q", r.Message)
	}
	// An edit that does not parse is reported at the snippet's own lines, without a build.
	// (The lesson's own lines are named for the blocks not edited.)
	w = post(s, "/api/run", map[string]any{"lang": "bg", "topic": "slow-neighbour", "block": first,
		"edits": map[string]string{strconv.Itoa(first): "func main() {\n\tfmt.Println(\n}\n"}})
	r = decode[runReply](t, w)
	if r.Status != "build_error" || !strings.HasPrefix(r.BuildLog, "snippet.go:3:") || r.Message != "Програмата не се компилира:" {
		t.Errorf("syntax error: %+v", r)
	}
}

func TestRunPoint(t *testing.T) {
	src := "---\ntitle: t\nsummary: s\norder: 1\n---\n\n" +
		"```go program=a\nfunc f() int { return 1 }\n```\n\n" +
		"```go program=a\nfunc main() { println(f()) }\n```\n\n" +
		"```output\n1\n```\n\n" +
		"```go program=b\nfunc main() {}\n```\n\n" +
		"```go program=a\nfunc f() int { return 2 }\n```\n\n" +
		"```output\n2\n```\n\n" +
		"```go program=a\nfunc g() {}\n```\n"
	l, err := lesson.Parse("x/ru.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		run, upto int
		want      string // "" for none
	}{
		{0, 2, "1\n"}, {1, 2, "1\n"}, {4, 5, "2\n"}, {6, 6, ""}, {3, 3, ""},
	}
	for _, tt := range tests {
		upto, want := runPoint(l, tt.run)
		got := ""
		if want != nil {
			got = *want
		}
		if upto != tt.upto || got != tt.want {
			t.Errorf("runPoint(%d) = %d, %q; want %d, %q", tt.run, upto, got, tt.upto, tt.want)
		}
	}
}

// TestExercise saves, checks and asks hints for an exercise in a place: a failing starter, a
// passing solution, the verdicts and hints in the progress file, and a save refused when the file
// changed on disk.
func TestExercise(t *testing.T) {
	s, place := newTestServer(t, true)
	c := s.cfg.Course
	ex, err := c.Exercise("exercise-retry")
	if err != nil {
		t.Fatal(err)
	}
	dir := place.Dir(ex, "bg")
	if err := c.Extract(ex.StarterDir("bg"), dir); err != nil {
		t.Fatal(err)
	}
	page := get(s, "/bg/exercises/exercise-retry").Body.String()
	starter, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	base := hashOf(string(starter))
	if !strings.Contains(page, `data-hash="`+base+`"`) || strings.Contains(page, "data-draft") {
		t.Fatalf("the page does not edit the file in the place")
	}
	// A check of the starter fails, and says so as `workbook check` does.
	w := post(s, "/api/check", map[string]any{"lang": "bg", "exercise": ex.Name, "code": string(starter), "base": base})
	r := decode[checkReply](t, w)
	if w.Code != 200 || r.Verdict == "pass" || r.Status != "failing" || !strings.Contains(string(r.Report), "тест") {
		t.Fatalf("starter: %d %+v", w.Code, r)
	}
	// Someone edits the file outside the browser: the page's next save is refused.
	os.WriteFile(filepath.Join(dir, "main.go"), append(starter, "// edited elsewhere\n"...), 0o644)
	w = post(s, "/api/save", map[string]any{"lang": "bg", "exercise": ex.Name, "code": "package main\n", "base": r.Hash})
	if w.Code != http.StatusConflict {
		t.Fatalf("save over a changed file: %d %s", w.Code, w.Body.String())
	}
	// The solution passes.
	sol, err := fs.ReadFile(c.FS(), path.Join(ex.SolutionDir("bg"), "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	now, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	w = post(s, "/api/check", map[string]any{"lang": "bg", "exercise": ex.Name, "code": strings.ReplaceAll(string(sol), "\n", "\r\n"), "base": hashOf(string(now))})
	r = decode[checkReply](t, w)
	if w.Code != 200 || r.Verdict != "pass" || r.Status != "passed" {
		t.Fatalf("solution: %d %+v", w.Code, r)
	}
	// A pass leads on to the first exercise of the course not passed yet.
	if r.Next == nil || r.Next.URL != "/bg/exercises/exercise-timeout" || !strings.HasPrefix(r.Next.Text, "Нататък: ") {
		t.Errorf("next after the pass = %+v, want a link to exercise-timeout", r.Next)
	}
	if saved, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(saved) != string(sol) {
		t.Errorf("the checked program was not saved as it was sent (CRLF to LF)")
	}
	// Two hints, as `workbook hint` gives them: one more each time.
	for n := 1; n <= 2; n++ {
		w = post(s, "/api/hint", map[string]any{"lang": "bg", "exercise": ex.Name})
		h := decode[hintReply](t, w)
		if len(h.Hints) != n || h.Total != 3 {
			t.Errorf("hint %d: %d hints of %d", n, len(h.Hints), h.Total)
		}
	}
	st, err := progress.Load(place.StatePath)
	if err != nil {
		t.Fatal(err)
	}
	x := st.Lookup(ex.Name)
	if x.Status() != progress.Passed || x.Checks != 2 || x.Hints != 2 {
		t.Errorf("progress %+v", x)
	}
	// The index and the page show it.
	if idx := get(s, "/ru/").Body.String(); !strings.Contains(idx, "status-passed") || !strings.Contains(idx, "Решена 1 задача из") {
		t.Errorf("index does not show the solved exercise")
	}
	if page := get(s, "/bg/exercises/exercise-retry").Body.String(); strings.Count(page, `<li class="hint">`) != 2 {
		t.Errorf("the page does not show the two hints taken")
	}
}

// TestCheckStarterKeepsPass: the browser's check keeps the terminal's rule. A failing check of the
// pristine starter, which only a command (reset, restore, a new language) puts over a program,
// never takes a pass back, and the reply says so; a failing check of anything else does.
func TestCheckStarterKeepsPass(t *testing.T) {
	s, place := newTestServer(t, true)
	c := s.cfg.Course
	ex, err := c.Exercise("exercise-timeout")
	if err != nil {
		t.Fatal(err)
	}
	dir := place.Dir(ex, "ru")
	if err := c.Extract(ex.StarterDir("ru"), dir); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, learnerFile)
	starter, _ := os.ReadFile(file)
	sol, err := fs.ReadFile(c.FS(), path.Join(ex.SolutionDir("ru"), learnerFile))
	if err != nil {
		t.Fatal(err)
	}
	check := func(code string) checkReply {
		t.Helper()
		now, _ := os.ReadFile(file)
		w := post(s, "/api/check", map[string]any{"lang": "ru", "exercise": ex.Name, "code": code, "base": hashOf(string(now))})
		if w.Code != 200 {
			t.Fatalf("check: %d %s", w.Code, w.Body.String())
		}
		return decode[checkReply](t, w)
	}
	status := func() progress.Status {
		t.Helper()
		st, err := progress.Load(place.StatePath)
		if err != nil {
			t.Fatal(err)
		}
		return st.LookupIn("ru", ex.Name).Status()
	}
	if r := check(string(sol)); r.Verdict != "pass" || r.Note != "" {
		t.Fatalf("solution: %+v", r)
	}
	// A command puts the starter back; the learner checks it in the browser.
	if err := os.WriteFile(file, starter, 0o644); err != nil {
		t.Fatal(err)
	}
	r := check(string(starter))
	if r.Verdict == "pass" || r.Status != "passed" || !strings.Contains(r.Note, "workbook restore "+ex.Name) {
		t.Errorf("the starter after a pass: verdict %q, status %q, note %q; want a failure that keeps the pass and says so",
			r.Verdict, r.Status, r.Note)
	}
	if got := status(); got != progress.Passed {
		t.Errorf("progress after checking the starter = %q, want %q", got, progress.Passed)
	}
	// The learner's own wrong program is a failure like any other.
	r = check(string(starter) + "\n// my attempt\n")
	if r.Verdict == "pass" || r.Status != "failing" || r.Note != "" {
		t.Errorf("an edited starter: verdict %q, status %q, note %q; want failing, no note", r.Verdict, r.Status, r.Note)
	}
	if got := status(); got != progress.Failing {
		t.Errorf("progress after an edited program fails = %q, want %q", got, progress.Failing)
	}
}

// TestCheckWithoutPlace checks a draft from the browser when there is no workspace: a scratch copy,
// nothing written anywhere.
func TestCheckWithoutPlace(t *testing.T) {
	s, _ := newTestServer(t, false)
	w := post(s, "/api/check", map[string]any{"lang": "ru", "exercise": "exercise-retry", "code": "package main\n\nfunc main() {\n"})
	r := decode[checkReply](t, w)
	if w.Code != 200 || r.Verdict != "build_error" || !strings.Contains(string(r.Report), "черновик в браузере") {
		t.Fatalf("%d %+v", w.Code, r)
	}
	w = post(s, "/api/hint", map[string]any{"lang": "ru", "exercise": "exercise-retry", "shown": 1})
	if h := decode[hintReply](t, w); len(h.Hints) != 2 {
		t.Errorf("hints without a place: %d, want 2", len(h.Hints))
	}
}

func TestANSI(t *testing.T) {
	got := string(ansiHTML("\x1b[1mA & B\x1b[0m \x1b[31m<x>\x1b[0m plain"))
	want := `<span class="ansi-bold">A &amp; B</span> <span class="ansi-red">&lt;x&gt;</span> plain`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// TestGetChangesNothing: no GET changes the learner's state, and nor does the page's own POST
// /api/page that fetches its content (get does both). A page of another site can make the browser
// fetch any lesson or exercise of this server (an <img> or a link is enough); the progress file
// must stay byte for byte what it was, a missing one must stay missing, and a corrupt one must stay
// where it is. Opening a lesson is recorded by the page's POST to /api/open, which carries the
// token and is refused across sites.
func TestGetChangesNothing(t *testing.T) {
	pages := []string{"/", "/ru/", "/bg/", "/ru/lessons/slow-neighbour", "/bg/lessons/retry-storm",
		"/ru/exercises/exercise-retry", "/bg/exercises/exercise-deadline", "/ru/lessons/no-such", "/static/app.js"}
	crossGet := func(s *Server, target string) {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		r.Host = testAddr
		r.Header.Set("Sec-Fetch-Site", "cross-site")
		r.Header.Set("Referer", "http://evil.example/")
		s.ServeHTTP(httptest.NewRecorder(), r)
	}
	listing := func(dir string) []string {
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	tests := []struct {
		name  string
		state []byte // the progress file before, nil for none
	}{
		{"no progress file", nil},
		{"a learner's progress", []byte(`{"version":1,"started":"2026-01-02T03:04:05Z","lessons":{"retry-storm":"2026-01-02T03:04:05Z"}}` + "\n")},
		{"a corrupt progress file", []byte("{not json")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, place := newTestServer(t, true)
			if tt.state != nil {
				if err := os.WriteFile(place.StatePath, tt.state, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := listing(place.Root)
			for _, p := range pages {
				get(s, p)
				crossGet(s, p)
			}
			got, err := os.ReadFile(place.StatePath)
			switch {
			case tt.state == nil && !errors.Is(err, fs.ErrNotExist):
				t.Errorf("a GET made the progress file: %q (%v)", got, err)
			case tt.state != nil && !bytes.Equal(got, tt.state):
				t.Errorf("after the GETs the progress file is %q (%v), want %q", got, err, tt.state)
			}
			if after := listing(place.Root); !slices.Equal(after, before) {
				t.Errorf("after the GETs the folder holds %q, want %q", after, before)
			}
		})
	}

	t.Run("the page's POST records the opening", func(t *testing.T) {
		s, place := newTestServer(t, true)
		if w := post(s, "/api/open", map[string]any{"lang": "ru", "topic": "slow-neighbour"}); w.Code != 200 {
			t.Fatalf("POST /api/open: %d %s", w.Code, w.Body)
		}
		st, err := progress.Load(place.StatePath)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := st.Lessons["slow-neighbour"]; !ok {
			t.Errorf("lessons %v: the opening is not recorded", st.Lessons)
		}
		if w := post(s, "/api/open", map[string]any{"lang": "ru", "topic": "no-such"}); w.Code != http.StatusNotFound {
			t.Errorf("POST /api/open of no lesson: %d, want 404", w.Code)
		}
		// Across sites, without the token: refused, nothing written.
		before, _ := os.ReadFile(place.StatePath)
		r := httptest.NewRequest(http.MethodPost, "/api/open", strings.NewReader(`{"lang":"ru","topic":"retry-storm"}`))
		r.Host = testAddr
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Origin", "http://evil.example")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusForbidden {
			t.Errorf("cross-site POST /api/open: %d, want 403", w.Code)
		}
		if after, _ := os.ReadFile(place.StatePath); !bytes.Equal(after, before) {
			t.Errorf("a refused POST changed the progress file")
		}
	})
}

// TestToken: the session token stays the learner's. A GET, which anyone who reaches the port can
// send, gets a page's shell and nothing of the learner's (no program, no progress, no folder) and
// sets no cookie; the content and every API call need the token in the header. The cookie of old,
// the token anywhere but in the header, a wrong token and a request from a page on another port of
// the same host are refused.
func TestToken(t *testing.T) {
	s, place := newTestServer(t, true)
	ex, err := s.findExercise("exercise-retry")
	if err != nil {
		t.Fatal(err)
	}
	dir := place.Dir(ex, "ru")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const mine = "package main\n\n// the learner's own program, 7f3a\nfunc main() {}\n"
	if err := os.WriteFile(filepath.Join(dir, learnerFile), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	private := []string{"7f3a", place.Root, "test-token"}
	const page = "/ru/exercises/exercise-retry"

	// Anyone: the shell, nothing private, no cookie, whatever the request carries.
	for _, target := range []string{page, page + "?token=test-token", "/ru/", "/ru/lessons/slow-neighbour"} {
		for _, cookie := range []bool{false, true} {
			r := httptest.NewRequest(http.MethodGet, target, nil)
			r.Host = testAddr
			if cookie {
				r.AddCookie(&http.Cookie{Name: "workbook_token_8080", Value: "test-token"})
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			body := w.Body.String()
			if w.Code != http.StatusOK || !shellMain.MatchString(body) || !strings.Contains(body, "Загрузка…") {
				t.Errorf("GET %s (cookie %v): %d, want 200 with the shell:\n%.300s", target, cookie, w.Code, body)
			}
			for _, p := range private {
				if strings.Contains(body, p) {
					t.Errorf("GET %s (cookie %v): the shell holds %q", target, cookie, p)
				}
			}
			if c := w.Header().Values("Set-Cookie"); len(c) != 0 {
				t.Errorf("GET %s: sets a cookie %q", target, c)
			}
			if rp := w.Header().Get("Referrer-Policy"); rp != "no-referrer" {
				t.Errorf("GET %s: Referrer-Policy %q, want no-referrer", target, rp)
			}
		}
	}
	if w := get(s, "/static/app.js"); w.Code != http.StatusOK {
		t.Errorf("GET /static/app.js: %d, want 200 (nothing private)", w.Code)
	}

	// The content: with the token in the header only.
	body := `{"lang":"ru","path":"` + page + `"}`
	tests := []struct {
		name    string
		target  string
		headers map[string]string
		cookie  bool
		code    int
	}{
		{"the token in the header", "/api/page", map[string]string{TokenHeader: "test-token", "Origin": "http://" + testAddr}, false, 200},
		{"no token", "/api/page", map[string]string{"Origin": "http://" + testAddr}, false, 403},
		{"the cookie of old", "/api/page", map[string]string{"Origin": "http://" + testAddr}, true, 403},
		{"the token in the address", "/api/page?token=test-token", map[string]string{"Origin": "http://" + testAddr}, false, 403},
		{"the token as a bearer", "/api/page", map[string]string{"Authorization": "Bearer test-token"}, false, 403},
		{"a wrong token", "/api/page", map[string]string{TokenHeader: "test-toke"}, false, 403},
		{"a page on another port", "/api/page", map[string]string{TokenHeader: "test-token", "Origin": "http://127.0.0.1:9999"}, false, 403},
		{"a page of another host name", "/api/page", map[string]string{TokenHeader: "test-token", "Origin": "http://localhost:8080"}, false, 403},
		{"a run with the cookie of old", "/api/run", map[string]string{"Origin": "http://" + testAddr}, true, 403},
		{"a save with the cookie of old", "/api/save", map[string]string{"Origin": "http://" + testAddr}, true, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, tt.target, strings.NewReader(body))
			r.Host = testAddr
			r.Header.Set("Content-Type", "application/json")
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			if tt.cookie {
				r.AddCookie(&http.Cookie{Name: "workbook_token_8080", Value: "test-token"})
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != tt.code {
				t.Fatalf("POST %s: %d, want %d: %s", tt.target, w.Code, tt.code, w.Body)
			}
			if w.Code != http.StatusOK {
				for _, p := range private[:2] {
					if strings.Contains(w.Body.String(), p) {
						t.Errorf("POST %s refused, and yet answers with %q", tt.target, p)
					}
				}
				return
			}
			reply := decode[pageReply](t, w)
			if !strings.Contains(reply.HTML, "7f3a") || !strings.Contains(reply.Footer, place.Root) {
				t.Errorf("the content of %s lacks the learner's program or folder:\n%.300s\n%s", page, reply.HTML, reply.Footer)
			}
			if strings.Contains(reply.HTML+reply.Footer, "test-token") {
				t.Errorf("the content of %s carries the token", page)
			}
		})
	}
}

// TestMessagesLanguage: with a message language chosen, the page's own words are in it, whatever the
// content language of the page; the content stays in the page's language.
func TestMessagesLanguage(t *testing.T) {
	c := course.New(workbook.Content())
	s, err := New(Config{Course: c, Lang: "ru", Addr: testAddr, Token: "test-token", Messages: "en"})
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"/ru/", "/bg/"} {
		w := get(s, page)
		body := w.Body.String()
		if w.Code != http.StatusOK || !strings.Contains(body, "Resilient services in Go") {
			t.Errorf("GET %s: %d, want the page's own words in English:\n%.400s", page, w.Code, body)
		}
	}
	if w := get(s, "/ru/lessons/slow-neighbour"); !strings.Contains(w.Body.String(), "Когда сосед") {
		t.Errorf("the Russian lesson's content is not in Russian:\n%.400s", w.Body.String())
	}
}

// TestQuizExplained answers the quizzes of a lesson whose answers all carry explanations: the page
// holds none of them; a wrong answer gets the explanation of the option chosen, and the quiz's own
// only at the second miss; a right answer gets both.
func TestQuizExplained(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, lang := range []string{"bg", "ru"} {
		data, err := os.ReadFile(filepath.Join("..", "lesson", "testdata", "explained", lang+".md"))
		if err != nil {
			t.Fatal(err)
		}
		fsys["lessons/explained/"+lang+".md"] = &fstest.MapFile{Data: data}
	}
	s, err := New(Config{Course: course.New(fsys), Lang: "bg", Addr: testAddr, Token: "test-token"})
	if err != nil {
		t.Fatal(err)
	}
	page := get(s, "/bg/lessons/explained")
	if page.Code != 200 {
		t.Fatalf("lesson page: %d %s", page.Code, page.Body.String())
	}
	for _, leak := range []string{"Таймаутът и 503", "не сега", "Повтаряй онова", "заменя стария", "<!-- why", "<!-- explain"} {
		if strings.Contains(page.Body.String(), leak) {
			t.Errorf("the page shows %q before any answer", leak)
		}
	}
	if !strings.Contains(page.Body.String(), `<div class="quiz-explain" hidden></div>`) {
		t.Error("the page has no place for the explanations")
	}
	tests := []struct {
		quiz            int
		answer          string
		correct         bool
		why, explain    string // what the reply must hold ("" : nothing)
		notWhy, notExpl string // and what it must not
	}{
		{0, "0", false, "Отговор 1:</strong> Таймаутът и 503 обикновено отминават сами", "", "", "Повтаряй"},
		{0, "2", false, "Отговор 3:</strong> 404 и 400", "Повтаряй онова", "Таймаутът", ""},
		{0, "1", true, "„не сега“", "Повтаряй онова, което може да мине", "404", ""},
		{1, "1", true, "main вече печата само един ред", "<code>main</code> заменя стария изцяло", "първият ред", ""},
	}
	for _, tt := range tests {
		w := post(s, "/api/quiz", map[string]any{"lang": "bg", "topic": "explained", "quiz": tt.quiz, "answer": tt.answer})
		if w.Code != 200 {
			t.Fatalf("quiz %d answer %s: %d %s", tt.quiz, tt.answer, w.Code, w.Body.String())
		}
		r := decode[quizReply](t, w)
		if r.Correct != tt.correct {
			t.Errorf("quiz %d answer %s: correct %v, want %v", tt.quiz, tt.answer, r.Correct, tt.correct)
		}
		if !strings.Contains(r.Why, tt.why) || tt.notWhy != "" && strings.Contains(r.Why, tt.notWhy) {
			t.Errorf("quiz %d answer %s: why %q, want it to hold %q", tt.quiz, tt.answer, r.Why, tt.why)
		}
		if tt.explain == "" && r.Explain != "" || !strings.Contains(r.Explain, tt.explain) {
			t.Errorf("quiz %d answer %s: explanation %q, want %q", tt.quiz, tt.answer, r.Explain, tt.explain)
		}
	}
}
