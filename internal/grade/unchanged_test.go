package grade

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestStatusOf: every verdict has the status an instructor reads it as; an untouched starter is
// neither the tool's error nor a program that could not be run.
func TestStatusOf(t *testing.T) {
	tests := []struct {
		verdict checker.Verdict
		want    string
	}{
		{checker.Pass, StatusPass},
		{checker.Fail, StatusFail},
		{checker.Timeout, StatusFail},
		{checker.Crash, StatusFail},
		{checker.OutputLimit, StatusFail},
		{checker.MemoryLimit, StatusFail},
		{checker.BuildError, StatusError},
		{checker.NoProgram, StatusError},
		{BadArchive, StatusError},
		{TooBig, StatusError},
		{Unchanged, StatusUnchanged},
		{NotGraded, StatusTool},
		{NoSubmission, StatusMissing},
	}
	for _, tt := range tests {
		if got := StatusOf(tt.verdict); got != tt.want {
			t.Errorf("StatusOf(%s) = %s, want %s", tt.verdict, got, tt.want)
		}
	}
}

// unchangedReport is a Moodle class of three: a pass, a build error and an untouched starter.
func unchangedReport() *Report {
	cases := []checker.CaseResult{{Name: "01", Status: checker.Pass, Visible: true}}
	mk := func(name, id, lang string, r *checker.Result) Student {
		return Student{Name: name, Display: name, Layout: LayoutMoodle, ID: id, Lang: lang, Result: r}
	}
	return &Report{Exercise: "exercise-deadline", Titles: map[string]string{"ru": "Дедлайн", "bg": "Дедлайн", "en": "Deadline"},
		Cases: []CaseInfo{{Name: "01", Visible: true, Weight: 1}},
		Students: []Student{
			mk("ann", "1", "ru", &checker.Result{Verdict: checker.Pass, Passed: 1, Total: 1, Cases: cases}),
			mk("bob", "2", "ru", &checker.Result{Verdict: checker.BuildError, Total: 1, Cases: []checker.CaseResult{}, BuildLog: "main.go:1: syntax error"}),
			mk("cid", "3", "bg", &checker.Result{Verdict: Unchanged, Total: 1, Cases: []checker.CaseResult{}}),
		}}
}

// TestUnchangedEverywhere: an untouched starter is counted, written and exported as unchanged, with
// score 0 and its reason, never as an error; grades.csv, results.json, report.html and the
// feedback say so in the instructor's and the student's words.
func TestUnchangedEverywhere(t *testing.T) {
	rep := unchangedReport()
	rep.Finalize()
	if s := rep.Summary; s.Pass != 1 || s.Error != 1 || s.Unchanged != 1 || s.Tool != 0 {
		t.Errorf("summary %+v, want pass 1, error 1 (the build error), unchanged 1", s)
	}
	cid := rep.Students[2]
	if cid.Status != StatusUnchanged || cid.Score != 0 {
		t.Errorf("cid: status %s score %v, want unchanged 0", cid.Status, cid.Score)
	}
	for _, tt := range []struct{ lang, text string }{{"ru", "заготовка без изменений"}, {"bg", "непроменена заготовка"}, {"en", "unchanged starter"}} {
		csv := string(GradesCSV(rep, tt.lang))
		if !strings.Contains(csv, "cid"+string(sepOf(tt.lang))+"unchanged"+string(sepOf(tt.lang))) || !strings.Contains(csv, tt.text) {
			t.Errorf("grades.csv in %s lacks cid as unchanged (%q):\n%s", tt.lang, tt.text, csv)
		}
	}
	js, err := ResultsJSON(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`"status": "unchanged"`)) || !bytes.Contains(js, []byte(`"unchanged": 1`)) {
		t.Errorf("results.json lacks the status or the count unchanged:\n%s", js)
	}
	var fb bytes.Buffer
	Feedback(&fb, rep, cid)
	if !strings.Contains(fb.String(), "Това е заготовката на задачата, както е дадена") {
		t.Errorf("cid's feedback does not say why:\n%s", fb.String())
	}
	// Moodle: score 0 with the reason in the feedback comment.
	rows, err := csv.NewReader(bytes.NewReader(MoodleCSV(rep, nil, rep.Students[0].Submitted))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var row []string
	for _, r := range rows {
		if r[1] == "cid" {
			row = r
		}
	}
	if len(row) < 6 || row[2] != "0" || !strings.Contains(row[5], "заготовката на задачата") {
		t.Errorf("moodle.csv's row of cid: %q, want score 0 and the reason", row)
	}
}

// sepOf is grades.csv's cell separator in lang.
func sepOf(lang string) rune {
	c, _ := csvStyle(lang)
	return c
}

// TestReadReportOlderUnchanged: a report of grader 9 or older counted an untouched starter as an
// error; read again (merge, grade book) it is unchanged, and its summary says so.
func TestReadReportOlderUnchanged(t *testing.T) {
	rep := unchangedReport()
	rep.Finalize()
	rep.Students[2].Status = StatusError
	rep.Summary.Error, rep.Summary.Unchanged = 2, 0
	dir := t.TempDir()
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ResultsFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadReport(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st := got.Students[2]; st.Status != StatusUnchanged {
		t.Errorf("cid read as %s, want unchanged", st.Status)
	}
	if got.Summary.Error != 1 || got.Summary.Unchanged != 1 {
		t.Errorf("summary read as %+v, want error 1, unchanged 1", got.Summary)
	}
	merged, err := Merge([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if merged.Summary.Error != 1 || merged.Summary.Unchanged != 1 {
		t.Errorf("merged summary %+v, want error 1, unchanged 1", merged.Summary)
	}
}
