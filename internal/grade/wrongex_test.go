package grade

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// jobFor is a Job for the course's exercise name with the other exercises' first cases, as NewJob
// makes it.
func jobFor(t testing.TB, name string) *Job {
	t.Helper()
	ex, err := course.New(workbook.Content()).Exercise(name)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := ex.Cases()
	if err != nil {
		t.Fatal(err)
	}
	job := &Job{Exercise: ex.Name, Cases: cases, Fallback: "bg", Limits: ex.Limits(checker.Limits{RunTime: 5 * time.Second})}
	job.Others = otherCases(workbook.Content(), ex)
	job.readCourse(ex, workbook.Content())
	return job
}

// TestOtherCases: the other exercises' first visible cases, those of the same lesson first, never
// the exercise's own nor one that runs in another time (virtual or real).
func TestOtherCases(t *testing.T) {
	others := jobFor(t, "exercise-retry").Others
	if len(others) == 0 || others[0].Exercise == "exercise-retry" {
		t.Fatalf("others: %d, first %+v", len(others), others)
	}
	seen := map[string]bool{}
	for i, o := range others {
		if o.Exercise == "exercise-retry" || seen[o.Exercise] || !o.Case.Visible {
			t.Errorf("%d: %s %s (visible %t) should not be there", i, o.Exercise, o.Case.Name, o.Case.Visible)
		}
		seen[o.Exercise] = true
	}
	if !seen["exercise-jitter"] || seen["exercise-retry-ctx"] {
		t.Errorf("exercise-jitter (the same lesson, real time) must be there, exercise-retry-ctx (virtual time) not: %v", seen)
	}
}

// TestWrongExercise: a class that solved exercise-jitter, graded as exercise-retry, is stopped
// before anything is graded; an honest class is never stopped however many fail, nor one where
// some solved another exercise, nor a run with --force or --only.
func TestWrongExercise(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	jitter := func(l string) string {
		return string(courseFile(t, "solutions/exercise-jitter/"+l+"/main.go"))
	}
	retry := func(l string) string {
		return string(courseFile(t, "solutions/exercise-retry/"+l+"/main.go"))
	}
	metastable := func(l string) string {
		return string(courseFile(t, "solutions/exercise-metastable-client/"+l+"/main.go"))
	}
	wrong := func(s string) string {
		return "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"" + s + "\") }\n"
	}
	tests := []struct {
		name     string
		exercise string // graded as; exercise-retry when ""
		programs []string
		force    bool
		only     string
		other    string // the exercise the class seems to have solved; "" when it is graded
		not      string // a case of other the stop must not be told by (one the graded starter passes)
	}{
		{name: "a class of exercise-jitter", programs: []string{jitter("ru"), jitter("bg"), jitter("ru")}, other: "exercise-jitter"},
		{name: "most fail, none solves another", programs: []string{wrong("результат: ok"), wrong("тик 0"), retry("bg"), wrong("")}},
		{name: "some solved another", programs: []string{retry("ru"), jitter("bg"), retry("bg")}},
		// The starter of exercise-chain-client passes the first visible case of
		// exercise-metastable-client: its next one tells the class apart.
		{name: "a class of exercise-metastable-client graded as exercise-chain-client", exercise: "exercise-chain-client",
			programs: []string{metastable("ru"), metastable("bg"), metastable("ru")}, other: "exercise-metastable-client", not: "01-slow-disk"},
		{name: "--force", programs: []string{jitter("ru"), jitter("bg"), jitter("ru")}, force: true},
		{name: "--only", programs: []string{jitter("ru"), jitter("bg"), jitter("ru")}, only: "s0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var subs []Submission
			for i, prog := range tt.programs {
				name := "s" + string(rune('0'+i))
				writeFiles(t, dir, files{name + "/main.go": prog})
				subs = append(subs, Submission{Name: name, Path: filepath.Join(dir, name), Kind: KindDir})
			}
			ex := cmp.Or(tt.exercise, "exercise-retry")
			job := jobFor(t, ex)
			job.Force, job.Only = tt.force, tt.only
			err := checkExercise(context.Background(), job, subs)
			var we *WrongExerciseError
			switch {
			case tt.other == "" && err != nil:
				t.Fatalf("stopped: %v", err)
			case tt.other != "" && (!errors.As(err, &we) || we.Other != tt.other):
				t.Fatalf("got %v, want the class to seem to solve %s", err, tt.other)
			case tt.other != "":
				if we.Case != job.firstVisible().Name || we.Matched*2 <= we.Sampled || we.OtherCase == tt.not {
					t.Errorf("%+v: the first visible case, and most of the sample", we)
				}
				m := RunMessage(err, "out dir", "subs", "", Shard{})
				if m.ID != "grade_err_wrong_exercise" || !strings.Contains(strings.Join(argStrings(m.Args), " "), "'out dir'") {
					t.Errorf("message %+v: the command to run must quote the folder", m)
				}
			}
		})
	}
}

