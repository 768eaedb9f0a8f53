package grade

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// A class graded against the wrong exercise (exercise-retry named where the class solved
// exercise-jitter) would be a report of zeros, written over the report before. Before anything is
// written, Run takes a small sample of the class (sampleSize), builds it once and runs the
// exercise's first visible case on it. Only when most of the sample fail that case are the first
// visible cases of the course's other exercises (OtherCase) run on the programs that failed, and
// only when most of the sample pass one of those does the run stop (*WrongExerciseError). A class
// in which many fail is graded as it is: failing is not enough, the programs must pass another
// exercise's case, and one the exercise's own starter does not pass (a class of starters barely
// edited behaves as the starter: a case the starter passes says nothing of which exercise a class
// solved). Job.Force (--force) grades anyway; Job.Only never checks.

// OtherCase is the first visible case of another exercise of the course, and its next visible
// ones (More, up to maxMore), which stand in for it when the graded exercise's starter passes it.
type OtherCase struct {
	Exercise string
	Case     checker.Case
	More     []checker.Case
}

// maxMore is how many visible cases of another exercise may stand in for its first.
const maxMore = 2

// WrongExerciseError stops a run whose class seems to have solved another exercise: of Sampled
// programs run, Matched failed the first visible case of Exercise (Case) and passed that of Other
// (OtherCase).
type WrongExerciseError struct {
	Exercise, Case, Other, OtherCase string
	Sampled, Matched                 int
}

func (e *WrongExerciseError) Error() string {
	return fmt.Sprintf("%d of %d programs sampled fail %s of %s and pass %s of %s: the class seems to have solved %s",
		e.Matched, e.Sampled, e.Case, e.Exercise, e.OtherCase, e.Other, e.Other)
}

// otherCases is the first visible case of each other exercise of the course in fsys that runs as ex
// does (in virtual time or not, so that the programs built for ex run it as its own would): those
// of ex's lesson first, then in course order.
func otherCases(fsys fs.FS, ex *course.Exercise) []OtherCase {
	if fsys == nil {
		return nil
	}
	list, err := course.New(fsys).Exercises()
	if err != nil {
		return nil
	}
	var same, rest []OtherCase
	for _, o := range list {
		if o.Name == ex.Name || o.Virtual() != ex.Virtual() {
			continue
		}
		cases, err := o.Cases()
		if err != nil {
			continue
		}
		var oc *OtherCase
		for _, c := range cases {
			switch {
			case !c.Visible:
			case oc == nil:
				oc = &OtherCase{Exercise: o.Name, Case: c}
			case len(oc.More) < maxMore:
				oc.More = append(oc.More, c)
			}
		}
		switch {
		case oc == nil:
		case o.Lesson == ex.Lesson:
			same = append(same, *oc)
		default:
			rest = append(rest, *oc)
		}
	}
	return append(same, rest...)
}

// sampleSize is how many programs of a class of n are sampled: a tenth, at least 3 and at most 8,
// so that the check costs a small fraction of grading the class.
func sampleSize(n int) int {
	return min(n, max(3, min(8, n/10)))
}

// firstVisible is the exercise's first visible case (the instructor's left out), nil for none.
func (j *Job) firstVisible() *checker.Case {
	for i, c := range j.Cases {
		if c.Visible && !c.Drawn && !j.TestsFrom[c.Name] {
			return &j.Cases[i]
		}
	}
	return nil
}

// checkExercise stops the grading of subs when its sample seems to have solved another exercise
// (see WrongExerciseError); nil when it does not, or when there is nothing to check.
func checkExercise(ctx context.Context, job *Job, subs []Submission) error {
	first := job.firstVisible()
	if job.Force || job.Only != "" || len(job.Others) == 0 || first == nil || len(subs) == 0 {
		return nil
	}
	g, done, err := sampleGrader(job)
	if err != nil {
		return err
	}
	defer done()
	items, err := g.sample(subs, sampleSize(len(subs)))
	if err != nil || len(items) == 0 {
		return err
	}
	dirs := make([]string, len(items))
	for i, it := range items {
		dirs[i] = it.dir
	}
	progs, errs := checker.BuildMany(ctx, dirs, job.Limits)
	defer func() {
		for _, p := range progs {
			if p != nil {
				p.Close()
			}
		}
	}()
	ran, failed := g.firstCase(ctx, progs, errs, items, *first)
	if ran == 0 || 2*len(failed) <= ran {
		return ctx.Err()
	}
	// Each program runs only the cases that most of the sample can still pass, and that the
	// exercise's own starter does not.
	others := g.telling(ctx)
	if len(others) == 0 {
		return ctx.Err()
	}
	passed := make([]int, len(others))
	need := ran/2 + 1
	for k, f := range failed {
		var which []int
		for i := range others {
			if passed[i]+len(failed)-k >= need {
				which = append(which, i)
			}
		}
		if len(which) == 0 {
			break
		}
		for _, i := range f.others(ctx, job, others, which) {
			passed[i]++
		}
	}
	best := 0 // the exercise most of the sample pass, the same lesson's first
	for i := range passed {
		if passed[i] > passed[best] {
			best = i
		}
	}
	if o := others[best]; 2*passed[best] > ran {
		return &WrongExerciseError{Exercise: job.Exercise, Case: first.Name, Other: o.Exercise, OtherCase: o.Case.Name, Sampled: ran, Matched: passed[best]}
	}
	return ctx.Err()
}

