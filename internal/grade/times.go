package grade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// How a submission's time is known (Student.TimeFrom). Extraction and checkout times never count: a
// submission whose time cannot be known has none, is said so in the report, and is never late by
// the due date (the LMS's own late flag still counts).
const (
	TimeFromRoster = "roster" // the roster's submission time (Moodle's "Last modified (submission)")
	TimeFromZip    = "zip"    // the entry times of the class's zip, as the LMS wrote it
	TimeFromCommit = "commit" // the commit time of the last commit of a repository (GitHub Classroom): the student's own claim
	TimeFromFiles  = "files"  // the newest file of a folder the instructor gave as it is
	// TimeFromFuture: the student's files bear a time newer than the export (or than now), beside
	// classmates whose times are not: no time of handing in, never judged late by it (trustTimes).
	TimeFromFuture = "future"
)

// timeSource is how grades.csv's time_source names where a student's time came from: "roster" (the
// LMS's export given as --roster: Moodle's worksheet, GitHub Classroom's grades), "lms" (the entry
// times of the LMS's zip of the class), "commit_claimed" (a commit date inside the student's own
// repository: whoever commits writes it, so it is the student's claim, never verified), "file" (the
// newest file's time on the grading machine's disk), "future_ignored" (files' times newer than the
// export, set aside: TimeFromFuture), "" when the time is not known.
func timeSource(st Student) string {
	switch st.TimeFrom {
	case TimeFromRoster:
		return "roster"
	case TimeFromZip:
		return "lms"
	case TimeFromCommit:
		return "commit_claimed"
	case TimeFromFiles:
		return "file"
	case TimeFromFuture:
		return "future_ignored"
	}
	return ""
}

// submissionTime is when s was handed in, and how that is known ("" when it is not).
func (g *grader) submissionTime(s Submission) (time.Time, string) {
	return submissionTime(g.job, g.classZip, s)
}

// submissionTime is when s was handed in, and how that is known, for the job; classZip is true when
// the class came as one zip, whose entry times are the LMS's.
func submissionTime(job *Job, classZip bool, s Submission) (time.Time, string) {
	if t, from := submissionTimeOf(job, classZip, s); writableTime(t) {
		return t, from
	}
	return time.Time{}, ""
}

// writableTime reports whether t is a time the reports can write (RFC 3339 in JSON: years 1 to 9999).
func writableTime(t time.Time) bool {
	return t.Year() >= 1 && t.Year() <= 9999
}

func submissionTimeOf(job *Job, classZip bool, s Submission) (time.Time, string) {
	if st, ok := job.Roster.Student(s.ID); ok && !st.Submitted.IsZero() && s.Conflict == "" {
		return st.Submitted, TimeFromRoster
	}
	if s.Kind == KindDir {
		if t, ok := commitTime(s.Path); ok {
			return t, TimeFromCommit
		}
		if isDir(filepath.Join(s.Path, ".git")) {
			return time.Time{}, "" // a checkout's file times are the checkout's
		}
	}
	t := newestTime(s)
	if t.IsZero() {
		return t, ""
	}
	// The entry times of a class's zip are the LMS's only where the LMS wrote the zip (its layout
	// names the student's entries); a zip of plain folders holds the times of whoever zipped it, the
	// files' own, which a student's archive or copy may have set.
	if classZip && (s.Layout == LayoutMoodle || s.Layout == LayoutCanvas) {
		return t, TimeFromZip
	}
	return t, TimeFromFiles
}

func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// commitTime is the committer time of the last commit of the repository at dir, read by git
// (never the checkout's file times). The repository is the student's: git runs without the system's
// or the user's configuration, with nothing that could run a program of the repository's (no pager,
// no signature check, no fsmonitor), and under a time limit.
func commitTime(dir string) (time.Time, bool) {
	if !isDir(filepath.Join(dir, ".git")) {
		return time.Time{}, false
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return time.Time{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, "-c", "safe.directory=*", "-c", "core.fsmonitor=false", "-c", "log.showSignature=false",
		"-c", "core.pager=cat", "--no-pager", "-C", dir, "log", "-1", "--no-show-signature", "--format=%cI", "HEAD")
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull, "HOME=" + os.TempDir(), "GIT_TERMINAL_PROMPT=0",
		"PATH=" + os.Getenv("PATH"), "GIT_OPTIONAL_LOCKS=0"}
	out, err := cmd.Output()
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	return t, err == nil
}

func fileExists(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}
