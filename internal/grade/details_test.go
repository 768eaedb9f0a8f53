package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// detailHTML is the HTML that details/st-i.js of the report in dir hands the page.
func detailHTML(t *testing.T, dir string, i int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, DetailFile(i)))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSuffix(strings.TrimSpace(string(data)), ";")
	prefix := fmt.Sprintf("reportDetail(%d,", i)
	if !strings.HasPrefix(text, prefix) || !strings.HasSuffix(text, ")") {
		t.Fatalf("%s is not a reportDetail call:\n%s", DetailFile(i), data)
	}
	var html string
	if err := json.Unmarshal([]byte(text[len(prefix):len(text)-1]), &html); err != nil {
		t.Fatal(err)
	}
	return html
}

// TestDetailsGrouped: in report.html's details a student's failures of one kind are one block, by
// its example, with the other cases named under it (each keeping the anchor the grid's cells lead
// to), under the hints in the instructor's language, the one that explains the most cases first.
func TestDetailsGrouped(t *testing.T) {
	var cs []checker.CaseResult
	for i := 1; i <= 6; i++ {
		name := fmt.Sprintf("e%d", i)
		cs = append(cs, checker.CaseResult{Name: name, Title: "код " + name, Visible: i == 2, Status: checker.Fail, Message: "exit_nonzero", ExitCode: 1,
			Want: "верно\n", Got: "верно " + name + "\n", Args: []string{name}})
	}
	cs = append(cs, checker.CaseResult{Name: "drawn-1", Title: "случайные аргументы 1", Drawn: true, Status: checker.Fail, Want: "попытка\n", Stderr: "попытка\n",
		Diff: &checker.Diff{Line: 1, Want: "попытка", Notes: []string{checker.NoteMissingLines}}, Args: []string{"-deadline", "3"}})
	cs = append(cs, checker.CaseResult{Name: "ok", Visible: true, Status: checker.Pass})
	res := &checker.Result{Exercise: "exercise-deadline", Lang: "ru", Cases: cs}
	res.Summarize()
	rep := &Report{Exercise: "exercise-deadline", Students: []Student{{Name: "s", Lang: "ru", Result: res}}}
	rep.Finalize()
	dir := t.TempDir()
	for _, tt := range []struct{ lang, exit, stderr, same string }{
		{"en", "6 cases (e2): the program ended with exit code 1 where 0 is expected.", "1 case: the expected transcript went to stderr, not to stdout.", "The same in 5 more cases:"},
		{"bg", "6 теста (e2): програмата завърши с код 1, а се очаква код 0.", "1 тест: очакваният изход е отпечатан в stderr, а не в stdout.", "Същото и в още 5 теста:"},
	} {
		if err := Details(dir, rep, tt.lang); err != nil {
			t.Fatal(err)
		}
		page := detailHTML(t, dir, 0)
		exit, stderr := strings.Index(page, tt.exit), strings.Index(page, tt.stderr)
		if exit < 0 || stderr < exit || strings.Index(page, `class="fail"`) < stderr {
			t.Errorf("%s: the hints are not there in order, before the failures:\n%s", tt.lang, page)
		}
		if n := strings.Count(page, `class="fail"`); n != 2 {
			t.Errorf("%s: %d blocks, want 2 (the exit codes, stderr):\n%s", tt.lang, n, page)
		}
		if !strings.Contains(page, `<div id="st-0-c-1" class="fail"><p><strong>e2: код e2</strong>`) || !strings.Contains(page, tt.same) {
			t.Errorf("%s: the exit codes are not shown by the visible case, the others under it:\n%s", tt.lang, page)
		}
		for j := range 7 {
			if !strings.Contains(page, fmt.Sprintf(`id="st-0-c-%d"`, j)) {
				t.Errorf("%s: no anchor st-0-c-%d for the grid's cell:\n%s", tt.lang, j, page)
			}
		}
		if !strings.Contains(page, "drawn-1: случайные аргументы 1") {
			t.Errorf("%s: the drawn case is not named by its title:\n%s", tt.lang, page)
		}
	}
}

// TestDrawnCaseTitled: the report's shared wrong transcripts name a drawn case by the drawn
// cases' title in the instructor's language, never by its name twice ("drawn-2: drawn-2").
func TestDrawnCaseTitled(t *testing.T) {
	res := &checker.Result{Exercise: "exercise-deadline", Lang: "ru", Cases: []checker.CaseResult{{Name: "drawn-2", Drawn: true, Status: checker.Fail, Got: "нет\n"}}}
	res.Summarize()
	rep := &Report{Exercise: "exercise-deadline", Students: []Student{{Name: "a", Lang: "ru", Result: res}, {Name: "b", Lang: "ru", Result: res}}}
	rep.Finalize()
	rep.Wrong = []WrongGroup{{Case: "drawn-2", Lang: "ru", Students: []string{"a", "b"}, Got: "нет\n", Want: "да\n"}}
	for lang, want := range map[string]string{"ru": "drawn-2: случайные аргументы 2", "bg": "drawn-2: случайни аргументи 2", "en": "drawn-2: drawn arguments 2"} {
		var page bytes.Buffer
		if err := HTML(&page, rep, lang); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(page.String(), want) || strings.Contains(page.String(), "drawn-2: drawn-2") {
			t.Errorf("%s: the drawn case is not %q in report.html", lang, want)
		}
	}
}

