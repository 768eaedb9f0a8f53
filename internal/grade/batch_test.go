package grade

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// traceAddr finds the addresses a stack trace shows as arguments: another in every run.
var traceAddr = regexp.MustCompile(`0x[0-9a-f]{6,}`)

// TestGradeBatch grades a class whose programs are built side by side by one go command, one of
// which prints from its init: the init's output is in its own runs alone, a crash reads as a
// separate build's (nothing names the batch), and a second grading (from the cache of executables
// where there is one) gives the same results.
func TestGradeBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a class of programs")
	}
	class := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(class, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sol := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	write("ivan/main.go", sol)
	write("loud/main.go", sol)
	write("loud/loud.go", "package main\n\nimport \"fmt\"\n\nfunc init() { fmt.Println(\"LOUD\") }\n")
	write("crash/main.go", "package main\n\nimport \"fmt\"\n\ntype box struct{ m map[string]int }\n\nfunc (b *box) add() { b.m[\"тик\"]++ }\n\nfunc main() {\n\tfmt.Println(\"тик 0\")\n\t(&box{}).add()\n}\n")
	job := deadlineJob(t)
	rep, _ := runGrade(t, job, class, filepath.Join(t.TempDir(), "report"))
	byName := map[string]Student{}
	for _, st := range rep.Students {
		byName[st.Name] = st
	}
	if st := byName["ivan"]; st.Status != "pass" {
		t.Errorf("ivan: %s (%s)", st.Status, st.Result.Verdict)
	}
	if st := byName["loud"]; st.Status != "fail" || !strings.HasPrefix(st.Result.Cases[0].Got, "LOUD\n") {
		t.Errorf("loud: %s, printed %q", st.Status, st.Result.Cases[0].Got)
	}
	for _, st := range rep.Students {
		for _, c := range st.Result.Cases {
			if st.Name != "loud" && strings.Contains(c.Got+c.Stderr, "LOUD") {
				t.Errorf("%s, case %s shows loud's init: %q", st.Name, c.Name, c.Got)
			}
			if strings.Contains(c.Stderr, "learners") || strings.Contains(c.Stderr, "workbook_dispatch") || strings.Contains(c.Stderr, "m\u0430in") {
				t.Errorf("%s, case %s names the batch: %q", st.Name, c.Name, c.Stderr)
			}
		}
	}
	crash := byName["crash"].Result
	if crash.Verdict != "crash" || !strings.Contains(crash.Cases[0].Stderr, "goroutine 1 [running]:\nmain.(*box).add(") ||
		!strings.Contains(crash.Cases[0].Stderr, "\nmain.main()\n\tmain.go:11 ") {
		t.Errorf("crash: %s, stderr %q", crash.Verdict, crash.Cases[0].Stderr)
	}

	again, _ := runGrade(t, deadlineJob(t), class, filepath.Join(t.TempDir(), "again"))
	zeroTimes(rep)
	zeroTimes(again)
	for i := range rep.Students {
		a, b := rep.Students[i].Result, again.Students[i].Result
		for j := range a.Cases {
			a.Cases[j].Message, b.Cases[j].Message = "", "" // names the case's scratch file
			a.Cases[j].Stderr = traceAddr.ReplaceAllString(a.Cases[j].Stderr, "0x…")
			b.Cases[j].Stderr = traceAddr.ReplaceAllString(b.Cases[j].Stderr, "0x…")
		}
		if a.Verdict != b.Verdict || !reflect.DeepEqual(a.Cases, b.Cases) {
			t.Errorf("%s graded again: %s, first %s", rep.Students[i].Name, b.Verdict, a.Verdict)
		}
	}
}

func TestDefaultBatch(t *testing.T) {
	tests := []struct{ n, jobs, want int }{
		{0, 2, 0}, {1, 2, 1}, {10, 2, 10}, {24, 2, 24}, {25, 2, 13}, {30, 2, 15}, {48, 2, 24}, {49, 2, 17},
		{100, 2, 20}, {100, 8, 50}, {1000, 8, 63},
	}
	for _, tt := range tests {
		if got := defaultBatch(tt.n, tt.jobs); got != tt.want {
			t.Errorf("defaultBatch(%d, %d) = %d, want %d", tt.n, tt.jobs, got, tt.want)
		}
	}
}
