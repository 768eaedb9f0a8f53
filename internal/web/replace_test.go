package web

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

// newWorkspaceServer is a server of a workspace made as `workbook init --lang ru` makes it.
func newWorkspaceServer(t *testing.T) (*Server, *workspace.Workspace) {
	t.Helper()
	c := course.New(workbook.Content())
	ws := &workspace.Workspace{Root: t.TempDir()}
	if _, _, err := ws.Create(c, workspace.Settings{Content: "ru"}, "go 1.26"); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Course: c, Lang: "ru", Addr: testAddr, Token: "test-token", Place: &Place{
		Root: ws.Root, StatePath: ws.StatePath(), Lang: "ru", Dir: ws.ExerciseDir,
		Fresh:     func() *progress.State { return progress.New("ru", time.Now()) },
		Pristine:  func(ex *course.Exercise, lang string) bool { return ws.Pristine(c, ex, lang) },
		Workspace: ws}})
	if err != nil {
		t.Fatal(err)
	}
	return s, ws
}

// TestReplaceGuarded: Reset and Restore replace the learner's files, so they are guarded as every
// writing endpoint is (guard.go): without the token, from another origin or site, or as a form,
// they are refused and change nothing.
func TestReplaceGuarded(t *testing.T) {
	s, ws := newWorkspaceServer(t)
	ex, err := s.cfg.Course.Exercise("exercise-retry")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ws.ExerciseDir(ex, "ru"), learnerFile)
	mine := "package main\n\n// mine\nfunc main() {}\n"
	if err := os.WriteFile(file, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	body := `{"lang":"ru","exercise":"exercise-retry","version":1}`
	for _, target := range []string{"/api/reset", "/api/restore"} {
		for _, tt := range []struct {
			name    string
			headers map[string]string
			code    int
		}{
			{"no token", map[string]string{"Origin": "http://" + testAddr}, 403},
			{"a wrong token", map[string]string{TokenHeader: "test-toke"}, 403},
			{"another origin", map[string]string{TokenHeader: "test-token", "Origin": "http://attacker.example"}, 403},
			{"another port", map[string]string{TokenHeader: "test-token", "Origin": "http://127.0.0.1:9999"}, 403},
			{"cross-site", map[string]string{TokenHeader: "test-token", "Sec-Fetch-Site": "cross-site"}, 403},
			{"a form", map[string]string{TokenHeader: "test-token", "Content-Type": "application/x-www-form-urlencoded"}, 415},
		} {
			r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
			r.Host = testAddr
			r.Header.Set("Content-Type", "application/json")
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != tt.code {
				t.Errorf("POST %s, %s: %d, want %d: %s", target, tt.name, w.Code, tt.code, w.Body)
			}
		}
	}
	if data, _ := os.ReadFile(file); string(data) != mine {
		t.Errorf("refused requests changed the learner's file:\n%s", data)
	}
	if list, _ := ws.Versions(ex, "ru"); len(list) != 0 {
		t.Errorf("refused requests kept %d versions", len(list))
	}
}

// TestReplaceAPI: Reset keeps the learner's program as a version and puts the starter back; Restore
// brings a kept version back; each says what `workbook reset` and `workbook restore` say, and
// refuses what they refuse (a version that is not kept, a file changed on disk since the page read
// it), losing nothing.
func TestReplaceAPI(t *testing.T) {
	s, ws := newWorkspaceServer(t)
	ex, err := s.cfg.Course.Exercise("exercise-retry")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ws.ExerciseDir(ex, "ru"), learnerFile)
	starter, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := "ru/" + ex.Name
	if rel, err := filepath.Rel(ws.Root, ws.ExerciseDir(ex, "ru")); err == nil {
		dir = filepath.ToSlash(rel)
	}
	ui := i18n.New("ru")
	mine := string(starter) + "// моя попытка\n"

	// The editor's text is saved first, so the version kept is what the learner saw.
	w := post(s, "/api/reset", map[string]any{"lang": "ru", "exercise": ex.Name, "code": mine, "base": hashOf(string(starter))})
	r := decode[replaceReply](t, w)
	list, _ := ws.Versions(ex, "ru")
	if w.Code != 200 || len(list) != 1 || r.Code != string(starter) || r.Hash != hashOf(string(starter)) {
		t.Fatalf("reset: %d %+v, %d versions", w.Code, r, len(list))
	}
	if want := ui.T("reset_done", "Dir", dir, "Backup", s.shown(list[0].Dir), "Name", ex.Name, "N", 1); r.Message != want {
		t.Errorf("reset says %q, want %q", r.Message, want)
	}
	if r.Restore == nil || r.Restore.N != 1 || r.Restore.Confirm != ui.T("restore_confirm", "Dir", dir, "Name", ex.Name, "N", 1) {
		t.Errorf("reset offers %+v to restore", r.Restore)
	}
	if st, _ := progress.Load(ws.StatePath()); st == nil || st.In("ru", ex.Name).Resets != 1 {
		t.Errorf("the reset is not counted in the progress file")
	}

	for _, tt := range []struct {
		name string
		body map[string]any
		code int
		want string
	}{
		{"no such version", map[string]any{"version": 7}, 404, ui.T("err_restore_no_version", "Name", ex.Name, "N", 7, "Last", 1)},
		{"changed on disk", map[string]any{"version": 1, "code": "package main\n", "base": "0123"}, 409, "web_err_changed"},
		{"unknown exercise", map[string]any{"version": 1, "exercise": "nope"}, 404, "nope"},
	} {
		body := map[string]any{"lang": "ru", "exercise": ex.Name}
		for k, v := range tt.body {
			body[k] = v
		}
		w := post(s, "/api/restore", body)
		want := tt.want
		if want == "web_err_changed" {
			want = ui.T("web_err_changed", "File", file)
		}
		if w.Code != tt.code || !strings.Contains(w.Body.String(), want) {
			t.Errorf("restore, %s: %d %s, want %d with %q", tt.name, w.Code, w.Body, tt.code, want)
		}
		if data, _ := os.ReadFile(file); string(data) != string(starter) {
			t.Fatalf("restore, %s: the file changed", tt.name)
		}
	}

	w = post(s, "/api/restore", map[string]any{"lang": "ru", "exercise": ex.Name, "version": 1, "code": string(starter), "base": r.Hash})
	r = decode[replaceReply](t, w)
	if w.Code != 200 || r.Code != mine || r.Message != ui.T("restore_done", "Dir", dir, "N", 1, "Name", ex.Name) {
		t.Errorf("restore: %d %+v", w.Code, r)
	}
	if data, _ := os.ReadFile(file); string(data) != mine {
		t.Errorf("after restore the file holds:\n%s", data)
	}
}

// TestReplaceOutsideWorkspace: without a workspace there is nothing to reset, and the page offers
// no such button.
func TestReplaceOutsideWorkspace(t *testing.T) {
	for _, withPlace := range []bool{false, true} { // a place without a workspace: as outside one
		s, _ := newTestServer(t, withPlace)
		for _, target := range []string{"/api/reset", "/api/restore"} {
			w := post(s, target, map[string]any{"lang": "ru", "exercise": "exercise-retry", "version": 1})
			if want := s.ui("ru").T("web_err_no_workspace"); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), want) {
				t.Errorf("place %v, POST %s: %d %s, want 409 with %q", withPlace, target, w.Code, w.Body, want)
			}
		}
		if page := get(s, "/ru/exercises/exercise-retry").Body.String(); strings.Contains(page, "reset-starter") {
			t.Errorf("place %v: the page offers Reset", withPlace)
		}
	}
}
