package grade

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestTrustTimes: with --due, the times a class's files give are refused when they are all alike,
// newer than the export or the files' own writing on this disk; spread times restored by an
// unpacker are used, and counted for a warning. The LMS's own late mark counts either way.
func TestTrustTimes(t *testing.T) {
	due := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	names := []string{"anna", "boris", "vera", "gleb"}
	tests := []struct {
		name   string
		times  func(i int) time.Time // zero: leave the file as written (a copy's time)
		due    bool
		want   string // TimesError code, "" for trusted
		linux  bool   // the check needs the inode's change time
		wantFn int    // TimesNote.Files
	}{
		{"spread times restored by an unpacker", func(i int) time.Time { return due.Add(time.Duration(i-2) * 5 * time.Hour) }, true, "", false, 4},
		{"all alike", func(int) time.Time { return due.Add(5 * 24 * time.Hour).Add(-10 * 24 * time.Hour) }, true, TimesAlike, false, 0},
		{"one in the future", func(i int) time.Time { return time.Now().Add(time.Duration(i) * 24 * time.Hour) }, true, TimesFuture, false, 0},
		{"copied: as written on this disk (two students: too few to be alike)", nil, true, TimesCopied, true, 0},
		{"copied, no due date", nil, false, "", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.linux && runtime.GOOS != "linux" {
				t.Skip("the change time of a file is read on Linux")
			}
			class := t.TempDir()
			students := names
			if tt.linux {
				students = names[:2]
			}
			for i, n := range students {
				p := filepath.Join(class, n, "main.go")
				writeFiles(t, class, files{n + "/main.go": "package main\n"})
				if tt.times != nil {
					at := tt.times(i)
					if err := os.Chtimes(p, at, at); err != nil {
						t.Fatal(err)
					}
				}
			}
			job := &Job{}
			if tt.due {
				job.Late = Late{Points: 10, Due: due}
			}
			subs, _, err := List(class)
			if err != nil {
				t.Fatal(err)
			}
			note, err := trustTimes(job, subs, class, false)
			var te *TimesError
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (!errors.As(err, &te) || te.Code != tt.want):
				t.Fatalf("got %v, want a TimesError %s", err, tt.want)
			}
			if tt.want == "" && note.Files != tt.wantFn {
				t.Errorf("note counts %d students judged by their files' times, want %d", note.Files, tt.wantFn)
			}
		})
	}
}

// TestLateMarkWithDue: the LMS's own late mark makes a submission late whatever its time says, with
// a due date or without; a known time after the due date counts its days.
func TestLateMarkWithDue(t *testing.T) {
	due := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	tests := []struct {
		name     string
		late     Late
		flagged  bool
		at       time.Time
		wantDays int
		wantPts  float64
	}{
		{"flag, no due date", Late{Points: 10}, true, time.Time{}, 1, 10},
		{"flag, time unknown", Late{Points: 10, Due: due}, true, time.Time{}, 1, 10},
		{"flag, time before the due date", Late{Points: 10, Due: due}, true, due.Add(-time.Hour), 1, 10},
		{"flag, two days late", Late{Points: 10, PerDay: true, Due: due}, true, due.Add(36 * time.Hour), 2, 20},
		{"no flag, on time", Late{Points: 10, Due: due}, false, due.Add(-time.Hour), 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			days, pts := tt.late.penalty(tt.flagged, tt.at)
			if days != tt.wantDays || pts != tt.wantPts {
				t.Errorf("penalty = %d days, %v points; want %d, %v", days, pts, tt.wantDays, tt.wantPts)
			}
		})
	}
}

// TestTrustTimesOneFuture: with --due, one student's files with a time in the future (a student's
// own archive set it) are that student's: the class is graded, that student's time is set aside
// (not judged late by it, said in the report), the others are judged by theirs. It stopped the
// whole class with exit 2 before anything was graded.
func TestTrustTimesOneFuture(t *testing.T) {
	due := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	class := t.TempDir()
	at := map[string]time.Time{"anna": due.Add(-30 * time.Hour), "boris": due.Add(-50 * time.Hour), "vera": due.Add(9 * time.Hour),
		"mal": time.Now().Add(3 * 365 * 24 * time.Hour)}
	for n, tm := range at {
		writeFiles(t, class, files{n + "/main.go": "package main\n"})
		if err := os.Chtimes(filepath.Join(class, n, "main.go"), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
	subs, _, err := List(class)
	if err != nil {
		t.Fatal(err)
	}
	job := &Job{Late: Late{Points: 10, Due: due}}
	note, err := trustTimes(job, subs, class, false)
	if err != nil {
		t.Fatalf("the class is refused for one student's time: %v", err)
	}
	if len(note.Future) != 1 || !note.Future["mal"] || note.Files != 3 {
		t.Errorf("note %+v, want mal's time set aside and 3 students judged by their files", note)
	}
	// Half of the class or more in the future: the times are the export's fault, refused as before.
	for _, n := range []string{"anna", "boris"} {
		tm := time.Now().Add(24 * time.Hour)
		os.Chtimes(filepath.Join(class, n, "main.go"), tm, tm)
	}
	var te *TimesError
	if _, err := trustTimes(job, subs, class, false); !errors.As(err, &te) || te.Code != TimesFuture {
		t.Errorf("three of four in the future: got %v, want a TimesError %s", err, TimesFuture)
	}
}

// TestGradeOneFutureTime: graded with --due, the student whose files bear a time in the future has
// no submission time (time_source future_ignored) and no penalty; a classmate after the due date is
// late by hers.
func TestGradeOneFutureTime(t *testing.T) {
	due := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	starter := string(courseFile(t, "exercises/exercise-deadline/ru/main.go"))
	dir := t.TempDir()
	class := filepath.Join(dir, "class")
	at := map[string]time.Time{"anna": due.Add(-30 * time.Hour), "vera": due.Add(30 * time.Hour), "mal": time.Now().Add(3 * 365 * 24 * time.Hour)}
	for n, tm := range at {
		writeFiles(t, class, files{n + "/main.go": starter})
		os.Chtimes(filepath.Join(class, n, "main.go"), tm, tm)
	}
	job := deadlineJob(t)
	job.Late = Late{Points: 10, Due: due}
	rep, out, err := Run(context.Background(), job, class, filepath.Join(dir, "report"))
	if err != nil {
		t.Fatalf("the class is not graded: %v", err)
	}
	if !out.Times.Future["mal"] {
		t.Errorf("the outcome does not name mal's time: %+v", out.Times)
	}
	for _, st := range rep.Students {
		switch st.Name {
		case "mal":
			if timeSource(st) != "future_ignored" || !st.Submitted.IsZero() || st.Late || st.Penalty != 0 {
				t.Errorf("mal: %s %v late %v penalty %v; want the time set aside", timeSource(st), st.Submitted, st.Late, st.Penalty)
			}
		case "vera":
			if !st.Late || st.Penalty != 10 {
				t.Errorf("vera: late %v penalty %v; want late by 10", st.Late, st.Penalty)
			}
		}
	}
}
