package grade

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// commitRepo makes a repository in dir whose one commit carries the date given (the author's and the
// committer's, as GIT_COMMITTER_DATE and GIT_AUTHOR_DATE set them: whatever the student writes).
func commitRepo(t *testing.T, dir string, date time.Time, fs files) {
	t.Helper()
	writeFiles(t, dir, fs)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "hw"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=s", "-c", "user.email=s@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+date.Format(time.RFC3339), "GIT_AUTHOR_DATE="+date.Format(time.RFC3339),
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestBackdatedCommit: two students of a GitHub Classroom hand in at the same moment, a day after the
// due date; one of them backdated the commit. By the commits alone, the backdated one is on time and
// the time is said to be the student's claim (grades.csv, report.html, the feedback); with GitHub
// Classroom's grades as the roster, both are late by the time GitHub recorded.
func TestBackdatedCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	due := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	handedIn := due.Add(24 * time.Hour)
	class := t.TempDir()
	prog := files{"main.go": string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))}
	commitRepo(t, filepath.Join(class, "hw1-alice"), due.Add(-time.Hour), prog) // GIT_COMMITTER_DATE before the due date
	commitRepo(t, filepath.Join(class, "hw1-bob"), handedIn, prog)
	grades := "assignment_name,assignment_url,starter_code_url,github_username,roster_identifier,student_repository_name,student_repository_url,submission_timestamp,points_awarded,points_available\n" +
		"hw1,https://classroom.github.com/a/x,,alice,Алиса Иванова,hw1-alice,https://github.com/c/hw1-alice," + handedIn.Format("2006-01-02 15:04:05") + " UTC,0,100\n" +
		"hw1,https://classroom.github.com/a/x,,bob,Борис Петров,hw1-bob,https://github.com/c/hw1-bob," + handedIn.Format("2006-01-02 15:04:05") + " UTC,0,100\n" +
		"hw1,https://classroom.github.com/a/x,,carol,Карина,,,,0,100\n"
	rosterPath := filepath.Join(t.TempDir(), "grades.csv")
	os.WriteFile(rosterPath, []byte(grades), 0o644)

	tests := []struct {
		name     string
		roster   bool
		wantLate map[string]bool
		wantFrom string
	}{
		{"commits alone", false, map[string]bool{"alice": false, "bob": true}, "commit_claimed"},
		{"GitHub Classroom's grades", true, map[string]bool{"alice": true, "bob": true}, "roster"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			job := deadlineJob(t)
			job.Late = Late{Points: 10, Due: due}
			if tt.roster {
				ro, err := ReadRoster(rosterPath, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				job.Roster = ro
			}
			subs, _, err := listClass(job, class, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			g := newGrader(job)
			g.work = t.TempDir()
			rep := &Report{Exercise: job.Exercise, Titles: job.Titles, Due: due}
			for i, s := range subs {
				it, err := g.prepare(s, i, "")
				if err != nil {
					t.Fatal(err)
				}
				it.st.Result = &checker.Result{Verdict: checker.Pass, Passed: 1, Total: 1, Cases: []checker.CaseResult{{Name: "c", Status: checker.Pass}}}
				rep.Students = append(rep.Students, it.st)
			}
			rep.Students = append(rep.Students, g.missing(subs)...)
			rep.Finalize()
			byName := map[string]Student{}
			for _, st := range rep.Students {
				byName[st.Name] = st
			}
			for name, late := range tt.wantLate {
				st := byName[name]
				if st.Late != late || timeSource(st) != tt.wantFrom {
					t.Errorf("%s: late %t from %q (%s), want late %t from %q", name, st.Late, timeSource(st), st.Submitted, late, tt.wantFrom)
				}
				if want := 100.0 - map[bool]float64{true: 10}[late]; st.Score != want {
					t.Errorf("%s: score %v, want %v", name, st.Score, want)
				}
				var fb bytes.Buffer
				Feedback(&fb, rep, st)
				if claimed := strings.Contains(fb.String(), "последния ти къмит"); claimed != (tt.wantFrom == "commit_claimed") {
					t.Errorf("%s: the feedback says the time is the commit's: %t, want %t\n%s", name, claimed, !claimed, fb.String())
				}
			}
			if tt.roster {
				if st, ok := byName["carol"]; !ok || st.Status != StatusMissing || st.Display != "Карина" {
					t.Errorf("carol, who accepted the assignment and handed in nothing: %+v", st)
				}
				if byName["alice"].Display != "Алиса Иванова" {
					t.Errorf("alice is shown as %q, want her roster identifier", byName["alice"].Display)
				}
			}
			csv := string(GradesCSV(rep, "en"))
			if !strings.Contains(csv, ","+tt.wantFrom+",") {
				t.Errorf("grades.csv has no time_source %s:\n%s", tt.wantFrom, csv)
			}
			var html bytes.Buffer
			if err := HTML(&html, rep, "en"); err != nil {
				t.Fatal(err)
			}
			if claimed := strings.Contains(html.String(), "a date the student writes, unverified"); claimed != (tt.wantFrom == "commit_claimed") {
				t.Errorf("report.html says the time is the student's claim: %t", claimed)
			}
		})
	}
}

// TestTimeSource: a time is the LMS's only when the LMS gave it (its roster, or the entry times of
// the zip it wrote, which its layout tells); a zip of plain folders holds the files' own times, the
// student's for all anyone knows, and says so.
func TestTimeSource(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	writeFiles(t, dir, files{"main.go": "package main"})
	if err := os.Chtimes(filepath.Join(dir, "main.go"), at, at); err != nil {
		t.Fatal(err)
	}
	job := deadlineJob(t)
	for _, tc := range []struct {
		name     string
		layout   string
		classZip bool
		want     string
	}{
		{"Moodle's zip", LayoutMoodle, true, TimeFromZip},
		{"Canvas's zip", LayoutCanvas, true, TimeFromZip},
		{"a zip of plain folders", "", true, TimeFromFiles},
		{"GitHub Classroom's folders in a zip, no .git", LayoutClassroom, true, TimeFromFiles},
		{"a folder", "", false, TimeFromFiles},
		{"Moodle's export unpacked by hand", LayoutMoodle, false, TimeFromFiles},
	} {
		s := Submission{Name: "x", Kind: KindDir, Path: dir, Layout: tc.layout}
		got, from := submissionTime(job, tc.classZip, s)
		if from != tc.want || !got.Equal(at) {
			t.Errorf("%s: %v from %q, want %v from %q", tc.name, got, from, at, tc.want)
		}
	}
}
