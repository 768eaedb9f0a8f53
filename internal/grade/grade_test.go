package grade

import (
	"archive/zip"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// deadlineJob is a Job for the course's exercise-deadline, as the CLI would make it.
func deadlineJob(t testing.TB) *Job {
	t.Helper()
	c := course.New(workbook.Content())
	ex, err := c.Exercise("exercise-deadline")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := ex.Cases()
	if err != nil {
		t.Fatal(err)
	}
	job := &Job{Exercise: ex.Name, Titles: ex.Titles, Cases: cases, Fallback: "bg", Limits: checker.Limits{RunTime: 5 * time.Second}}
	for _, l := range course.Langs {
		s, err := ReadSource(c.FS(), ex.StarterDir(l), l)
		if err != nil {
			t.Fatal(err)
		}
		job.Starters = append(job.Starters, s)
		s, err = ReadSource(c.FS(), ex.SolutionDir(l), l)
		if err != nil {
			t.Fatal(err)
		}
		job.Solutions = append(job.Solutions, s)
	}
	return job
}

func courseFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := fs.ReadFile(workbook.Content(), name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// deadlineCases counts exercise-deadline's visible and hidden cases, and both together: the
// numbers a report of a class that passes everything shows.
func deadlineCases(t testing.TB) (visible, hidden, all int) {
	t.Helper()
	v, err1 := fs.Glob(workbook.Content(), "exercises/exercise-deadline/cases/visible/*.txtar")
	h, err2 := fs.Glob(workbook.Content(), "exercises/exercise-deadline/cases/hidden/*.txtar")
	if err1 != nil || err2 != nil || len(v) == 0 || len(h) == 0 {
		t.Fatalf("exercise-deadline's cases: %d visible, %d hidden (%v, %v)", len(v), len(h), err1, err2)
	}
	return len(v), len(h), len(v) + len(h)
}

// makeClass writes a small class: two correct programs (bg at depth, ru), a renamed copy in a zip,
// the untouched starter, and one that does not compile.
func makeClass(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	solBG := courseFile(t, "solutions/exercise-deadline/bg/main.go")
	write("Иван Петров/hw/main.go", solBG)
	write("Мария/main.go", courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	write("starter/main.go", courseFile(t, "exercises/exercise-deadline/bg/main.go"))
	write("broken/main.go", []byte("package main\n\nfunc main() { x := 1 }\n"))
	renamed := strings.NewReplacer("tick", "t", "attempt", "n").Replace(string(solBG))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("Петя/main.go")
	w.Write([]byte(renamed))
	zw.Close()
	write("Петя Колева.zip", buf.Bytes())
	return dir
}

// zeroTimes removes what differs between two runs of the same grading: timings.
func zeroTimes(rep *Report) {
	for i := range rep.Students {
		r := rep.Students[i].Result
		r.BuildTime = 0
		for j := range r.Cases {
			r.Cases[j].Duration = 0
		}
	}
}

func runGrade(t *testing.T, job *Job, class, out string) (*Report, *Outcome) {
	t.Helper()
	rep, outcome, err := Run(context.Background(), job, class, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(out, rep, "en"); err != nil {
		t.Fatal(err)
	}
	return rep, outcome
}

func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a class of programs")
	}
	t.Parallel() // grades a class of its own
	class := makeClass(t)
	whole := filepath.Join(t.TempDir(), "whole")
	rep, out := runGrade(t, deadlineJob(t), class, whole)
	if out.Graded != 5 || out.Resumed != 0 {
		t.Fatalf("graded %d, resumed %d; want 5, 0", out.Graded, out.Resumed)
	}
	want := map[string]string{"Иван Петров": "pass", "Мария": "pass", "Петя Колева": "pass", "starter": "unchanged", "broken": "error"}
	for _, st := range rep.Students {
		if st.Status != want[st.Name] {
			t.Errorf("%s: %s (%s), want %s", st.Name, st.Status, st.Result.Verdict, want[st.Name])
		}
	}
	// Мария's program is the Russian reference solution, a translation of the Bulgarian one that the
	// other two copied: one group.
	if len(rep.Copies) != 1 || strings.Join(rep.Copies[0].Students, ",") != "Иван Петров,Мария,Петя Колева" || rep.Copies[0].Solution != "bg/ru" {
		t.Errorf("copies: %+v", rep.Copies)
	}
	csv := GradesCSV(rep, "en")

	t.Run("shards merge to the same report", func(t *testing.T) {
		var dirs []string
		for k := 1; k <= 2; k++ {
			job := deadlineJob(t)
			job.Shard = Shard{K: k, N: 2}
			dir := filepath.Join(t.TempDir(), "shard")
			runGrade(t, job, class, dir)
			dirs = append(dirs, dir)
		}
		merged, err := Merge(dirs)
		if err != nil {
			t.Fatal(err)
		}
		if got := GradesCSV(merged, "en"); !bytes.Equal(got, csv) {
			t.Errorf("grades.csv differs:\n%s\nwant:\n%s", got, csv)
		}
		a, b := *rep, *merged
		a.Students = append([]Student(nil), rep.Students...)
		zeroTimes(&a)
		zeroTimes(&b)
		ja, _ := ResultsJSON(&a)
		jb, _ := ResultsJSON(&b)
		if !bytes.Equal(ja, jb) {
			t.Errorf("results.json differs")
		}
		var ha, hb bytes.Buffer
		HTML(&ha, &a, "ru")
		HTML(&hb, &b, "ru")
		if ha.String() != hb.String() {
			t.Errorf("report.html differs")
		}
		// A slice missing, or one given twice, is refused.
		if _, err := Merge(dirs[:1]); err == nil || !strings.Contains(err.Error(), "missing_shards") {
			t.Errorf("one of two shards: %v", err)
		}
		if _, err := Merge([]string{dirs[0], dirs[0], dirs[1]}); err == nil {
			t.Errorf("a shard given twice was merged")
		}
	})

	t.Run("a killed run continues and lists nobody twice", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "killed")
		os.MkdirAll(dir, 0o755)
		// What kill -9 leaves: the journal with two students and half of a third; no final files.
		data, err := os.ReadFile(filepath.Join(whole, JournalFile))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		torn := lines[0] + lines[1] + lines[2] + lines[3][:len(lines[3])/2]
		os.WriteFile(filepath.Join(dir, JournalFile), []byte(torn), 0o644)

		rep2, out := runGrade(t, deadlineJob(t), class, dir)
		if out.Resumed != 2 || out.Graded != 3 {
			t.Errorf("resumed %d, graded %d; want 2, 3", out.Resumed, out.Graded)
		}
		if got := GradesCSV(rep2, "en"); !bytes.Equal(got, csv) {
			t.Errorf("grades.csv differs:\n%s\nwant:\n%s", got, csv)
		}
		journal, _ := os.ReadFile(filepath.Join(dir, JournalFile))
		for _, st := range rep.Students {
			if n := strings.Count(string(journal), `"student":"`+st.Name+`"`); n != 1 {
				t.Errorf("%s is in the journal %d times", st.Name, n)
			}
		}
		// Started again with nothing left to do, it grades nobody.
		_, out = runGrade(t, deadlineJob(t), class, dir)
		if out.Graded != 0 || out.Resumed != 5 {
			t.Errorf("graded %d, resumed %d; want 0, 5", out.Graded, out.Resumed)
		}
	})
}

func TestRunRefusesForeignFolder(t *testing.T) {
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "thesis.docx"), []byte("x"), 0o644)
	class := t.TempDir() // a class of one, for an empty one is refused before the report folder is looked at
	writeFiles(t, class, files{"anna/main.go": "package main\n\nfunc main() {}\n"})
	if _, _, err := Run(context.Background(), deadlineJob(t), class, out); err != ErrNotReport {
		t.Errorf("got %v, want ErrNotReport", err)
	}
}

// TestJobsDefault checks that without --jobs grading runs as many programs at once as the process may
// use CPUs (GOMAXPROCS: a container's CPU limit, or the variable), not as many as the machine has.
func TestJobsDefault(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range []struct{ jobs, procs, want int }{
		{0, 1, 1},
		{0, 3, 3},
		{5, 1, 5},
	} {
		runtime.GOMAXPROCS(tc.procs)
		if got := (&Job{Jobs: tc.jobs}).jobs(); got != tc.want {
			t.Errorf("Jobs %d with GOMAXPROCS %d: %d at once, want %d", tc.jobs, tc.procs, got, tc.want)
		}
	}
}
