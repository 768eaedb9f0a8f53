package grade

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
)

func i18nPrinter(lang string) *i18n.Printer { return i18n.New(lang) }

func deadlineOptions(t *testing.T) Options {
	t.Helper()
	c := course.New(workbook.Content())
	ex, err := c.Exercise("exercise-deadline")
	if err != nil {
		t.Fatal(err)
	}
	if ex.Generate == nil {
		t.Skip("exercise-deadline draws no cases")
	}
	return Options{Exercise: ex, Course: c.FS(), Fallback: "bg", RunTime: 5 * time.Second, Seed: DefaultSeed}
}

// TestSameProgramSameGrade: the drawn cases are the class's, not each student's, so identical programs
// in one class get identical grades and cases, and grading again gives the same; the seed is kept in
// results.json, and feedback shows every drawn case's arguments.
func TestSameProgramSameGrade(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel()
	o := deadlineOptions(t)
	job, err := NewJob(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	// A program that passes some drawn cases and not others would be the sharpest; a wrong one and a
	// right one in several copies under different names will do.
	sol := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	wrong := "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"опит 1: грешка\") }\n"
	dir := t.TempDir()
	writeFiles(t, dir, files{"ana/main.go": sol, "boris/main.go": sol, "vera/main.go": wrong, "gosho/main.go": wrong})
	grade := func() *Report {
		out := filepath.Join(t.TempDir(), "report")
		rep, _, err := Run(context.Background(), job, dir, out)
		if err != nil {
			t.Fatal(err)
		}
		if err := Write(out, rep, "en"); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(out, ResultsFile))
		if !bytes.Contains(data, []byte(`"seed": 1`)) {
			t.Errorf("results.json does not keep the seed")
		}
		fb, _ := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback["ana"]))
		if st := byName(rep, "ana"); st.Drawn == nil || len(st.Drawn.Args) == 0 || !bytes.Contains(fb, []byte(joinArgs(st.Drawn.Args[0]))) {
			t.Errorf("ana's feedback does not show the drawn cases' arguments:\n%s", fb)
		}
		return rep
	}
	first, again := grade(), grade()
	for _, pair := range [][2]string{{"ana", "boris"}, {"vera", "gosho"}} {
		a, b := byName(first, pair[0]), byName(first, pair[1])
		if a.Score != b.Score || !reflect.DeepEqual(a.Drawn.Args, b.Drawn.Args) {
			t.Errorf("%s and %s hand in the same program: scores %v and %v, drawn %v and %v", pair[0], pair[1], a.Score, b.Score, a.Drawn.Args, b.Drawn.Args)
		}
	}
	for _, st := range first.Students {
		if st2 := byName(again, st.Name); st2.Score != st.Score || !reflect.DeepEqual(st.Drawn.Args, st2.Drawn.Args) {
			t.Errorf("%s graded again: %v then %v", st.Name, st.Score, st2.Score)
		}
	}
	if byName(first, "ana").Drawn.Seed != DrawSeed(DefaultSeed, "exercise-deadline") {
		t.Errorf("drawn with seed %d, want the class's %d", byName(first, "ana").Drawn.Seed, DrawSeed(DefaultSeed, "exercise-deadline"))
	}
	if DrawSeed(1, "exercise-deadline") == DrawSeed(2, "exercise-deadline") || DrawSeed(1, "exercise-deadline") == DrawSeed(1, "exercise-retry") {
		t.Error("DrawSeed does not depend on the seed and the exercise")
	}
}

func byName(rep *Report, name string) Student {
	for _, st := range rep.Students {
		if st.Name == name {
			return st
		}
	}
	return Student{}
}

func joinArgs(a []string) string {
	var b bytes.Buffer
	for i, s := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}

