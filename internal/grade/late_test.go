package grade

import (
	"testing"
	"time"
)

func TestLatePenalty(t *testing.T) {
	due := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	tests := []struct {
		penalty  string
		due      time.Time
		flagged  bool
		newest   time.Time
		wantDays int
		wantPts  float64
	}{
		{"10", time.Time{}, false, time.Time{}, 0, 0},
		{"10", time.Time{}, true, time.Time{}, 1, 10},
		{"10/day", due, false, due.Add(-time.Hour), 0, 0},
		{"10/day", due, false, due.Add(time.Hour), 1, 10},
		{"10/day", due, false, due.Add(49 * time.Hour), 3, 30},
		{"10/day", due, true, due.Add(-time.Hour), 1, 10}, // the LMS says late
		{"2,5", due, false, due.Add(72 * time.Hour), 3, 2.5},
	}
	for _, tt := range tests {
		l, err := ParseLatePenalty(tt.penalty)
		if err != nil {
			t.Fatal(err)
		}
		l.Due = tt.due
		days, pts := l.penalty(tt.flagged, tt.newest)
		if days != tt.wantDays || pts != tt.wantPts {
			t.Errorf("%s (flag %v, %v): got %d days, %v points; want %d, %v", tt.penalty, tt.flagged, tt.newest.Sub(tt.due), days, pts, tt.wantDays, tt.wantPts)
		}
	}
	for _, bad := range []string{"", "x", "-1", "101", "10/week"} {
		if _, err := ParseLatePenalty(bad); err == nil {
			t.Errorf("ParseLatePenalty(%q) took it", bad)
		}
	}
}