func argStrings(args []any) []string {
	var out []string
	for _, a := range args {
		if s, ok := a.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// TestSampleSize: a tenth of the class, at least 3 (all of a smaller one) and at most 8.
func TestSampleSize(t *testing.T) {
	for _, tt := range []struct{ n, want int }{{1, 1}, {2, 2}, {3, 3}, {22, 3}, {45, 4}, {104, 8}, {5000, 8}} {
		if got := sampleSize(tt.n); got != tt.want {
			t.Errorf("sampleSize(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// BenchmarkCheckExercise24 is what the check for the wrong exercise adds to grading the 24 students of
// BenchmarkGrade24: for a class that passes (a sample built and run on one case), and for one where
// every program fails (the sample also runs the other exercises' first cases). See BENCHMARKS.md:
//
//	go test ./internal/grade -run '^$' -bench 'CheckExercise24|Grade24$' -benchtime 1x -count 3
func BenchmarkCheckExercise24(b *testing.B) {
	job := jobFor(b, "exercise-deadline")
	for _, kind := range []string{"pass", "fail"} {
		b.Run(kind, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				class := benchClass(b, benchStudents, i)
				if kind == "fail" {
					class = b.TempDir()
					for k := range benchStudents {
						writeFiles(b, class, files{fmt.Sprintf("s%02d/main.go", k): fmt.Sprintf(
							"package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"%d %d %d\") }\n", benchSalt, k, benchRound.Add(1))})
					}
				}
				subs, _, err := List(class)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := checkExercise(context.Background(), job, subs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// editedStarter is the starter src of an exercise with a line or two added by a student who has
// not solved it yet: its behaviour is the starter's, its code no longer the starter's as handed out.
func editedStarter(src Source, n int) files {
	out := files{}
	for name, data := range src.Files {
		text := string(data)
		if strings.Contains(text, "func main()") {
			text += fmt.Sprintf("\nvar edited%d = %d\n\nfunc init() { edited%d += len(\"attempt\") }\n", n, n, n)
		}
		out[name] = text
	}
	return out
}

// TestEditedStartersNotWrongExercise: for every exercise of the course, a class of barely-edited
// starters (each student added a line or two, every program still fails) is graded as it is, never
// taken for a class that solved another exercise, even when the starter as handed out happens to
// pass another exercise's first case (a usage line, a transcript of nothing).
func TestEditedStartersNotWrongExercise(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	list, err := course.New(workbook.Content()).Exercises()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range list {
		t.Run(ex.Name, func(t *testing.T) {
			job := jobFor(t, ex.Name)
			if len(job.Starters) == 0 {
				t.Fatal("no starter")
			}
			dir := t.TempDir()
			var subs []Submission
			for i := range 3 {
				name := fmt.Sprintf("s%d", i)
				src := job.Starters[i%len(job.Starters)]
				fs := files{}
				for n, d := range editedStarter(src, i) {
					fs[name+"/"+n] = d
				}
				writeFiles(t, dir, fs)
				subs = append(subs, Submission{Name: name, Path: filepath.Join(dir, name), Kind: KindDir})
			}
			g := newGrader(job)
			g.work = t.TempDir()
			for i, s := range subs {
				it, err := g.prepare(s, i, "")
				if err != nil || it.dir == "" {
					t.Fatalf("%s is not prepared as a program to build (%v, %+v): the edit is not one", s.Name, err, it.st.Result)
				}
			}
			if err := checkExercise(context.Background(), job, subs); err != nil {
				t.Errorf("a class of edited starters of %s: %v", ex.Name, err)
			}
		})
	}
}
