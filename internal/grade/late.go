package grade

import (
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Late is the penalty for a late submission: Points off the score, once (flat) or for every day, or
// part of a day, after Due (PerDay). A submission is late when the LMS marked it so (Canvas's
// late_ in the file names) or, when Due is set, when its newest file is younger than Due.
type Late struct {
	Points float64
	PerDay bool
	Due    time.Time // zero: only the LMS's flag tells
}

// ParseLatePenalty reads "10" (ten points off a late submission) or "10/day" (ten points for every
// day late, which needs a due date).
func ParseLatePenalty(s string) (Late, error) {
	num, perDay := strings.CutSuffix(strings.TrimSpace(s), "/day")
	p, err := strconv.ParseFloat(strings.Replace(strings.TrimSpace(num), ",", ".", 1), 64)
	if err != nil || p < 0 || p > 100 || math.IsNaN(p) {
		return Late{}, fmt.Errorf("%q is not a late penalty (N or N/day, 0 ≤ N ≤ 100)", s)
	}
	return Late{Points: p, PerDay: perDay}, nil
}

func (l Late) String() string {
	if l.Points == 0 {
		return ""
	}
	s := strconv.FormatFloat(l.Points, 'f', -1, 64)
	if l.PerDay {
		s += "/day"
	}
	if !l.Due.IsZero() {
		s += " due " + l.Due.UTC().Format(time.RFC3339)
	}
	return s
}

// penalty is what a submission loses: its days late (0 when it is not late; 1 for a late flag
// without a due date) and the points.
func (l Late) penalty(flagged bool, newest time.Time) (days int, points float64) {
	switch {
	case !l.Due.IsZero() && !newest.IsZero() && newest.After(l.Due):
		days = int(math.Ceil(newest.Sub(l.Due).Hours() / 24))
	case flagged:
		days = 1
	}
	if days == 0 || l.Points == 0 {
		return days, 0
	}
	if l.PerDay {
		return days, l.Points * float64(days)
	}
	return days, l.Points
}

// newestTime is the modification time of the newest file of a submission (links not followed).
func newestTime(s Submission) time.Time {
	if info := newestFile(s); info != nil {
		return info.ModTime()
	}
	return time.Time{}
}

// newestFile is the newest file of a submission by its modification time (links not followed), nil
// for none.
func newestFile(s Submission) fs.FileInfo {
	var newest fs.FileInfo
	paths := s.Files
	if len(paths) == 0 {
		paths = []string{s.Path}
	}
	for _, p := range paths {
		filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && junkName(d.Name()) && d.Name() != filepath.Base(p) {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				// A time no calendar of the reports can write (year 11476: a file system or an archive
				// keeps what a student's archive set) is no time of handing in: never the newest, and
				// never the end of the class's report (results.json and the journal write years 0-9999).
				if info, err := d.Info(); err == nil && writableTime(info.ModTime()) && (newest == nil || info.ModTime().After(newest.ModTime())) {
					newest = info
				}
			}
			return nil
		})
	}
	return newest
}