// TestNewJobRefuses: bad options are errors of their own kind before anything is graded.
func TestNewJobRefuses(t *testing.T) {
	o := deadlineOptions(t)
	o.Tests = filepath.Join(t.TempDir(), "missing")
	var te *TestsError
	if _, err := NewJob(context.Background(), o); !errors.As(err, &te) || !errors.Is(err, ErrTestsDir) {
		t.Errorf("a missing tests folder: %v", err)
	}
	o = deadlineOptions(t)
	o.MoodleLang = "bg"
	if _, err := NewJob(context.Background(), o); !errors.Is(err, ErrMoodleLang) {
		t.Errorf("--moodle-lang bg without a roster: %v", err)
	}
	o = deadlineOptions(t)
	o.Roster = filepath.Join(t.TempDir(), "r.csv")
	os.WriteFile(o.Roster, []byte("Name,Mark\nx,1\n"), 0o644)
	var re *RosterError
	if _, err := NewJob(context.Background(), o); !errors.As(err, &re) || re.Code != RosterUnknown {
		t.Errorf("an unknown roster: %v", err)
	}
}

// TestLateFromZipTimes: in a class's zip, the entries' times are the LMS's; a submission after the
// due date is late by them, whatever the extraction's time, and a folder whose time cannot be known
// is never late by the due date.
func TestLateFromZipTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel()
	due := time.Date(2026, 11, 30, 23, 59, 0, 0, time.Local)
	sol := courseFile(t, "solutions/exercise-deadline/bg/main.go")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range []struct {
		name string
		at   time.Time
	}{
		{"Иванов Иван_100001_assignsubmission_file_/main.go", due.Add(-time.Hour)},
		{"Петрова Мария_100002_assignsubmission_file_/main.go", due.Add(26 * time.Hour)},
	} {
		// No extended timestamp: Moodle's zip holds the MS-DOS time alone.
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate,
			ModifiedDate: uint16((e.at.Year()-1980)<<9 | int(e.at.Month())<<5 | e.at.Day()),
			ModifiedTime: uint16(e.at.Hour()<<11 | e.at.Minute()<<5 | e.at.Second()/2)})
		w.Write(sol)
	}
	zw.Close()
	dir := t.TempDir()
	class := filepath.Join(dir, "class.zip")
	os.WriteFile(class, buf.Bytes(), 0o644)
	job := deadlineJob(t)
	job.Late = Late{Points: 10, PerDay: true, Due: due}
	rep, _, err := Run(context.Background(), job, class, filepath.Join(dir, "report"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"Иванов Иван": 0, "Петрова Мария": 2} {
		st := byName(rep, name)
		if st.DaysLate != want || st.TimeFrom != TimeFromZip {
			t.Errorf("%s: %d days late by %q, want %d by the zip", name, st.DaysLate, st.TimeFrom, want)
		}
	}
}

// TestCloneWhateverItsSize: a clone of the course handed in whole, with more files than the limits
// allow, is graded from the learner's folder of the exercise; a folder without one past the limits
// is too big, and says which flag raises the limit.
func TestCloneWhateverItsSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel()
	sol := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	clone := files{"clone/my/exercise-deadline/main.go": sol, "clone/solutions/exercise-deadline/bg/main.go": sol,
		"clone/exercises/exercise-deadline/bg/main.go": string(courseFile(t, "exercises/exercise-deadline/bg/main.go"))}
	big := files{}
	for i := range DefaultReadLimits.Files + 10 {
		name := fmt.Sprintf("internal/pkg%d/f.go", i)
		clone["clone/"+name] = "package pkg\n"
		big["big/"+name] = "package pkg\n"
	}
	dir := t.TempDir()
	writeFiles(t, dir, clone)
	writeFiles(t, dir, big)
	zipped := files{}
	for k, v := range clone {
		zipped[strings.TrimPrefix(k, "clone/")] = v
	}
	writeFiles(t, dir, files{"zipped.zip": zipOf(t, zipped)})
	rep, _, err := Run(context.Background(), deadlineJob(t), dir, filepath.Join(t.TempDir(), "report"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"clone", "zipped"} {
		if st := byName(rep, name); st.Status != StatusPass || st.Program != "my/exercise-deadline" {
			t.Errorf("%s: %s (%s), program %q; want a pass from my/exercise-deadline", name, st.Status, st.Result.BuildLog, st.Program)
		}
	}
	st := byName(rep, "big")
	if st.Result.Verdict != TooBig || st.Result.Message != BigFiles {
		t.Fatalf("big: %s %s", st.Result.Verdict, st.Result.Message)
	}
	var notes []string
	notes = append(notes, studentNotes(i18nPrinter("en"), st, false)...)
	if !strings.Contains(strings.Join(notes, " "), "--max-files") {
		t.Errorf("the report's notes for big do not name --max-files: %q", notes)
	}
}

