package grade

import (
	"fmt"
	"os"
	"sort"
	"time"
)

// TimesError is --due over submission times that cannot be the LMS's: Code names why (a message
// grade_err_times_CODE), Detail what was seen. Judged by them, a class would be late or on time by
// when its files were copied; nothing is graded, and the message says what to give instead.
type TimesError struct {
	Code, Detail string
	Students     int // how many students' times were judged
}

func (e *TimesError) Error() string {
	return fmt.Sprintf("--due: the submission times cannot be trusted: %s %s", e.Code, e.Detail)
}

// Why submission times are not trusted (TimesError.Code).
const (
	TimesAlike  = "alike"  // all within a couple of minutes of each other: when they were unpacked or copied
	TimesFuture = "future" // newer than the export itself (the class's zip) or than now
	TimesCopied = "copied" // every file's time is when it was written on this disk, not a time the LMS gave
)

// Tolerances of the checks of trustTimes.
const (
	alikeSpan = 2 * time.Minute // times of four or more students closer than this are a copy's
	alikeMin  = 4
	clockSkew = time.Minute // a time this far past the export's is not yet newer than it
	copyGap   = 2 * time.Second
)

// TimesNote counts the students whose lateness was judged by times the LMS did not give: the files'
// times of a folder, and commit dates (the student's own claim). The command says so beside the
// report.
type TimesNote struct {
	Files, Commits int
	// Future names the students whose files' times are newer than the export, fewer than half of
	// those judged by such times: theirs alone are set aside (TimeFromFuture), the class is graded.
	Future map[string]bool
}

// trustTimes checks, when the job has a due date, the submission times the files of the export give
// (those of the roster are the LMS's): they are refused when they are all alike, newer than the
// export, or the times the files were written on this disk. given is the class as the instructor
// gave it (a folder, or the LMS's zip when classZip).
func trustTimes(job *Job, subs []Submission, given string, classZip bool) (TimesNote, error) {
	var note TimesNote
	if job.Late.Due.IsZero() {
		return note, nil
	}
	limit := time.Now().Add(clockSkew)
	if classZip {
		if info, err := os.Stat(given); err == nil {
			limit = info.ModTime().Add(clockSkew)
		}
	}
	var times []time.Time
	var future time.Time // the newest time past the limit
	copied, files := 0, 0
	for _, s := range subs {
		t, from := submissionTime(job, classZip, s)
		switch from {
		case TimeFromCommit:
			note.Commits++
			continue
		case TimeFromZip, TimeFromFiles:
		default:
			continue
		}
		if t.After(limit) {
			// One student's time in the future is that student's (a student's own archive set it):
			// the class's times are refused only when they are so for half of it or more.
			if note.Future == nil {
				note.Future = map[string]bool{}
			}
			note.Future[s.Name] = true
			if t.After(future) {
				future = t
			}
			continue
		}
		if from == TimeFromFiles {
			files++
			if info := newestFile(s); info != nil {
				if ct, ok := changeTime(info); ok && ct.Sub(info.ModTime()) < copyGap {
					copied++
				}
			}
		}
		times = append(times, t)
	}
	if n := len(note.Future); n > 0 && 2*n >= n+len(times) {
		return note, &TimesError{Code: TimesFuture, Detail: future.Format(time.RFC3339), Students: len(subs)}
	}
	note.Files = files
	if len(times) >= alikeMin {
		sort.Slice(times, func(a, b int) bool { return times[a].Before(times[b]) })
		if first, last := times[0], times[len(times)-1]; last.Sub(first) < alikeSpan {
			return note, &TimesError{Code: TimesAlike, Detail: first.Format(time.RFC3339), Students: len(times)}
		}
	}
	if files > 0 && copied == files {
		return note, &TimesError{Code: TimesCopied, Students: files}
	}
	return note, nil
}
