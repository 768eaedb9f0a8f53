package grade

import (
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
