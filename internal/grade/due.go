package grade

import "time"

// ParseDue reads a due date: RFC 3339, or "2006-01-02 15:04" or "2006-01-02" in local time (a
// date alone is due at its end).
func ParseDue(s string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	if t, err := time.ParseInLocation("2006-01-02 15:04", s, time.Local); err == nil {
		return t, true
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t.Add(24*time.Hour - time.Second), true
	}
	return time.Time{}, false
}