// TestCommitTime: a Classroom repository's time is its last commit's, never the checkout's.
func TestCommitTime(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-11-29T10:00:00Z", "GIT_COMMITTER_DATE=2026-11-29T10:00:00Z",
			"GIT_AUTHOR_NAME=s", "GIT_AUTHOR_EMAIL=s@example.org", "GIT_COMMITTER_NAME=s", "GIT_COMMITTER_EMAIL=s@example.org",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	run("init", "-q")
	run("add", "main.go")
	run("commit", "-q", "-m", "done")
	got, ok := commitTime(dir)
	if want := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC); !ok || !got.Equal(want) {
		t.Errorf("commitTime = %v, %v; want %v", got, ok, want)
	}
	g := &grader{job: &Job{}}
	if _, from := g.submissionTime(Submission{Path: dir, Kind: KindDir}); from != TimeFromCommit {
		t.Errorf("a repository's time comes from %q", from)
	}
	os.RemoveAll(filepath.Join(dir, ".git", "objects"))
	if tm, from := g.submissionTime(Submission{Path: dir, Kind: KindDir}); from != "" || !tm.IsZero() {
		t.Errorf("a broken repository's time: %v from %q, want unknown (never the checkout's)", tm, from)
	}
}

// TestExactCopiesHoweverShort: two programs that are the same (the same Print hash) are a copy group
// however short, which the size threshold of the other groups lets pass; the untouched starter is
// nobody's copy.
func TestExactCopiesHoweverShort(t *testing.T) {
	mk := func(name, hash string, tokens int, v checker.Verdict) Student {
		return Student{Name: name, Fingerprint: Print{Hash: hash, Tokens: tokens}, Result: &checker.Result{Verdict: v, Cases: []checker.CaseResult{}}}
	}
	rep := &Report{Students: []Student{mk("ann", "h1", 3, checker.Fail), mk("bob", "h1", 3, checker.Fail), mk("cid", "h2", 3, checker.Fail),
		mk("dan", "", 0, Unchanged), mk("eve", "", 0, Unchanged)}}
	rep.Finalize()
	var exact []CopyGroup
	for _, g := range rep.Copies {
		if g.Exact {
			exact = append(exact, g)
		}
	}
	if len(exact) != 1 || strings.Join(exact[0].Students, ",") != "ann,bob" {
		t.Errorf("exact copies: got %+v, want ann and bob", rep.Copies)
	}
}

// TestDrawnOncePerLanguage: the job's drawn cases are those the exercise draws with the class's
// seed, the same for every student of a language, and what one student's draw is given cannot
// change another's.
func TestDrawnOncePerLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the reference solution")
	}
	o := deadlineOptions(t)
	job := &Job{}
	job.setDraw(o.Exercise, o.Seed)
	ctx := context.Background()
	for _, lang := range course.Langs {
		want, drawn, err := o.Exercise.DrawnCases(ctx, DrawSeed(o.Seed, o.Exercise.Name), lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, student := range []string{"ana", "boris", "ana"} {
			d, err := job.Draw(ctx, student, lang)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Cases, want) || len(d.Args) != len(drawn) {
				t.Fatalf("%s, %s: drawn %d cases, not the exercise's %d", lang, student, len(d.Cases), len(want))
			}
			for i := range drawn {
				if !reflect.DeepEqual(d.Args[i], drawn[i].Args) {
					t.Errorf("%s, %s: case %d has the args %q, want %q", lang, student, i, d.Args[i], drawn[i].Args)
				}
			}
			d.Args[0][0], d.Cases[0].Name = "changed", "changed" // must not reach the next student
		}
	}
}
