package grade

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestToolFailureRetried: a failure of the tool (here the drawing of a student's cases, as a
// reference solution that could not be built would fail it) is never a student's verdict. Tried
// once more, it is gone for a student whose second try works, who is graded as any other; a student
// whose second try fails too gets the status tool_error, counted apart in the summary, never error;
// and a run again grades that student again instead of taking the record over from the journal.
func TestToolFailureRetried(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a class of programs")
	}
	class := t.TempDir()
	sol := courseFile(t, "solutions/exercise-deadline/bg/main.go")
	for _, name := range []string{"once", "always", "never"} {
		dir := filepath.Join(class, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		// A comment of its own, so that no two are the same program.
		if err := os.WriteFile(filepath.Join(dir, "main.go"), append(sol, []byte("\n// "+name+"\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	calls := map[string]int{}
	draw := func(ctx context.Context, student, lang string) (*Drawn, error) {
		mu.Lock()
		defer mu.Unlock()
		calls[student]++
		switch {
		case student == "always", student == "once" && calls[student] == 1:
			return nil, errors.New("building the reference solution: go build did not finish")
		}
		return &Drawn{}, nil
	}
	out := filepath.Join(t.TempDir(), "report")
	job := deadlineJob(t)
	job.Draw = draw
	rep, _ := runGrade(t, job, class, out)
	want := map[string]string{"once": StatusPass, "always": StatusTool, "never": StatusPass}
	for _, st := range rep.Students {
		if st.Status != want[st.Name] {
			t.Errorf("%s: %s (%s %s), want %s", st.Name, st.Status, st.Result.Verdict, st.Result.Message, want[st.Name])
		}
	}
	if calls["once"] != 2 || calls["always"] != 2 || calls["never"] != 1 {
		t.Errorf("cases drawn %v times, want once 2, always 2, never 1", calls)
	}
	if s := rep.Summary; s.Tool != 1 || s.Error != 0 || s.Pass != 2 {
		t.Errorf("summary %+v, want 2 pass, 1 tool_error, no error", s)
	}
	// A run again takes over the two graded students and grades the third again.
	job = deadlineJob(t)
	job.Draw = func(ctx context.Context, student, lang string) (*Drawn, error) { return &Drawn{}, nil }
	rep, outcome := runGrade(t, job, class, out)
	if outcome.Resumed != 2 || outcome.Graded != 1 {
		t.Errorf("resumed %d, graded %d; want 2 and 1", outcome.Resumed, outcome.Graded)
	}
	if s := rep.Summary; s.Tool != 0 || s.Pass != 3 {
		t.Errorf("after the run again: summary %+v, want 3 pass", s)
	}
}
