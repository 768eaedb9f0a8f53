// Package grade grades a class: every student's submission (a folder or a .zip, the program at any
// depth in it) is built and run against an exercise's cases and the instructor's own, and the grades
// come out as grades.csv, results.json, report.html and one feedback file per student.
//
//	job := &grade.Job{Exercise: "exercise-deadline", Cases: cases, Limits: checker.Limits{RunTime: 2 * time.Second}}
//	rep, err := grade.Run(ctx, job, "submissions", "report")
//	err = grade.Write("report", rep, "ru")
//
// Programs are built many per go command, each into an executable of its own (checker.BuildMany),
// while the cases of those already built run on the other cores; no two students' programs ever
// share an executable or a process. Each finished student is appended to a journal in the report folder at
// once; a run that is stopped and started again continues where it stopped and never lists a student
// twice, and a student whose submission changed is graded again. Job.Shard grades one slice of a
// class; Merge joins the reports of the slices into the report one run would have made.
package grade

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// graderVersion changes when grading changes enough that old journals must not be resumed.
const graderVersion = "11" // 11: copy detection reads a program as what it does (code that never runs left out, constants by value, what is written two ways read in one), a program holding the reference is its copy, the untouched starter told by every declaration; 10: a starter handed in unchanged has its own status, unchanged (it was error), and its own count in the summary; 9: a clone or a project handed in as an archive read from the exercise's folder, archives inside archives; 8: vet's advice and scenario figures in the records, exit code 1 with the right output a wrong exit code (not a crash), feedback with failures grouped and hints; 7: the source, prints and copies of every package the build compiled, statements that do nothing left out; 6: Windows-1251 and byte-order marks mended, Canvas file versions, archives in a student's own folders; 5: drawn cases seeded per class and exercise, students keyed by the LMS's ids, limits as flags; 2: strings count in Prints by their verbs and numbers only; 3: folders read safely, output capped, skipped entries kept; 4: LMS layouts (names, ids, late flags, archives inside folders, tar), languages told by the program's words and output, unchanged starters, weighted scores, winnowing

// Job is what to grade and how.
type Job struct {
	Exercise string            // the exercise's name
	Titles   map[string]string // its title in each language
	Cases    []checker.Case    // the exercise's cases and the instructor's
	// TestsFrom names the cases that came from the instructor's --tests folder.
	TestsFrom map[string]bool
	Starters  []Source // the exercise's starters: the shape of the program to look for, and code that is nobody's own
	Solutions []Source // the reference solutions: a student who hands one in is named in the copies
	Hints     []Source // the code of the exercise's hints: nobody's own, left out of copy detection
	Lang      string   // the transcript language for everyone; "" tells each student's from the program and its output (lang.go)
	Fallback  string   // the language when the program does not say (default "bg")
	Limits    checker.Limits
	Late      Late   // the penalty for a late submission, if any
	Jobs      int    // programs run at once (default: runtime.GOMAXPROCS, the CPUs the process may use)
	Only      string // grade this student alone (the report still lists everyone graded before)
	Force     bool   // grade into a report folder that holds the report of another exercise, and a class that seems to have solved another exercise (checkExercise)
	Shard     Shard  // grade one slice of the class
	// BatchSize is how many programs one go command builds (default: see defaultBatch).
	BatchSize int
	// Draw, when set, gives each student cases drawn for them alone, run after Cases: their seed
	// and arguments are kept in the student's record (Student.Drawn), so a grade can be reproduced.
	Draw func(ctx context.Context, student, lang string) (*Drawn, error)
	// DrawCount is how many cases Draw gives each student, so that a student whose program was never
	// run (it did not build, the archive could not be read) has the same total as the others.
	DrawCount int
	// Progress, when set, is called once before grading starts and after each student is graded
	// (from one goroutine at a time).
	Progress func(Progress)
	// Seed is the instructor's seed of the drawn cases (DrawSeed makes the class's of it), kept in
	// results.json.
	Seed uint64
	// Roster is the LMS's export of the class (--roster), nil for none: it names the students, lists
	// those who handed in nothing, and is written back filled in.
	Roster *Roster
	// MoodleLang is the language of the titles of moodle.csv when there is no roster.
	MoodleLang string
	// CopyThreshold is the similarity every two students of a copy group reach (Report.CopyThreshold).
	CopyThreshold float64
	// Read bounds what is read of one submission (zero fields: DefaultReadLimits).
	Read ReadLimits
	// Others are the first visible cases of the course's other exercises: a class whose sample
	// fails this exercise's and passes one of those is not graded (checkExercise, wrongex.go).
	Others []OtherCase
}