// TestUntitledCaseNamedOnce: a case without a title (an instructor's own) is named once in a shared
// wrong transcript's heading, never "01-own: 01-own"; a titled one keeps its title beside its name.
func TestUntitledCaseNamedOnce(t *testing.T) {
	res := &checker.Result{Exercise: "exercise-deadline", Lang: "ru", Cases: []checker.CaseResult{{Name: "01-own", Status: checker.Fail, Got: "нет\n"}}}
	res.Summarize()
	rep := &Report{Exercise: "exercise-deadline", Students: []Student{{Name: "a", Lang: "ru", Result: res}, {Name: "b", Lang: "ru", Result: res}}}
	rep.Finalize()
	rep.Cases = append(rep.Cases, CaseInfo{Name: "02-titled", Titles: map[string]string{"ru": "с названием", "bg": "със заглавие", "en": "titled"}})
	rep.Wrong = []WrongGroup{
		{Case: "01-own", Lang: "ru", Students: []string{"a", "b"}, Got: "нет\n", Want: "да\n"},
		{Case: "02-titled", Lang: "ru", Students: []string{"a", "b"}, Got: "нет\n", Want: "да\n"},
	}
	for _, lang := range []string{"ru", "bg", "en"} {
		var page bytes.Buffer
		if err := HTML(&page, rep, lang); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(page.String(), "01-own: 01-own") {
			t.Errorf("%s: the untitled case is named twice in report.html", lang)
		}
		if want := "02-titled: " + rep.Cases[len(rep.Cases)-1].Titles[lang]; !strings.Contains(page.String(), want) {
			t.Errorf("%s: report.html lacks %q", lang, want)
		}
	}
}

// TestWritten: what the instructor is told was written is what the report folder holds: details/
// beside feedback/, and the LMS's files only for a class that came in its layout.
func TestWritten(t *testing.T) {
	res := &checker.Result{Exercise: "exercise-deadline", Lang: "ru", Cases: []checker.CaseResult{{Name: "01", Visible: true, Status: checker.Pass}}}
	res.Summarize()
	tests := []struct {
		name string
		st   Student
		want string
	}{
		{"folders", Student{Name: "a", Lang: "ru", Result: res}, "grades.csv results.json report.html details/ feedback/"},
		{"Moodle", Student{Name: "b", Lang: "ru", Result: res, Layout: LayoutMoodle, ID: "100001", Display: "b"},
			"grades.csv results.json report.html details/ feedback/ moodle.csv moodle-feedback.zip"},
		{"Canvas, a text entry", Student{Name: "c", Lang: "ru", Result: res, Layout: LayoutCanvas, ID: "1001", Display: "c"},
			"grades.csv results.json report.html details/ feedback/ canvas.csv"},
		{"Canvas, files", Student{Name: "c", Lang: "ru", Result: res, Layout: LayoutCanvas, ID: "1001", Display: "c", CanvasFiles: []CanvasEntry{{"main.go", "5001"}}},
			"grades.csv results.json report.html details/ feedback/ canvas.csv canvas-feedback.zip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &Report{Exercise: "exercise-deadline", Students: []Student{tt.st}}
			rep.Finalize()
			dir := filepath.Join(t.TempDir(), "report")
			if err := Write(dir, rep, "en"); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(Written(dir), " "); got != tt.want {
				t.Errorf("Written = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestDetailsFailAlone: a student's details that cannot be rendered (an error of the template or a
// panic on what the program printed) are that student's alone: their details say why, in the
// report's language, every other student's details and the class's files are written.
func TestDetailsFailAlone(t *testing.T) {
	res := &checker.Result{Exercise: "exercise-deadline", Lang: "ru", Cases: []checker.CaseResult{{Name: "01", Visible: true, Status: checker.Pass}}}
	res.Summarize()
	for _, tc := range []struct {
		name string
		fail func() error
	}{
		{"error", func() error { return errors.New("template: bad <value>") }},
		{"panic", func() error { panic("index out of range") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := executeDetail
			t.Cleanup(func() { executeDetail = orig })
			executeDetail = func(tm *template.Template, w *bytes.Buffer, data map[string]any) error {
				if data["St"].(Student).Name == "broken" {
					return tc.fail()
				}
				return orig(tm, w, data)
			}
			rep := &Report{Exercise: "exercise-deadline", Students: []Student{
				{Name: "alpha", Lang: "ru", Result: res}, {Name: "broken", Lang: "ru", Result: res}, {Name: "gamma", Lang: "ru", Result: res}}}
			rep.Finalize()
			dir := filepath.Join(t.TempDir(), "report")
			if err := Write(dir, rep, "ru"); err != nil {
				t.Fatalf("one student's details stopped the class: %v", err)
			}
			for _, f := range []string{GradesFile, HTMLFile, ResultsFile} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Error(err)
				}
			}
			for i, st := range rep.Students {
				html := detailHTML(t, dir, i)
				failed := strings.Contains(html, "подробности не удалось показать")
				if failed != (st.Name == "broken") {
					t.Errorf("%s: details say they failed: %v\n%s", st.Name, failed, html)
				}
				if failed && strings.Contains(html, "<value>") {
					t.Errorf("%s: the error is not escaped:\n%s", st.Name, html)
				}
			}
		})
	}
}
