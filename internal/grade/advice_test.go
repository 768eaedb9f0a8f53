package grade

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// tickerFile is a file a student adds to a program that passes: a ticker never stopped, which
// internal/vet advises on (line 7).
const tickerFile = `package main

import "time"

// waitTick чака един такт.
func waitTick() {
	t := time.NewTicker(time.Second)
	<-t.C
}
`

// TestGradeAdvice grades two reference solutions, one with a ticker never stopped beside it: both
// pass with full marks (advice never changes a verdict), and the second's advice is in its feedback
// (in its language, with file:line), in results.json, in report.html's advice column and filter,
// and in its details beside the page.
func TestGradeAdvice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two programs")
	}
	class, out := t.TempDir(), t.TempDir()
	sol := courseFile(t, "solutions/exercise-deadline/bg/main.go")
	for name, files := range map[string]map[string][]byte{
		"clean":  {"main.go": sol},
		"ticker": {"main.go": sol, "extra.go": []byte(tickerFile)},
	} {
		for f, data := range files {
			p := filepath.Join(class, name, f)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, _ := runGrade(t, deadlineJob(t), class, out)
	byName := map[string]Student{}
	for _, st := range rep.Students {
		byName[st.Name] = st
	}
	for _, name := range []string{"clean", "ticker"} {
		if st := byName[name]; st.Status != StatusPass || st.Score != 100 || st.Result.Verdict != checker.Pass {
			t.Errorf("%s: %s, %v, %s; want a pass with full marks", name, st.Status, st.Score, st.Result.Verdict)
		}
	}
	if a := byName["clean"].Result.Advice; len(a) != 0 {
		t.Errorf("the reference solution is advised on: %+v", a)
	}
	a := byName["ticker"].Result.Advice
	if len(a) != 1 || a[0].Rule != "ticker_stop" || a[0].File != "extra.go" || a[0].Line != 7 {
		t.Fatalf("ticker's advice: %+v, want ticker_stop at extra.go:7", a)
	}
	fb, err := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback["ticker"]))
	if err != nil {
		t.Fatal(err)
	}
	bg := i18n.New("bg")
	for _, want := range []string{"## " + bg.T("vet_grade_head"), "`extra.go:7`", bg.T("vet_ticker_stop")[:40]} {
		if !strings.Contains(string(fb), want) {
			t.Errorf("ticker's feedback lacks %q:\n%s", want, fb)
		}
	}
	if clean, _ := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback["clean"])); strings.Contains(string(clean), bg.T("vet_grade_head")) {
		t.Errorf("clean's feedback has advice:\n%s", clean)
	}
	var results struct {
		Students []struct {
			Student string
			Result  struct{ Advice []checker.Advice }
		}
	}
	data, _ := os.ReadFile(filepath.Join(out, ResultsFile))
	if err := json.Unmarshal(data, &results); err != nil {
		t.Fatal(err)
	}
	for _, st := range results.Students {
		if got := len(st.Result.Advice); got != len(byName[st.Student].Result.Advice) {
			t.Errorf("results.json gives %s %d pieces of advice", st.Student, got)
		}
	}
	page, _ := os.ReadFile(filepath.Join(out, HTMLFile))
	if want := `<option value="ticker_stop">ticker never stopped</option>`; !bytes.Contains(page, []byte(want)) {
		t.Errorf("report.html lacks %q", want)
	}
	rows := pageClassData(t, page)
	var advised []string
	for _, r := range rows.Rows {
		if r.Rules != "" {
			advised = append(advised, r.Name+": "+r.Rules+" ("+rows.Rule[r.Rules]+")")
		}
	}
	if got := strings.Join(advised, "; "); got != "ticker: ticker_stop (ticker never stopped)" {
		t.Errorf("report.html's rows advised: %q, want ticker's alone", got)
	}
	for i, st := range rep.Students {
		if st.Name != "ticker" {
			continue
		}
		js, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(DetailFile(i))))
		if !bytes.Contains(js, []byte("extra.go:7")) || !bytes.Contains(js, []byte("ticker never stopped")) {
			t.Errorf("ticker's details lack the advice: %.300s", js)
		}
	}
}

// TestAdviceNote renders the advice of the feedback in the student's language, whatever language
// it was stored in, and nothing when there is none.
func TestAdviceNote(t *testing.T) {
	advice := []checker.Advice{{Rule: "body_close", File: "main.go", Line: 12, Message: "stored words"}, {Rule: "gone_rule", File: "a.go", Line: 3, Message: "old words"}}
	tests := []struct {
		lang string
		want []string
	}{
		{"ru", []string{"## Советы по коду (на оценку не влияют)", "- `main.go:12`: на этом пути тело ответа не закрывается", "- `a.go:3`: old words"}},
		{"bg", []string{"## Съвети за кода (не променят оценката)", "- `main.go:12`: по този път тялото на отговора не се затваря", "- `a.go:3`: old words"}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		adviceNote(&buf, i18n.New(tt.lang), Student{Result: &checker.Result{Advice: advice}})
		for _, w := range tt.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%s: the note lacks %q:\n%s", tt.lang, w, buf.String())
			}
		}
		buf.Reset()
		adviceNote(&buf, i18n.New(tt.lang), Student{Result: &checker.Result{}})
		if buf.Len() != 0 {
			t.Errorf("%s: a note without advice: %q", tt.lang, buf.String())
		}
	}
	if got := classRules(&Report{Students: []Student{{Result: &checker.Result{Advice: advice[1:]}}, {Result: &checker.Result{Advice: advice}}}}); strings.Join(got, " ") != "body_close gone_rule" {
		t.Errorf("classRules = %q, want vet's order, then the unknown", got)
	}
}
