package grade

import (
	"bytes"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
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
