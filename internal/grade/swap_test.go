package grade

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestWriteSwapsWhole: a report is written in a new folder and swapped in whole: the files of the
// report before that the new one does not have are gone (a moodle.csv, the feedback of a student no
// longer in the class), the journal, the held lock and an instructor's own file are carried over,
// and no staging folder is left beside the report or in it; when the two folders cannot be swapped,
// the entries are moved one by one to the same result.
func TestWriteSwapsWhole(t *testing.T) {
	for _, tt := range []struct {
		name    string
		entries bool // swap entry by entry, as where folders cannot be swapped whole
	}{{"folders swapped", false}, {"entries moved", true}} {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "report")
			rep := oneStudentReport("Анна")
			if err := Write(dir, rep, "en"); err != nil {
				t.Fatal(err)
			}
			unlock, err := LockReport(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			writeFiles(t, dir, files{MoodleFile: "stale", "feedback/Борис.md": "stale", JournalFile: "{}\n", "notes.txt": "mine"})
			rep = oneStudentReport("Вера")
			if tt.entries {
				stage := t.TempDir()
				if err := writeReport(stage, rep, "en"); err != nil {
					t.Fatal(err)
				}
				if err := swapEntries(dir, stage); err != nil {
					t.Fatal(err)
				}
			} else if err := Write(dir, rep, "en"); err != nil {
				t.Fatal(err)
			}
			got := listTree(t, dir)
			want := []string{LockFile, DetailsDir, DetailFile(0), FeedbackDir, "feedback/Вера.md", GradesFile, JournalFile, "notes.txt", HTMLFile, ResultsFile}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("report folder holds %q, want %q", got, want)
			}
			if side, _ := filepath.Glob(filepath.Join(parent, ".report*")); len(side) > 0 {
				t.Errorf("staging left beside the report: %q", side)
			}
			// The lock is still held: the lock file in the folder is the one locked.
			if _, err := LockReport(dir); err == nil {
				t.Errorf("the report folder's lock was lost in the swap")
			}
		})
	}
}

// oneStudentReport is the report of a class of one student who passed.
func oneStudentReport(name string) *Report {
	rep := &Report{Exercise: "exercise-deadline", Students: []Student{{Name: name, Lang: "bg", Result: passResult()}}}
	rep.Finalize()
	return rep
}

func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		got = append(got, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got
}

func passResult() *checker.Result {
	return &checker.Result{Verdict: checker.Pass, Passed: 1, Total: 1, Cases: []checker.CaseResult{{Name: "c", Status: checker.Pass}}}
}
