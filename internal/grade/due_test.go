package grade

import (
	"testing"
	"time"
)

func TestParseDue(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-03-01T12:00:00+02:00", time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("", 2*3600)), true},
		{"2026-03-01 09:30", time.Date(2026, 3, 1, 9, 30, 0, 0, time.Local), true},
		{"2026-03-01", time.Date(2026, 3, 1, 23, 59, 59, 0, time.Local), true}, // a date alone is due at its end
		{"01.03.2026", time.Time{}, false},
		{"", time.Time{}, false},
	} {
		got, ok := ParseDue(tc.in)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("ParseDue(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