// Progress is how far a run has come.
type Progress struct {
	Done, Total int
	Student     string        // the student just graded
	Elapsed     time.Duration // since grading began
	ETA         time.Duration // estimated time left (0 until a student is done: unknown)
}

// Outcome says what a run did besides the report: which students it graded, which it resumed, and
// which entries of the submissions folder it skipped.
type Outcome struct {
	Graded  int
	Resumed int // students taken over from the journal of an earlier run
	Reset   bool
	Skipped []string
	// Times counts the students whose lateness (--due) was judged by times the LMS did not give.
	Times TimesNote
}

// ErrNotReport is returned when the output folder holds files but no report of ours.
var ErrNotReport = errors.New("the folder holds files but no workbook report")

// AmbiguousStudentError is Job.Only naming no student exactly and more than one when case is
// ignored (Ivanov and IVANOV, two students apart): which one to grade again is the instructor's to
// say, by the name exactly as the report writes it or by the LMS's id.
type AmbiguousStudentError struct {
	Name  string
	Names []string
}

func (e *AmbiguousStudentError) Error() string {
	return fmt.Sprintf("--only %q names more than one student: %q", e.Name, e.Names)
}

// foldMatches are the names of the students that name matches only when case is ignored, when no
// student is called name exactly.
func foldMatches(subs []Submission, name string) []string {
	name = cleanName(name)
	var out []string
	for _, s := range subs {
		if s.Name == name {
			return nil
		}
		if strings.EqualFold(s.Name, name) {
			out = append(out, s.Name)
		}
	}
	return out
}

// ErrUnknownStudent is returned (wrapped) when Job.Only names no submission.
var ErrUnknownStudent = errors.New("no such student")

// ErrOtherShard is returned (wrapped) when Job.Only names a student of another shard.
var ErrOtherShard = errors.New("the student belongs to another shard")

// Config identifies the grading: the exercise, every case's text and visibility, the limits and the
// language forced on the class (if any). A journal is resumed only by a run with the same Config.
func (j *Job) Config() string { return j.configOf(graderVersion) }

