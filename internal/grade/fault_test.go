package grade

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestGraderFaultIsOneRow: a fault of the grader's own code on one student's submission (a panic
// while it is read, or while its results are advised on) is that student's row, status tool_error
// with the fault named, and their feedback says the grading side failed; the classmates are graded,
// the class's report is written, and a run again grades that student again. Not parallel: it swaps
// the package's readProgram and adviseOn for the time of the test.
func TestGraderFaultIsOneRow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a class of programs")
	}
	for _, tc := range []struct {
		stage string
		swap  func(t *testing.T)
	}{
		{"reading the submission", func(t *testing.T) {
			orig := readProgram
			t.Cleanup(func() { readProgram = orig })
			readProgram = func(dir string) Source {
				src := orig(dir)
				if strings.Contains(string(src.Files["main.go"]), "// faulty") {
					var m map[string]int
					m["x"] = 1 // a nil map: the kind of bug a grader could have
				}
				return src
			}
		}},
		{"grading the program", func(t *testing.T) {
			orig := adviseOn
			t.Cleanup(func() { adviseOn = orig })
			adviseOn = func(ctx context.Context, dir string, st Student, res *checker.Result) []checker.Advice {
				if st.Name == "faulty" {
					_ = res.Cases[len(res.Cases)+1] // index out of range
				}
				return orig(ctx, dir, st, res)
			}
		}},
	} {
		t.Run(tc.stage, func(t *testing.T) {
			class := t.TempDir()
			sol := courseFile(t, "solutions/exercise-deadline/ru/main.go")
			for _, name := range []string{"anna", "faulty", "boris"} {
				writeFiles(t, class, files{name + "/main.go": string(sol) + "\n// " + name + "\n"})
			}
			tc.swap(t)
			out := filepath.Join(t.TempDir(), "report")
			rep, _ := runGrade(t, deadlineJob(t), class, out)
			for _, st := range rep.Students {
				want := StatusPass
				if st.Name == "faulty" {
					want = StatusTool
					if !strings.Contains(st.Result.Message, "the grader failed while "+tc.stage) {
						t.Errorf("faulty: message %q does not name the grader's fault", st.Result.Message)
					}
				}
				if st.Status != want {
					t.Errorf("%s: %s (%s %s), want %s", st.Name, st.Status, st.Result.Verdict, st.Result.Message, want)
				}
			}
			if s := rep.Summary; s.Tool != 1 || s.Error != 0 || s.Pass != 2 {
				t.Errorf("summary %+v, want 2 pass, 1 tool_error, no error", s)
			}
			for _, f := range []string{GradesFile, HTMLFile, ResultsFile} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Error(err)
				}
			}
			// The fault gone, a run again grades the student it struck, and only them.
			readProgram, adviseOn = programSource, advise
			rep, outcome := runGrade(t, deadlineJob(t), class, out)
			if outcome.Graded != 1 || outcome.Resumed != 2 || rep.Summary.Pass != 3 {
				t.Errorf("run again: graded %d, resumed %d, summary %+v; want 1, 2 and 3 pass", outcome.Graded, outcome.Resumed, rep.Summary)
			}
		})
	}
}
