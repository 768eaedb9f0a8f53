package grade

import (
	"bytes"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// TestFeedbackRefused: a submission refused before it was built gets, in its language, why, with
// what was left out of it named.
func TestFeedbackRefused(t *testing.T) {
	big := &tooBigError{code: BigFile, path: "hw/data.go"}
	tests := []struct {
		name    string
		lang    string
		res     *checker.Result
		skipped []SkippedEntry
		want    []string
	}{
		{"file too big", "en", &checker.Result{Verdict: TooBig, Message: big.code, BuildLog: big.Error(), Total: 16},
			nil, []string{"the file hw/data.go is larger than 8 MiB", "0 cases of 16 passed"}},
		{"file too big in Russian", "ru", &checker.Result{Verdict: TooBig, Message: big.code, BuildLog: big.Error(), Total: 16},
			nil, []string{"файл hw/data.go больше 8\u00a0МиБ"}},
		{"too deep in Bulgarian", "bg", &checker.Result{Verdict: TooBig, Message: BigDepth, BuildLog: (&tooBigError{code: BigDepth, limit: 32}).Error()},
			[]SkippedEntry{{"a/zz.go", SkipFIFO}}, []string{"вложени на повече от 32 нива", "1 елемент от предаденото е пропуснат", "`a/zz.go` (именуван канал)"}},
		{"an old record without a code", "en", &checker.Result{Verdict: TooBig, BuildLog: "601 files, 1 bytes"},
			nil, []string{"more than a program needs (601 files, 1 bytes)"}},
		{"archive with a link", "en", &checker.Result{Verdict: BadArchive, Message: ZipTwice, BuildLog: "MAIN.go"},
			[]SkippedEntry{{"zz.go", SkipSymlink}}, []string{"MAIN.go", "`zz.go` (a symbolic link)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			rep := &Report{Exercise: "exercise-deadline"}
			Feedback(&buf, rep, Student{Name: "x", Lang: tt.lang, Result: tt.res, Skipped: tt.skipped})
			got := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in:\n%s", w, got)
				}
			}
		})
	}
}

// TestFeedbackSuperseded: a Canvas student whose older versions of a file were set aside is told
// which, in the student's language, and the report names them in the instructor's.
func TestFeedbackSuperseded(t *testing.T) {
	res := &checker.Result{Verdict: checker.Pass, Passed: 1, Total: 1, Cases: []checker.CaseResult{{Name: "a", Status: checker.Pass, Visible: true}}}
	tests := []struct {
		lang, verdict string
		res           *checker.Result
		want          string
	}{
		{"ru", "pass", res, "проверена самая новая версия каждого, а старые отложены: main.go, util-1.go."},
		{"bg", "pass", res, "проверена е най-новата версия на всеки, а по-старите са оставени настрана: main.go, util-1.go."},
		{"en", "refused", &checker.Result{Verdict: BadArchive, Message: ZipTwice, BuildLog: "MAIN.go"}, "the older ones were set aside: main.go, util-1.go."},
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+tt.verdict, func(t *testing.T) {
			var buf bytes.Buffer
			st := Student{Name: "x", Lang: tt.lang, Result: tt.res, Superseded: []string{"main.go", "util-1.go"}}
			Feedback(&buf, &Report{Exercise: "exercise-deadline"}, st)
			if got := buf.String(); !strings.Contains(got, tt.want) {
				t.Errorf("no %q in:\n%s", tt.want, got)
			}
			notes := strings.Join(studentNotes(i18n.New(tt.lang), st, false), "\n")
			if !strings.Contains(notes, "main.go, util-1.go") {
				t.Errorf("the report's notes do not name the files: %q", notes)
			}
		})
	}
}
