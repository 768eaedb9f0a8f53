package grade

import (
	"math"
	"sort"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// Verdicts a submission can get before its program is ever built.
const (
	BadArchive checker.Verdict = "bad_archive" // the .zip is refused; Result.Message holds the code (ZipSlip, …)
	TooBig     checker.Verdict = "too_big"     // the program's folder holds more than the checker copies
	NotGraded  checker.Verdict = "not_graded"  // something outside the program went wrong; Result.Message says what
	Unchanged  checker.Verdict = "unchanged"   // the exercise's starter as it was handed out: nothing to grade
	// NoSubmission is a student of the roster who handed in nothing.
	NoSubmission checker.Verdict = "no_submission"
)

// Statuses of a student, as in grades.csv and Exercism's results.json.
const (
	StatusPass  = "pass"  // every case passed
	StatusFail  = "fail"  // the program ran, and some case failed (wrong output, timeout, crash, flood, memory)
	StatusError = "error" // the student's program could not be run: it does not build, no program was found, or the archive is refused
	// StatusTool is a student the tool could not grade (verdict NotGraded: a build or a sandbox
	// that failed twice for reasons outside the program): the tool's failure, never the student's.
	StatusTool = "tool_error"
	// StatusMissing is a student of the roster who handed in nothing.
	StatusMissing = "missing"
	// StatusUnchanged is a student who handed in the exercise's starter as it was handed out (verdict
	// Unchanged): nothing of theirs to grade, score 0. Neither an error of the tool nor a program that
	// could not be run, so never counted with StatusError.
	StatusUnchanged = "unchanged"
)

// Student is one graded submission: a line of the journal, a row of grades.csv, an entry of
// results.json and a feedback file.
type Student struct {
	Name    string `json:"student"`
	Entry   string `json:"entry"`             // the submission's name in the submissions folder
	Kind    string `json:"kind"`              // dir, zip, go, tar, archive or group
	Layout  string `json:"layout,omitempty"`  // the LMS export's layout (see lms.go), if any
	Display string `json:"display,omitempty"` // the name the LMS shows
	ID      string `json:"lms_id,omitempty"`  // the student's id in the LMS
	Late    bool   `json:"late,omitempty"`    // the LMS marked the submission late, or it came after the due date
	// Conflict is set when the entry's name reads as more than one student or disagrees with the
	// other entries of its id (identity.go): the row stands alone and ClaimedID is what it claims.
	Conflict  string `json:"conflict,omitempty"`
	ClaimedID string `json:"claimed_id,omitempty"`
	Anonymous bool   `json:"anonymous,omitempty"` // a Canvas anonymous export: ID is the anonymous id
	// Submitted is when the submission was handed in, as far as it is known, and TimeFrom how it is
	// known (TimeFromZip, …); "" when it is not known (then it is never late by the due date).
	Submitted   time.Time `json:"submitted,omitzero"`
	TimeFrom    string    `json:"time_from,omitempty"`
	DaysLate    int       `json:"days_late,omitempty"`
	Penalty     float64   `json:"penalty,omitempty"` // points off the score for being late (Job.Late)
	SourceHash  string    `json:"source_hash"`       // what was graded (see SourceHash)
	Program     string    `json:"program,omitempty"` // the program's folder inside the submission ("." for its root)
	Lang        string    `json:"lang"`              // the language of its transcripts and of its feedback
	LangFrom    string    `json:"lang_from"`         // how Lang was decided: LangFromOutput, …
	Status      string    `json:"status"`
	Passed      int       `json:"passed"`
	Total       int       `json:"total"`
	Score       float64   `json:"score"` // percent of the cases' weight passed, two decimals
	Fingerprint Print     `json:"fingerprint"`
	Winnow      *Winnow   `json:"winnow,omitempty"` // the program's fingerprints for copy detection (winnow.go)
	// Skipped lists the entries of a folder submission left out because they are not regular files
	// (symbolic links, FIFOs, devices, sockets): never followed nor opened, and named in the feedback.
	Skipped []SkippedEntry `json:"skipped,omitempty"`
	// Lost lists the student's entries of the class's archive that could not be unpacked (a name that
	// climbs out of its folder, a path that is a file and a folder, data that cannot be read): kinds
	// LostOutside, LostClash, LostDamaged.
	Lost []SkippedEntry `json:"lost,omitempty"`
	// Found is what a submission without a program holds, named in the feedback (found.go).
	Found *Found `json:"found,omitempty"`
	// Source is the program's own files as graded (at most maxSource bytes in all), for the
	// report's source view.
	Source []SourceFile `json:"source,omitempty"`
	// FromText is set when the program was taken out of an online text (HTML), not handed in as files.
	FromText bool `json:"from_text,omitempty"`
	// Recoded lists the program's files that were not UTF-8 and were read as Windows-1251 (an editor's
	// "ANSI" on a Russian or Bulgarian Windows), said in the feedback and the report.
	Recoded []string `json:"recoded,omitempty"`
	// Superseded lists the older versions of the student's files that Canvas kept and that were set
	// aside for the newest (Submission.Superseded), said in the feedback and the report.
	Superseded []string `json:"superseded,omitempty"`
	// CanvasFiles are the files of a Canvas submission with Canvas's attachment ids, for the
	// comments Canvas's "Upload submissions" takes (canvas-feedback.zip).
	CanvasFiles []CanvasEntry `json:"canvas_files,omitempty"`
	// Drawn is the student's drawn cases: the seed they were drawn with and their arguments.
	Drawn *Drawn `json:"drawn,omitempty"`
	// FeedbackError says why the student's feedback file could not be made (Write), "" when it was.
	FeedbackError string          `json:"feedback_error,omitempty"`
	Result        *checker.Result `json:"result"`
}

// CanvasEntry is a file of a student's Canvas submission: the name the student gave it and the id of
// Canvas's attachment.
type CanvasEntry struct {
	Name       string `json:"name"`
	Attachment string `json:"attachment"`
}

// SourceFile is one file of a student's program, its path relative to the program's folder.
type SourceFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// maxSource is how much of a student's source the report keeps.
const maxSource = 64 << 10

// sourceFiles is the files of src, sorted by name, cut at maxSource bytes in all.
func sourceFiles(src Source) []SourceFile {
	var names []string
	for n := range src.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []SourceFile
	left := maxSource
	for _, n := range names {
		text := string(src.Files[n])
		if len(text) > left {
			text = text[:left] + "\n…"
		}
		left -= len(text)
		out = append(out, SourceFile{Name: n, Text: text})
		if left <= 0 {
			break
		}
	}
	return out
}

// Drawn is the cases drawn for one student (Job.Draw).
type Drawn struct {
	Seed  uint64         `json:"seed"` // the class's seed for the exercise (Report.Seed, DrawSeed)
	Args  [][]string     `json:"args"` // the arguments of each drawn case, in order
	Cases []checker.Case `json:"-"`
}

// StatusOf maps a verdict to a status (StatusPass, …).
func StatusOf(v checker.Verdict) string {
	switch v {
	case Unchanged:
		return StatusUnchanged
	case checker.Pass:
		return StatusPass
	case checker.Fail, checker.Timeout, checker.Crash, checker.OutputLimit, checker.MemoryLimit:
		return StatusFail
	case NoSubmission:
		return StatusMissing
	case NotGraded:
		return StatusTool
	}
	return StatusError
}

// settle fills the student's status, counts and score from its Result: the score is the weighted
// share of the cases passed (see CaseWeight).
func (st *Student) settle(weights map[string]float64) {
	r := st.Result
	st.Status = StatusOf(r.Verdict)
	st.Passed, st.Total = r.Passed, r.Total
	st.Score = max(0, math.Round((weightedScore(r.Cases, weights)-st.Penalty)*100)/100)
}

// CaseInfo describes one case of the grading and how the class did on it.
type CaseInfo struct {
	Name    string            `json:"name"`
	Visible bool              `json:"visible"`
	Source  string            `json:"source"` // "exercise" or "tests" (the instructor's --tests)
	Titles  map[string]string `json:"titles"`
	Weight  float64           `json:"weight"` // what it counts for in the score (CaseWeight)
	Passed  int               `json:"passed"` // students who passed it
	Ran     int               `json:"ran"`    // students whose program ran it
}

// Title returns the case's title in lang.
func (c CaseInfo) Title(lang string) string {
	return checker.Case{Name: c.Name, Titles: c.Titles}.Title(lang)
}

// CopyGroup is a set of students whose programs are the same after gofmt and identifier renaming,
// once the starter's code is left out; Solution names the reference solution's language when the
// group's program is also the reference solution ("bg/ru" when it is that of both, one being a
// translation of the other).
type CopyGroup struct {
	Students []string `json:"students"`
	Solution string   `json:"solution,omitempty"`
	Tokens   int      `json:"tokens"` // the size of what they share
	Hash     string   `json:"hash"`
	// Exact is set for programs that are the same however short (the same Print hash), which the
	// size threshold of the other groups would let pass.
	Exact bool `json:"exact,omitempty"`
}

// WrongGroup is a wrong transcript that several students printed in the same case: a misconception
// the class shares.
type WrongGroup struct {
	Case     string        `json:"case"`
	Visible  bool          `json:"visible"`
	Lang     string        `json:"lang"`
	Students []string      `json:"students"`
	Got      string        `json:"got"`
	Want     string        `json:"want"`
	Diff     *checker.Diff `json:"diff,omitempty"`
}

// Summary counts the class.
type Summary struct {
	Students int `json:"students"`
	Pass     int `json:"pass"`
	Fail     int `json:"fail"`
	Error    int `json:"error"`
	Missing  int `json:"missing,omitempty"` // students of the roster who handed in nothing
	// Unchanged counts the students who handed in the starter as it was handed out (StatusUnchanged).
	Unchanged int `json:"unchanged,omitempty"`
	// Tool counts the students the tool could not grade (StatusTool): a run with any is a failure
	// of the tool, and a run again grades them again.
	Tool      int     `json:"tool_error,omitempty"`
	MeanScore float64 `json:"mean_score"`
}

// Report is everything a grading produced; results.json is its JSON, and grades.csv, report.html and
// the feedback files are made from it alone, so that merging the reports of shards gives the files
// one run would have given.
type Report struct {
	Version  int               `json:"version"` // 3, the version of Exercism's results.json it follows per student
	Tool     string            `json:"tool"`
	Exercise string            `json:"exercise"`
	Titles   map[string]string `json:"titles"`
	Config   string            `json:"config"`          // identifies the cases and limits graded with
	Shard    string            `json:"shard,omitempty"` // "k/n" for one slice of a class
	Cases    []CaseInfo        `json:"cases"`
	Summary  Summary           `json:"summary"`
	Students []Student         `json:"students"`
	Copies   []CopyGroup       `json:"copies"`
	ByHeart  []string          `json:"by_heart"`
	Wrong    []WrongGroup      `json:"common_wrong"`
	Feedback map[string]string `json:"feedback"` // student → file under feedback/
	// Solutions holds the Print hash of each reference solution by language, so that a copy of the
	// reference solution is named as such.
	Solutions map[string]string `json:"solutions,omitempty"`
	// ForcedLang is the content language the instructor fixed for the whole class (Job.Lang), if any.
	ForcedLang string `json:"forced_lang,omitempty"`
	// Pairs are the pairs of students whose own code shares fingerprints (WinnowCopies).
	Pairs []CopyPair `json:"pairs"`
	// CopyThreshold is the similarity every two students of a copy group reach (--similarity;
	// DefaultCopyThreshold when zero), see copies_link.go.
	CopyThreshold float64 `json:"copy_threshold,omitempty"`
	// Seed is the seed the drawn cases were drawn with (Job.Seed), the same for the whole class, so
	// that every grade can be reproduced with --seed.
	Seed uint64 `json:"seed"`
	// Roster is the LMS's export the class came with (--roster), kept to write the LMS's files.
	Roster *RosterFile `json:"roster,omitempty"`
	// Due is the due date the grading judged lateness by (--due), zero for none.
	Due time.Time `json:"due,omitzero"`
	// MoodleLang is the language of the Moodle worksheet's titles written without a roster.
	MoodleLang string `json:"moodle_lang,omitempty"`
}