// telling is job.Others as cases that tell a class of another exercise from one of barely edited
// starters: of each other exercise, its first visible case that none of the exercise's own starters
// passes (its first, else one of More), none when they pass them all.
func (g *grader) telling(ctx context.Context) []OtherCase {
	var all []OtherCase
	for _, o := range g.job.Others {
		for _, c := range append([]checker.Case{o.Case}, o.More...) {
			all = append(all, OtherCase{Exercise: o.Exercise, Case: c})
		}
	}
	passed := g.starterPasses(ctx, all)
	var out []OtherCase
	for k, c := range all {
		if !passed[k] && (len(out) == 0 || out[len(out)-1].Exercise != c.Exercise) {
			out = append(out, c)
		}
	}
	return out
}

// starterPasses builds the exercise's starters (Job.Starters, the course's own code) and reports
// which of the cases list one of them passes, in its language or the other.
func (g *grader) starterPasses(ctx context.Context, list []OtherCase) map[int]bool {
	var dirs, langs []string
	for i, s := range g.job.Starters {
		dir := filepath.Join(g.work, fmt.Sprintf("starter-%d", i))
		ok := true
		for name, data := range s.Files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if os.MkdirAll(filepath.Dir(p), 0o755) != nil || os.WriteFile(p, data, 0o644) != nil {
				ok = false
			}
		}
		if ok && len(s.Files) > 0 {
			dirs, langs = append(dirs, dir), append(langs, s.Lang)
		}
	}
	out := map[int]bool{}
	if len(dirs) == 0 {
		return out
	}
	progs, errs := checker.BuildMany(ctx, dirs, g.job.Limits)
	all := make([]int, len(list))
	for i := range all {
		all[i] = i
	}
	for i, p := range progs {
		if p == nil {
			continue
		}
		if errs[i] == nil {
			for _, k := range (&sampled{prog: p, lang: langs[i]}).others(ctx, g.job, list, all) {
				out[k] = true
			}
		}
		p.Close()
	}
	return out
}

// firstCase runs the case first on each program built of the sample, in the language its words
// told and, when it fails, in the other: ran is how many ran, failed those that failed it and ended
// on their own (printed something else, or exited with an error: a program that hangs or floods on
// the exercise's case is nobody's solution of another).
func (g *grader) firstCase(ctx context.Context, progs []*checker.Program, errs []error, items []*item, first checker.Case) (ran int, failed []*sampled) {
	for i, p := range progs {
		if p == nil || errs[i] != nil {
			continue // a program that does not build (or a build the tool failed) says nothing of the exercise
		}
		ran++
		s := &sampled{prog: p, lang: items[i].st.Lang}
		var res checker.CaseResult
		for _, l := range append([]string{s.lang}, otherLangs(s.lang)...) {
			if res = s.run(ctx, g.job, first, l); res.Status == checker.Pass {
				break
			}
		}
		if res.Status == checker.Fail || res.Status == checker.Crash {
			failed = append(failed, s)
		}
	}
	return ran, failed
}

// sample prepares up to k programs of subs, spread evenly over the class (a submission without a
// program is passed over for the next), trying at most 3k submissions.
func (g *grader) sample(subs []Submission, k int) ([]*item, error) {
	var items []*item
	step := max(1, len(subs)/k)
	tried := 0
	for start := 0; start < step && len(items) < k && tried < 3*k; start++ {
		for i := start; i < len(subs) && len(items) < k && tried < 3*k; i += step {
			tried++
			it, err := g.prepare(subs[i], i, "")
			if err != nil {
				return nil, err
			}
			if it.dir != "" {
				items = append(items, it)
			}
		}
	}
	return items, nil
}

// sampled is a program of the sample, built, in the language its words told.
type sampled struct {
	prog *checker.Program
	lang string
}

// run runs the case c on the program in the language lang.
func (s *sampled) run(ctx context.Context, job *Job, c checker.Case, lang string) checker.CaseResult {
	opt := checker.Options{Exercise: job.Exercise, Lang: lang, UILang: lang, Limits: job.Limits, Parallel: 1}
	if res := s.prog.RunCases(ctx, []checker.Case{c}, opt); len(res) == 1 {
		return res[0]
	}
	return checker.CaseResult{Status: checker.Fail}
}

// otherRunTime is the time a sampled program may take on another exercise's case.
const otherRunTime = 500 * time.Millisecond

// others runs the cases of list at the indices which on the program, all at once, in its language
// and, for those it fails, in the other, and returns the indices of those it passes. A reference
// solution takes milliseconds, so the cases run under otherRunTime.
func (s *sampled) others(ctx context.Context, job *Job, list []OtherCase, which []int) []int {
	lim := job.Limits
	if lim.RunTime == 0 || lim.RunTime > otherRunTime {
		lim.RunTime = otherRunTime
	}
	var ok []int
	for _, l := range append([]string{s.lang}, otherLangs(s.lang)...) {
		cases := make([]checker.Case, len(which))
		for k, i := range which {
			cases[k] = list[i].Case
		}
		opt := checker.Options{Exercise: job.Exercise, Lang: l, UILang: l, Limits: lim, Parallel: job.jobs()}
		var left []int
		for k, res := range s.prog.RunCases(ctx, cases, opt) {
			if res.Status == checker.Pass {
				ok = append(ok, which[k])
			} else {
				left = append(left, which[k])
			}
		}
		if which = left; len(which) == 0 {
			break
		}
	}
	return ok
}

// otherLangs is the content languages but lang.
func otherLangs(lang string) []string {
	var out []string
	for _, l := range course.Langs {
		if l != lang {
			out = append(out, l)
		}
	}
	return out
}

// shellArg is s as one argument of a shell command the instructor may copy: quoted when it holds
// anything a shell reads on its own.
func shellArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]#~!{}") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
