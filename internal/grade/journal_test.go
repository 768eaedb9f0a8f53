package grade

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

func rec(name string, passed int) Student {
	return Student{Name: name, SourceHash: "h-" + name, Result: &checker.Result{Verdict: checker.Pass, Passed: passed, Total: 3}}
}

func TestJournalResume(t *testing.T) {
	dir := t.TempDir()
	j, err := OpenJournal(dir, "cfg", "ex")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []Student{rec("Иван Петров", 1), rec("b", 2), rec("Иван Петров", 3)} {
		if err := j.Append(st); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()

	// kill -9 in the middle of a write leaves half a line.
	f, _ := os.OpenFile(filepath.Join(dir, JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"student":"c","source_ha`)
	f.Close()

	j, err = OpenJournal(dir, "cfg", "ex")
	if err != nil {
		t.Fatal(err)
	}
	if j.Reset || j.Resumed != 2 {
		t.Fatalf("Reset=%v Resumed=%d, want false 2", j.Reset, j.Resumed)
	}
	if st, _ := j.Get("Иван Петров"); st.Result.Passed != 3 {
		t.Errorf("the later record should win: passed %d", st.Result.Passed)
	}
	if _, ok := j.Get("c"); ok {
		t.Errorf("the torn record was taken")
	}
	if err := j.Append(rec("c", 1)); err != nil {
		t.Fatal(err)
	}
	if err := j.Compact("cfg", "ex"); err != nil {
		t.Fatal(err)
	}
	j.Close()

	data, _ := os.ReadFile(filepath.Join(dir, JournalFile))
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 4 { // the header and one line per student
		t.Fatalf("compacted journal has %d lines:\n%s", len(lines), data)
	}
	if strings.Count(string(data), `"student":"Иван Петров"`) != 1 {
		t.Errorf("a student is listed twice:\n%s", data)
	}

	j, _ = OpenJournal(dir, "cfg", "ex")
	if j.Resumed != 3 {
		t.Errorf("after compaction: %d students, want 3", j.Resumed)
	}
	j.Close()

	// Another grading (other cases): the journal is set aside, not resumed.
	j, _ = OpenJournal(dir, "other", "ex")
	if !j.Reset || j.Resumed != 0 {
		t.Errorf("another config: Reset=%v Resumed=%d", j.Reset, j.Resumed)
	}
	j.Close()
	if _, err := os.Stat(filepath.Join(dir, JournalFile+".old")); err != nil {
		t.Errorf("the old journal is gone: %v", err)
	}
}

func TestJournalTornHeader(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, JournalFile), []byte(`{"journal":1,"con`), 0o644)
	j, err := OpenJournal(dir, "cfg", "ex")
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(rec("a", 1)); err != nil {
		t.Fatal(err)
	}
	j.Close()
	j, _ = OpenJournal(dir, "cfg", "ex")
	defer j.Close()
	if j.Resumed != 1 {
		t.Errorf("Resumed=%d, want 1", j.Resumed)
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "grades.csv")
	for _, s := range []string{"one", "two"} {
		if err := writeAtomic(p, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(p); string(data) != "two" {
		t.Errorf("got %q", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// TestJournalOfAnOlderGrader: records an older grader wrote (before advice, scenario figures and
// exit codes as they are now) are never resumed beside new ones: the journal is set aside and the
// class graded again, whatever else of the grading is the same.
func TestJournalOfAnOlderGrader(t *testing.T) {
	job := &Job{Exercise: "ex", Cases: []checker.Case{{Name: "01", Visible: true, Script: []byte("run\n")}}}
	current, err := strconv.Atoi(graderVersion)
	if err != nil || current < 8 {
		t.Fatalf("graderVersion %q: the records changed in version 8 (advice, scenario figures)", graderVersion)
	}
	for v := 1; v < current; v++ {
		old := strconv.Itoa(v)
		t.Run("grader "+old, func(t *testing.T) {
			dir := t.TempDir()
			j, err := OpenJournal(dir, job.configOf(old), job.Exercise)
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Append(rec("a", 3)); err != nil {
				t.Fatal(err)
			}
			j.Close()
			j, err = OpenJournal(dir, job.Config(), job.Exercise)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if _, ok := j.Get("a"); ok || !j.Reset || j.Resumed != 0 {
				t.Errorf("a journal of grader %s was resumed by grader %s: Reset=%v Resumed=%d", old, graderVersion, j.Reset, j.Resumed)
			}
		})
	}
}