// configOf is Config as the grader of the given version made it.
func (j *Job) configOf(version string) string {
	h := sha256.New()
	fmt.Fprintf(h, "grader %s\nexercise %s\nrun %s\nout %d\nlang %s\n", version, j.Exercise,
		j.Limits.RunTime, j.Limits.OutputBytes, j.Lang)
	if l := j.Late.String(); l != "" {
		fmt.Fprintf(h, "late %s\n", l)
	}
	if j.Draw != nil {
		fmt.Fprintf(h, "seed %d\n", j.Seed)
	}
	if r := j.Read.orDefault(); r != DefaultReadLimits.orDefault() {
		fmt.Fprintf(h, "read %d %d %d\n", r.Files, r.Bytes, r.Depth)
	}
	for _, c := range j.Cases {
		fmt.Fprintf(h, "case %s %t %t %d\n", c.Name, c.Visible, j.TestsFrom[c.Name], len(c.Script))
		h.Write(c.Script)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func (j *Job) fallback() string {
	if j.Fallback == "" {
		return "bg"
	}
	return j.Fallback
}

func (j *Job) jobs() int {
	if j.Jobs > 0 {
		return j.Jobs
	}
	return runtime.GOMAXPROCS(0)
}

// Run grades the submissions in subsDir into the report folder outDir (created if need be) and
// returns the report; Write turns it into files. A submission that is wrong in any way gets a
// verdict; an error means the grading itself could not go on (an unreadable folder, a full disk,
// ctx cancelled: what was finished is in the journal, and the next run continues from there).
func Run(ctx context.Context, job *Job, subsDir, outDir string) (*Report, *Outcome, error) {
	if _, err := checker.GoTool(); err != nil {
		return nil, nil, err
	}
	// A class's export given as one .zip (an LMS's "download all") is unpacked first.
	scratch, err := checker.TempDir("class")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(scratch)
	classZip := !isDir(subsDir)
	subs, skipped, err := listClass(job, subsDir, scratch)
	if err != nil {
		return nil, nil, err
	}
	selected, only, err := chooseStudents(job, subs)
	if err != nil {
		return nil, nil, err
	}
	// Lateness by times the LMS did not give: refused before anything is written when they cannot
	// be trusted, and counted for the command to say otherwise.
	times, err := trustTimes(job, subs, subsDir, classZip)
	if err != nil {
		return nil, nil, err
	}
	// A class without a Go program, whatever the report before: stopped before anything is written.
	if err := checkPrograms(job, selected); err != nil {
		return nil, nil, err
	}
	// A class that seems to have solved another exercise: stopped before anything is written (a
	// report of this exercise already in outDir was checked when it was begun).
	if reportExercise(outDir) != job.Exercise {
		if err := checkExercise(ctx, job, selected); err != nil {
			return nil, nil, err
		}
	}
	if err := PrepareOut(outDir); err != nil {
		return nil, nil, err
	}
	if ex := reportExercise(outDir); ex != "" && ex != job.Exercise && !job.Force {
		return nil, nil, &OtherExerciseError{Exercise: ex}
	}
	config := job.Config()
	jr, err := OpenJournal(outDir, config, job.Exercise)
	if err != nil {
		return nil, nil, err
	}
	defer jr.Close()
	out := &Outcome{Skipped: skipped, Reset: jr.Reset, Times: times}
	todo, hashes := pending(selected, only, jr, out)
	g := newGrader(job)
	g.classZip = classZip
	g.future = times.Future
	if err := g.run(ctx, todo, hashes, jr); err != nil {
		return nil, nil, err
	}
	out.Graded = g.done
	if err := jr.Compact(config, job.Exercise); err != nil {
		return nil, nil, err
	}
	return g.report(config, selected, subs, jr), out, nil
}

// listClass lists the class in subsDir (a class's zip unpacked into scratch first), with the job's
// roster, and refuses a roster that does not describe the export before anything is graded.
func listClass(job *Job, subsDir, scratch string) ([]Submission, []string, error) {
	dir, lost, err := openClass(subsDir, scratch)
	if err != nil {
		return nil, nil, err
	}
	subs, skipped, err := ListWith(dir, job.Roster)
	if err != nil {
		return nil, nil, err
	}
	attachLost(subs, lost)
	if err := checkClass(subsDir, dir, subs, skipped); err != nil {
		return nil, nil, err
	}
	if job.Roster != nil {
		if err := job.Roster.Check(job.Roster.Path, subs); err != nil {
			return nil, nil, err
		}
	}
	return subs, skipped, nil
}

// chooseStudents is the job's shard of the class, and the student of Job.Only (nil for all).
func chooseStudents(job *Job, subs []Submission) (selected []Submission, only *Submission, err error) {
	for _, s := range subs {
		if job.Shard.Has(s.Name) {
			selected = append(selected, s)
		}
	}
	if job.Only == "" {
		return selected, nil, nil
	}
	if names := foldMatches(subs, job.Only); len(names) > 1 {
		return nil, nil, &AmbiguousStudentError{Name: job.Only, Names: names}
	}
	s, ok := Select(subs, job.Only)
	if !ok {
		return nil, nil, fmt.Errorf("%w %q", ErrUnknownStudent, job.Only)
	}
	if !job.Shard.Has(s.Name) {
		return nil, nil, fmt.Errorf("%w %d/%d", ErrOtherShard, ShardOf(s.Name, job.Shard.N), job.Shard.N)
	}
	return selected, &s, nil
}

// pending is what is left to grade: the students whose record in the journal is missing or of
// another submission (all of selected's hashes are returned), or only the one of Job.Only.
func pending(selected []Submission, only *Submission, jr *Journal, out *Outcome) ([]Submission, map[string]string) {
	hashes := map[string]string{}
	var todo []Submission
	for _, s := range selected {
		h, err := SourceHash(s)
		if err != nil {
			// An unreadable submission is graded (and gets its verdict) like any other.
			h = "unreadable: " + err.Error()
		}
		hashes[s.Name] = h
		if only != nil {
			continue
		}
		// A student the tool could not grade is graded again.
		if rec, ok := jr.Get(s.Name); ok && rec.SourceHash == h && rec.Status != StatusTool {
			out.Resumed++
			continue
		}
		todo = append(todo, s)
	}
	if only != nil {
		todo = []Submission{*only}
	}
	return todo, hashes
}

// report is the report of the class: the records of the journal for the students selected, and a
// row for each student of the roster who handed in nothing.
func (g *grader) report(config string, selected, subs []Submission, jr *Journal) *Report {
	job := g.job
	rep := &Report{Exercise: job.Exercise, Titles: job.Titles, Config: config, Solutions: g.solutionPrints(), ForcedLang: job.Lang,
		Seed: job.Seed, Roster: job.Roster.File(), MoodleLang: job.MoodleLang, Due: job.Late.Due, CopyThreshold: job.CopyThreshold}
	if !job.Shard.Whole() {
		rep.Shard = job.Shard.String()
	}
	for _, c := range job.Cases {
		src := "exercise"
		if job.TestsFrom[c.Name] {
			src = "tests"
		}
		rep.Cases = append(rep.Cases, CaseInfo{Name: c.Name, Visible: c.Visible, Source: src, Titles: c.Titles, Weight: CaseWeight(c)})
	}
	for _, s := range selected {
		if rec, ok := jr.Get(s.Name); ok {
			rep.Students = append(rep.Students, rec)
		}
	}
	rep.Students = append(rep.Students, g.missing(subs)...)
	rep.Finalize()
	return rep
}

// PrepareOut makes sure outDir is a report folder: new, empty, or one we wrote before.
func PrepareOut(outDir string) error {
	if info, err := os.Stat(outDir); err == nil && !info.IsDir() {
		return ErrOutNotDir
	}
	entries, err := os.ReadDir(outDir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(outDir, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	for _, e := range entries {
		switch e.Name() {
		case JournalFile, "results.json", JournalFile + ".old", LockFile:
			return nil
		}
	}
	return ErrNotReport
}

// grader is one run's working state.
type grader struct {
	job      *Job
	shape    map[string]bool // function names of the starters
	starters map[string]bool // normalised declarations of the starters
	plain    map[string]bool // Print hashes of the untouched starters
	solPrint map[string]string
	langs    *langGuesser
	winnow   *winnower
	weights  map[string]float64 // by case name (CaseWeight)
	work     string
	done     int
	classZip bool            // the class came as one zip: its entry times are the LMS's
	future   map[string]bool // students whose files' times are in the future (TimesNote.Future)
}

func newGrader(job *Job) *grader {
	g := &grader{job: job, shape: map[string]bool{}, starters: map[string]bool{}, plain: map[string]bool{}, solPrint: map[string]string{},
		langs: newLangGuesser(job.Starters, job.Solutions, job.Cases), weights: map[string]float64{},
		winnow: newWinnower(job.Starters, job.Hints, job.Solutions)}
	for _, c := range job.Cases {
		g.weights[c.Name] = CaseWeight(c)
	}
	for _, s := range job.Starters {
		for n := range funcNames(s) {
			g.shape[n] = true
		}
		for _, f := range DeclForms(s) {
			g.starters[f] = true
		}
		if fp := plainPrint(s); fp.Hash != "" {
			g.plain[fp.Hash] = true
		}
	}
	for _, s := range job.Solutions {
		if fp := Fingerprint(s, g.starters); fp.Hash != "" {
			g.solPrint[s.Lang] = fp.Hash
		}
	}
	return g
}

func (g *grader) solutionPrints() map[string]string {
	if len(g.solPrint) == 0 {
		return nil
	}
	return g.solPrint
}

// item is one student on its way through the run.
type item struct {
	st   Student
	dir  string // the program's folder to build; "" when the verdict is already known
	prog *checker.Program
	err  error
}

// run grades todo: a builder goroutine prepares and builds the programs batch by batch, workers run
// their cases, and this goroutine writes each finished student to the journal.
func (g *grader) run(ctx context.Context, todo []Submission, hashes map[string]string, jr *Journal) error {
	if len(todo) == 0 {
		return nil
	}
	work, err := checker.TempDir("grade")
	if err != nil {
		return err
	}
	g.work = work
	defer os.RemoveAll(work)

	ctx, cancel := context.WithCancel(ctx)
	defer g.warmAdvice(ctx, work)() // after cancel, before work is removed
	defer cancel()
	jobs := g.job.jobs()
	batch := g.job.BatchSize
	if batch <= 0 {
		batch = defaultBatch(len(todo), jobs)
	}
	built := make(chan *item, batch)
	finished := make(chan *item, jobs)
	var buildErr error

	go func() {
		defer close(built)
		for start := 0; start < len(todo); start += batch {
			chunk := todo[start:min(start+batch, len(todo))]
			items := make([]*item, len(chunk))
			var dirs []string
			var which []int
			for i, s := range chunk {
				it, err := g.prepare(s, start+i, hashes[s.Name])
				if err != nil {
					buildErr = err
					cancel()
					return
				}
				items[i] = it
				if it.dir != "" {
					dirs = append(dirs, it.dir)
					which = append(which, i)
				}
			}
			if ctx.Err() != nil {
				return
			}
			progs, errs := checker.BuildMany(ctx, dirs, g.job.Limits)
			for k, i := range which {
				items[i].prog, items[i].err = progs[k], errs[k]
			}
			for _, it := range items {
				select {
				case built <- it:
				case <-ctx.Done():
					if it.prog != nil {
						it.prog.Close()
					}
				}
			}
		}
	}()

	// At most jobs programs run at once, so that a program that spins (or a class of them) takes its
	// own cores and no one else's: one case at a time per student, unless there are fewer students
	// than jobs.
	par := max(1, jobs/len(todo))
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range built {
				g.check(ctx, it, par)
				select {
				case finished <- it:
				case <-ctx.Done():
				}
			}
		}()
	}
	go func() { wg.Wait(); close(finished) }()

	start := time.Now()
	if g.job.Progress != nil {
		g.job.Progress(Progress{Total: len(todo)})
	}
	var journalErr error
	for it := range finished {
		if ctx.Err() != nil || journalErr != nil {
			continue // a result cut short by the stop is not a result
		}
		if err := jr.Append(it.st); err != nil {
			journalErr = err
			cancel()
			continue
		}
		g.done++
		if g.job.Progress != nil {
			el := time.Since(start)
			eta := time.Duration(float64(el) / float64(g.done) * float64(len(todo)-g.done))
			g.job.Progress(Progress{Done: g.done, Total: len(todo), Student: it.st.Name, Elapsed: el, ETA: eta})
		}
	}
	switch {
	case journalErr != nil:
		return journalErr
	case buildErr != nil:
		return buildErr
	}
	return ctx.Err()
}

// defaultBatch is how many of n programs one go command builds when jobs run at once. A batch shares
// one go command's start, module loading and compile scheduling among its programs, and links each
// into its own executable (checker.BuildMany): a class of up to 24 (8 per job, for more jobs) is
// built in one go, and a larger one in batches of equal size under that cap, the runs of one batch
// overlapping the build of the next.
func defaultBatch(n, jobs int) int {
	limit := max(24, 8*jobs)
	batches := max(1, (n+limit-1)/limit)
	return (n + batches - 1) / batches
}

// prepare unpacks a submission, finds its program and its language, and fingerprints it. A submission
// that cannot be graded gets its verdict here. A fault of the grader's own code on one submission
// (a panic while it is read) is that student's NotGraded verdict (status tool_error, graded again
// by --resume), never the end of the class's grading.
func (g *grader) prepare(s Submission, n int, hash string) (it *item, err error) {
	defer func() {
		if r := recover(); r != nil && it != nil {
			msg, log := graderFault("reading the submission", r)
			it.dir = ""
			g.refuse(it, NotGraded, msg, log)
			err = nil
		}
	}()
	it = &item{st: Student{Name: s.Name, Entry: filepath.Base(s.Path), Kind: s.Kind, SourceHash: hash,
		Layout: s.Layout, Display: s.Display, ID: s.ID, Late: s.Late, Conflict: s.Conflict, ClaimedID: s.ClaimedID,
		Anonymous: s.Anonymous, Superseded: s.Superseded, CanvasFiles: s.CanvasFiles, Lost: s.Lost}}
	it.st.Submitted, it.st.TimeFrom = g.submissionTime(s)
	if g.future[s.Name] {
		it.st.Submitted, it.st.TimeFrom = time.Time{}, TimeFromFuture
	}
	if l := g.job.Late; l.Points > 0 || !l.Due.IsZero() {
		// Only a known time counts against the due date; the LMS's own flag always does.
		it.st.DaysLate, it.st.Penalty = l.penalty(s.Late, it.st.Submitted)
		it.st.Late = it.st.Late || it.st.DaysLate > 0
	}
	root := filepath.Join(g.work, strconv.Itoa(n))
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	// What is graded from here on is a copy in the scratch folder: the archive's regular files, or
	// the build files of a folder read as copyFolder reads them. Nothing downstream (the search for
	// the program, its fingerprint, the build) ever opens a file of the submission itself.
	skipped, prefix, err := g.unpack(s, root)
	it.st.Skipped = skipped
	if v, msg, log, refused := refusal(err, g.job.Read.orDefault()); refused {
		g.refuse(it, v, msg, log)
		return it, nil
	}
	it.st.FromText = fileExists(filepath.Join(root, textProgram))
	recoded := recodeTree(root)
	g.findProgram(it, root, prefix)
	if it.st.Result != nil && it.st.Result.Verdict == checker.NoProgram {
		it.st.Found = foundIn(root, s)
	}
	if rel, err := filepath.Rel(root, it.dir); it.dir != "" && err == nil {
		it.st.Recoded = recodedIn(recoded, filepath.ToSlash(rel))
	}
	return it, nil
}

// refusal is the verdict of a submission that could not be unpacked (refused false when err is nil).
// An archive past one of the class's limits lim names it in its log as a folder past it does (ENTRY:
// "more than 500 files (--max-files)"), with the class's limit, whatever budget a nested archive had
// left.
func refusal(err error, lim ReadLimits) (v checker.Verdict, msg, log string, refused bool) {
	var tb *tooBigError
	var ae *ArchiveError
	switch {
	case err == nil:
		return "", "", "", false
	case errors.As(err, &tb):
		return TooBig, tb.code, tb.Error(), true
	case errors.As(err, &ae):
		entry := ae.Entry
		if LimitFlag(ae.Limit) != "" {
			entry += ": " + (&tooBigError{code: ae.Limit, limit: lim.of(ae.Limit)}).Error()
		}
		return BadArchive, ae.Code, entry, true
	}
	// An unreadable folder is this student's verdict, never the end of everyone's grading.
	return NotGraded, err.Error(), "", true
}

// refuse settles a submission whose program never ran, in the class's language or the fallback.
func (g *grader) refuse(it *item, v checker.Verdict, msg, log string) {
	it.st.Lang, it.st.LangFrom = g.job.Lang, LangFromForced
	if it.st.Lang == "" {
		it.st.Lang, it.st.LangFrom = g.job.fallback(), LangFromFallback
	}
	it.st.Result = g.verdict(it.st, v, msg, log)
}

// findProgram finds the student's program in root (prefix: the folder of the submission it was read
// from), its language and fingerprints; a submission without one, or with the untouched starter,
// gets its verdict here.
func (g *grader) findProgram(it *item, root, prefix string) {
	rel, ok := findProgram(root, g.shape, g.plain)
	if !ok {
		// The reason as a code, told in the student's words (reason_CODE).
		code, reason := "no_go_files", "no .go files"
		if hasGoFiles(root) {
			code, reason = "no_main", "no package main"
		}
		g.refuse(it, checker.NoProgram, code, reason)
		return
	}
	dir := filepath.Join(root, filepath.FromSlash(rel))
	// Every file the build compiles: the main package's and those of the module's packages it
	// imports (programSource), for the source view, the prints and the copies alike.
	src := readProgram(dir)
	lang, from := g.job.Lang, LangFromForced
	if lang == "" {
		from = LangFromFallback
		if lang = g.langs.fromProgram(src); lang != "" {
			from = LangFromProgram
		}
	}
	if lang == "" {
		lang = g.job.fallback()
	}
	it.st.Lang, it.st.LangFrom = lang, from
	it.st.Program = rel
	if prefix != "" {
		// Read from the exercise's folder of a clone or workspace: named as it is in the submission.
		it.st.Program = path.Join(prefix, rel)
	}
	if fp := plainPrint(src); fp.Hash != "" && g.plain[fp.Hash] {
		// The starter as it was handed out earns nothing, and says so.
		it.st.Result = g.verdict(it.st, Unchanged, "", "")
		return
	}
	it.st.Fingerprint = Fingerprint(src, g.starters)
	it.st.Winnow = g.winnow.of(src)
	it.st.Source = sourceFiles(src)
	it.dir = dir
}

// graderFault is the message and log of a NotGraded verdict given because the grader's own code
// panicked on one submission while doing what: the value and the grader's stack, for a bug report.
func graderFault(what string, r any) (msg, log string) {
	return fmt.Sprintf("the grader failed while %s: %v", what, r), string(debug.Stack())
}

// verdict is the Result of a submission whose program never ran.
func (g *grader) verdict(st Student, v checker.Verdict, msg, log string) *checker.Result {
	return &checker.Result{Exercise: g.job.Exercise, Lang: st.Lang, Dir: g.displayDir(st), Verdict: v, Message: msg,
		BuildLog: log, Total: len(g.job.Cases) + g.job.DrawCount, Cases: []checker.CaseResult{}}
}

func (g *grader) displayDir(st Student) string {
	if st.Program == "" || st.Program == "." {
		return st.Entry
	}
	return path.Join(st.Entry, st.Program)
}

// check runs the cases of a built program (or records why it was not built) and settles the student.
// A failure of the tool (a build the checker could not make, a sandbox it could not set up, drawn
// cases it could not make: anything that is not a verdict about the program) is tried once more,
// the program built again alone; a second one is the tool's, NotGraded (status tool_error), never
// the student's.
func (g *grader) check(ctx context.Context, it *item, par int) {
	defer func() {
		if it.prog != nil {
			it.prog.Close()
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			// A fault of the grader's own code on this student's results (see prepare).
			msg, log := graderFault("grading the program", r)
			it.st.Result = g.verdict(it.st, NotGraded, msg, log)
			it.st.settle(g.weights)
		}
	}()
	if it.st.Result != nil {
		it.st.settle(g.weights)
		return
	}
	lang, from := it.st.Lang, it.st.LangFrom
	res := g.attempt(ctx, it, par)
	if toolFailed(res) && ctx.Err() == nil {
		if it.prog != nil {
			it.prog.Close()
		}
		it.st.Lang, it.st.LangFrom, it.st.Drawn = lang, from, nil
		it.prog, it.err = checker.Build(ctx, it.dir, g.job.Limits)
		if again := g.attempt(ctx, it, par); !toolFailed(again) {
			res = again
		} else if again.Verdict != NotGraded {
			res.Verdict, res.Message = NotGraded, whatFailed(again)
		} else {
			res = again
		}
	}
	capResult(res)
	// Advice on the code goes beside the verdict, never into it: settle reads no advice.
	res.Advice = adviseOn(ctx, it.dir, it.st, res)
	it.st.Result = res
	it.st.settle(g.weights)
}

// toolFailed reports whether res is a failure of the tool rather than a verdict about the program:
// NotGraded, or a case the sandbox could not be set up for.
func toolFailed(res *checker.Result) bool {
	if res.Verdict == NotGraded {
		return true
	}
	for _, c := range res.Cases {
		if c.Message == "sandbox" {
			return true
		}
	}
	return false
}

// whatFailed says what of the tool failed in res, a Result with a case the sandbox could not be
// set up for.
func whatFailed(res *checker.Result) string {
	for _, c := range res.Cases {
		if c.Message == "sandbox" {
			return "case " + c.Name + ": the sandbox could not be set up: " + firstLine(c.Stderr)
		}
	}
	return res.Message
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// attempt builds the Result of one try at the student's program: its build's verdict, or its cases
// run (in the other language too, when its output says so).
func (g *grader) attempt(ctx context.Context, it *item, par int) *checker.Result {
	res := &checker.Result{Exercise: g.job.Exercise, Lang: it.st.Lang, Dir: g.displayDir(it.st), Total: len(g.job.Cases) + g.job.DrawCount, Cases: []checker.CaseResult{}}
	var bf *checker.BuildFailure
	switch {
	case errors.As(it.err, &bf):
		res.Verdict, res.BuildLog, res.Message = bf.Verdict, bf.Log, bf.Reason
	case it.err != nil:
		res.Verdict, res.Message = NotGraded, it.err.Error()
	case it.prog == nil:
		res.Verdict, res.Message = NotGraded, "no program was built"
	default:
		res.BuildTime = checker.Millis(it.prog.BuildTime)
		res.Isolation = it.prog.Isolation()
		if err := g.runCases(ctx, it, res, par); err != nil {
			res.Verdict, res.Message = NotGraded, err.Error()
			break
		}
		// Unless the instructor fixed the class's language, the output decides: a program whose
		// transcripts are plainly the other language's is graded again in that language.
		if g.job.Lang == "" {
			if other := g.langs.fromOutput(res.Cases); other != "" && other != it.st.Lang {
				was := it.st.Lang
				it.st.Lang, res.Lang = other, other
				if err := g.runCases(ctx, it, res, par); err != nil {
					res.Verdict, res.Message = NotGraded, err.Error()
					break
				}
				if back := g.langs.fromOutput(res.Cases); back == was {
					it.st.Lang, res.Lang = was, was // the two votes disagree: keep the first
					g.runCases(ctx, it, res, par)
				} else {
					it.st.LangFrom = LangFromOutput
				}
			}
		}
		exitedOnPurpose(res)
		res.Summarize()
		if res.Hung != "" {
			res.RunLimit = checker.Millis(g.job.Limits.WithDefaults().Budget)
		}
	}
	return res
}

// runCases runs the student's cases (and cases drawn for them) in the student's language into res.
func (g *grader) runCases(ctx context.Context, it *item, res *checker.Result, par int) error {
	opt := checker.Options{Exercise: g.job.Exercise, Lang: it.st.Lang, UILang: it.st.Lang, Limits: g.job.Limits, Parallel: par}
	cases := g.job.Cases
	if g.job.Draw != nil {
		d, err := g.job.Draw(ctx, it.st.Name, it.st.Lang)
		if err != nil {
			return err
		}
		it.st.Drawn = d
		cases = append(cases[:len(cases):len(cases)], d.Cases...)
	}
	// A case's time is judged by the program's own CPU time, so a busy machine gives the verdicts of
	// an idle one and a timeout needs no second run.
	res.Cases = it.prog.RunCases(ctx, cases, opt)
	return nil
}

// copyOne copies a single-file submission, a regular file of at most maxFileBytes (see openRegular).
func copyOne(from, to string) error {
	in, _, err := openRegular(from)
	if err != nil {
		return err
	}
	defer in.Close()
	data, err := readAtMost(in, maxFileBytes, filepath.Base(from))
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}
