package course

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/workbook-course/workbook/checker"
)

// Problem is one thing wrong with an exercise's content, located at a file of the course. Code and
// Args let a presenter say it in the user's language (message "exercise_"+Code); Msg says it in
// English; Detail holds what the compiler or the cases said, as it is.
type Problem struct {
	File   string // path within the course, e.g. exercises/exercise-deadline/cases/hidden/01.txtar
	Line   int    // the line within File, when the problem is at one
	Code   string
	Args   []any // named values for the message: "Name", value, …
	Msg    string
	Detail string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return p.File + ": " + p.Msg
}

// Audit is what Audit found about an exercise.
type Audit struct {
	Problems []Problem
	Mutation *Mutation // the measure of the cases; nil when the solutions could not be measured
	Cached   bool      // every part of it was taken from the cache (see Cache)
	// MutationCached says that Mutation was taken from the cache.
	MutationCached bool
}

// Verify checks an exercise's files as an author needs them checked: they are all there in both
// languages, its hints have three steps, every reference solution passes every case, every starter
// fails, every kept wrong program fails, and its generator (if any) draws cases. It returns the
// problems found; an error means the check itself could not be made. Audit adds mutation testing.
func (e *Exercise) Verify(ctx context.Context, lim checker.Limits) ([]Problem, error) {
	probs, _, err := verifyMany(ctx, []*Exercise{e}, lim)
	if err != nil {
		return nil, err
	}
	return probs[0], nil
}

// Audit is Verify and then the measure of the cases by mutation testing (Mutate): every mutant of
// the reference solutions is killed by a case or listed as equivalent. An error means the check
// itself could not be made.
func (e *Exercise) Audit(ctx context.Context, lim checker.Limits) (*Audit, error) {
	audits, err := AuditAll(ctx, []*Exercise{e}, lim, nil, nil)
	if err != nil {
		return nil, err
	}
	return audits[0], nil
}

// VerifyAll verifies every exercise of list as Verify does, and returns the problems of each in the
// order of list, and whether each was taken from cache (nil for none): the programs of the exercises
// whose inputs changed are built with as few go commands as checker.BuildMany needs, and their
// verdicts are stored there unless a run ran out of time (which a busy machine may cause).
func VerifyAll(ctx context.Context, list []*Exercise, lim checker.Limits, cache *Cache) ([][]Problem, []bool, error) {
	return verifyAll(ctx, list, lim, cache, nil)
}

func verifyAll(ctx context.Context, list []*Exercise, lim checker.Limits, cache *Cache, progress func(name string, n, total int)) ([][]Problem, []bool, error) {
	probs := make([][]Problem, len(list))
	cached := make([]bool, len(list))
	keys := make([]string, len(list))
	var todo []*Exercise
	var todoAt []int
	for i, e := range list {
		if cache.Enabled() {
			var err error
			if keys[i], err = e.key(kindPrograms, cache, lim); err != nil {
				return nil, nil, err
			}
		}
		if en := cache.get(keys[i]); en != nil {
			probs[i], cached[i] = en.Problems, true
			continue
		}
		todo, todoAt = append(todo, e), append(todoAt, i)
	}
	if len(todo) == 0 {
		return probs, cached, nil
	}
	if progress != nil {
		progress("", 0, len(todo))
	}
	got, steady, err := verifyMany(ctx, todo, lim)
	if err != nil {
		return nil, nil, err
	}
	for k, i := range todoAt {
		probs[i] = got[k]
		if steady[k] {
			cache.put(keys[i], &entry{Exercise: list[i].Name, Problems: got[k]})
		}
	}
	return probs, cached, nil
}

// AuditAll audits every exercise of list as Audit does, in the order of list. It takes from cache
// (nil for none) every part of an audit whose inputs have not changed, builds the programs of the
// others with as few go commands as it can (checker.BuildMany: one for all, an executable each), and
// measures the cases of two exercises at a time. progress, when not nil, is told when the programs
// are built (name "") and when the mutation analysis of each exercise starts, n of total.
func AuditAll(ctx context.Context, list []*Exercise, lim checker.Limits, cache *Cache, progress func(name string, n, total int)) ([]*Audit, error) {
	audits := make([]*Audit, len(list))
	mutKeys := make([]string, len(list))
	probs, cached, err := verifyAll(ctx, list, lim, cache, progress)
	if err != nil {
		return nil, err
	}
	for i, e := range list {
		audits[i] = &Audit{Problems: probs[i], Cached: cached[i]}
		if cache.Enabled() {
			if mutKeys[i], err = e.key(kindMutants, cache, lim); err != nil {
				return nil, err
			}
		}
	}

	// The mutation analysis, of the exercises whose solutions pass their cases: mutants of a
	// solution that fails them measure nothing.
	var measure []int
	for i, e := range list {
		if !measurable(audits[i].Problems) {
			continue
		}
		if en := cache.get(mutKeys[i]); en != nil && en.Exercise == e.Name {
			audits[i].Mutation, audits[i].MutationCached = en.Mutation, true
			audits[i].Problems = append(audits[i].Problems, en.Problems...)
			continue
		}
		audits[i].Cached = false
		measure = append(measure, i)
	}
	type measured struct {
		m     *Mutation
		probs []Problem
		err   error
	}
	out := make([]measured, len(list))
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, 2)
	for n, i := range measure {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if progress != nil {
				mu.Lock()
				progress(list[i].Name, n+1, len(measure))
				mu.Unlock()
			}
			o := &out[i]
			if o.m, o.probs, o.err = list[i].Mutate(ctx, lim); o.err == nil {
				cache.put(mutKeys[i], &entry{Exercise: list[i].Name, Problems: o.probs, Mutation: o.m})
			}
		}()
	}
	wg.Wait()
	for _, i := range measure {
		if out[i].err != nil {
			return nil, out[i].err
		}
		audits[i].Mutation = out[i].m
		audits[i].Problems = append(audits[i].Problems, out[i].probs...)
	}
	return audits, nil
}

// measurable reports whether the verdicts of an exercise's programs let its cases be measured.
func measurable(probs []Problem) bool {
	for _, p := range probs {
		if p.Code == "should_pass" || p.Code == "cases" {
			return false
		}
	}
	return true
}

// key is the cache key of the result of kind for the exercise.
func (e *Exercise) key(kind string, c *Cache, lim checker.Limits) (string, error) {
	in, err := e.keyInput(kind, c, lim)
	if err != nil {
		return "", err
	}
	return in.sum(), nil
}

// program is one program an exercise's verification runs against its cases.
type program struct {
	exercise string
	file     string // as problems name it: a folder of the course, or a kept wrong program's txtar
	dir      string // its copy on disk
	lang     string
	wantPass bool
	cases    []checker.Case
	probs    []Problem // what judge found, once it ran
}

// part is a piece of an exercise's problems, in the order they are reported: problems found in its
// files, or a program's verdict.
type part struct {
	probs []Problem
	prog  *program
}

// verifyMany checks the exercises' files and programs (see Verify). Every program of every exercise
// is built first, with as few go commands as checker.BuildMany needs, then each runs its cases. The
// problems are per exercise of list; steady says for each whether its problems may be kept in the
// cache (none of them comes from a run that ran out of time, which a busy machine may cause).
func verifyMany(ctx context.Context, list []*Exercise, lim checker.Limits) ([][]Problem, []bool, error) {
	tmp, err := checker.TempDir("verify")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	parts := make([][]part, len(list))
	var progs []*program
	for i, e := range list {
		dst := filepath.Join(tmp, strconv.Itoa(i))
		ps, err := e.verifyParts(dst)
		if err != nil {
			return nil, nil, err
		}
		parts[i] = ps
		for _, p := range ps {
			if p.prog != nil {
				progs = append(progs, p.prog)
			}
		}
	}
	dirs := make([]string, len(progs))
	for k, p := range progs {
		dirs[k] = p.dir
	}
	built, buildErrs := buildMany(ctx, list, progs, dirs, lim)
	defer func() {
		for _, p := range built {
			if p != nil {
				p.Close()
			}
		}
	}()
	// As many programs at once as there are cores, each running one case at a time: as many runs at
	// once as a check makes, and the programs' own overheads overlap.
	errs := make([]error, len(progs))
	steadyProg := make([]bool, len(progs))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for k, p := range progs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			opt := checker.Options{Exercise: p.exercise, Lang: p.lang, Limits: lim, Parallel: 1}
			res, err := result(ctx, built[k], buildErrs[k], p.dir, p.cases, opt)
			if err != nil {
				errs[k] = err
				return
			}
			p.probs = judge(p.file, res, p.wantPass)
			steadyProg[k] = len(p.probs) == 0 || (res.Verdict != checker.Timeout && res.Verdict != checker.NotRun)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	probs := make([][]Problem, len(list))
	steady := make([]bool, len(list))
	k := 0
	for i, e := range list {
		steady[i] = true
		for _, p := range parts[i] {
			if p.prog == nil {
				probs[i] = append(probs[i], p.probs...)
				continue
			}
			probs[i] = append(probs[i], p.prog.probs...)
			steady[i] = steady[i] && steadyProg[k]
			k++
		}
		if e.Generate != nil {
			for _, lang := range Langs {
				if _, _, err := e.DrawnCases(ctx, 1, lang); err != nil {
					if ctx.Err() != nil {
						return nil, nil, ctx.Err()
					}
					probs[i] = append(probs[i], Problem{File: path.Join(e.Dir(), "exercise.yaml"), Code: "generate",
						Args: []any{"Err", err.Error()}, Msg: err.Error()})
					break
				}
			}
		}
	}
	return probs, steady, nil
}

// result is the Result of a program built by checker.BuildMany (prog, or the error its build gave)
// against the cases, as checker.Check would give it.
func result(ctx context.Context, prog *checker.Program, buildErr error, dir string, cases []checker.Case, opt checker.Options) (*checker.Result, error) {
	res := &checker.Result{Exercise: opt.Exercise, Lang: opt.Lang, Dir: dir, Total: len(cases), Cases: []checker.CaseResult{}}
	var bf *checker.BuildFailure
	if errors.As(buildErr, &bf) {
		res.Verdict, res.BuildLog, res.Message, res.Skipped = bf.Verdict, bf.Log, bf.Reason, bf.Skipped
		return res, nil
	}
	if buildErr != nil {
		return nil, buildErr
	}
	res.Skipped = prog.Skipped
	res.Cases = prog.RunCases(ctx, cases, opt)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Summarize()
	return res, nil
}

// verifyParts checks the exercise's files and lays its programs out under dst, to be built and run:
// the problems and programs in the order they are reported.
func (e *Exercise) verifyParts(dst string) ([]part, error) {
	var parts []part
	add := func(file, code string, args []any, format string, fargs ...any) {
		parts = append(parts, part{probs: []Problem{{File: file, Code: code, Args: args, Msg: fmt.Sprintf(format, fargs...)}}})
	}
	if e.Order <= 0 || e.Lesson == "" || e.Difficulty < 1 || e.Difficulty > 3 || e.Minutes <= 0 {
		add(path.Join(e.Dir(), "exercise.yaml"), "meta", nil, "order, lesson, difficulty (1 to 3) and minutes are required")
	}
	cases, err := e.Cases()
	if err != nil {
		add(path.Join(e.Dir(), "cases"), "cases", []any{"Err", err.Error()}, "%v", err)
		return parts, nil
	}
	visible := 0
	for _, c := range cases {
		if c.Visible {
			visible++
		}
		for _, l := range Langs {
			if c.Titles[l] == "" {
				add(c.Source, "case_title", []any{"Lang", l}, "no title in %s (a comment line \"# %s: …\")", l, l)
			}
		}
	}
	if visible < 3 || len(cases)-visible < 6 {
		add(path.Join(e.Dir(), "cases"), "case_count", []any{"Visible", visible, "Hidden", len(cases) - visible}, "%d visible and %d hidden cases; at least 3 and 6 are needed", visible, len(cases)-visible)
	}
	for _, lang := range Langs {
		if _, err := e.Statement(lang); err != nil {
			add(path.Join(e.Dir(), lang+".md"), "statement", nil, "missing statement")
		}
		hints, err := e.Hints(lang)
		if err != nil {
			add(path.Join(e.Dir(), "hints."+lang+".md"), "hints", nil, "missing hints")
		} else if len(hints) != 3 {
			add(path.Join(e.Dir(), "hints."+lang+".md"), "hint_count", []any{"N", len(hints)}, "%d hints; there must be three sections opened by \"## \"", len(hints))
		}
		if e.Titles[lang] == "" {
			add(path.Join(e.Dir(), "exercise.yaml"), "title", []any{"Lang", lang}, "no title in %s", lang)
		}
		for _, prog := range []struct {
			dir      string
			wantPass bool
		}{{e.SolutionDir(lang), true}, {e.StarterDir(lang), false}} {
			dir := filepath.Join(dst, filepath.FromSlash(prog.dir))
			if err := extract(e.course.fsys, prog.dir, dir); err != nil {
				add(prog.dir, "program", []any{"Err", err.Error()}, "missing: %v", err)
				continue
			}
			parts = append(parts, part{prog: &program{exercise: e.Name, file: prog.dir, dir: dir, lang: lang, wantPass: prog.wantPass, cases: cases}})
		}
	}
	wrong, _ := fs.Glob(e.course.fsys, path.Join(e.Dir(), "testdata", "wrong", "*.txtar"))
	if len(wrong) == 0 {
		add(path.Join(e.Dir(), "testdata", "wrong"), "no_wrong", nil, "no wrong programs kept")
	}
	for _, w := range wrong {
		data, err := fs.ReadFile(e.course.fsys, w)
		if err != nil {
			return nil, err
		}
		ar := txtar.Parse(data)
		lang := ""
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "# lang:"); ok {
				lang = strings.TrimSpace(v)
			}
		}
		if lang != "bg" && lang != "ru" {
			add(w, "wrong_lang", nil, "the comment must say which language the program prints: \"# lang: bg\" or \"# lang: ru\"")
			continue
		}
		dir := filepath.Join(dst, "wrong", strings.TrimSuffix(path.Base(w), ".txtar"))
		for _, f := range ar.Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return nil, err
			}
		}
		parts = append(parts, part{prog: &program{exercise: e.Name, file: w, dir: dir, lang: lang, wantPass: false, cases: cases}})
	}
	return parts, nil
}

// judge says what is wrong when a program that should pass fails, or one that should fail passes.
func judge(file string, res *checker.Result, wantPass bool) []Problem {
	switch {
	case wantPass && res.Verdict != checker.Pass:
		var detail []string
		if res.BuildLog != "" {
			detail = append(detail, res.BuildLog)
		}
		for _, c := range res.Cases {
			if c.Status != checker.Pass {
				line := fmt.Sprintf("%s: %s %s", c.Name, c.Status, c.Message)
				if c.Pattern != "" {
					line += fmt.Sprintf(" %q", c.Pattern)
				}
				if c.Diff != nil {
					line += fmt.Sprintf(" (%d: %q ≠ %q)", c.Diff.Line, c.Diff.Want, c.Diff.Got)
				}
				detail = append(detail, strings.TrimSpace(line))
			}
		}
		return []Problem{{File: file, Code: "should_pass",
			Args:   []any{"Verdict", string(res.Verdict), "Passed", res.Passed, "Total", res.Total},
			Msg:    fmt.Sprintf("should pass every case, but the verdict is %s (%d of %d passed)", res.Verdict, res.Passed, res.Total),
			Detail: strings.Join(detail, "\n")}}
	case !wantPass && res.Verdict == checker.Pass:
		return []Problem{{File: file, Code: "should_fail", Msg: "should fail at least one case, but passes them all"}}
	case !wantPass && (res.Verdict == checker.BuildError || res.Verdict == checker.NoProgram):
		return []Problem{{File: file, Code: "should_build", Msg: "should compile and fail a case, but does not build", Detail: res.BuildLog}}
	}
	return nil
}

// extract copies the folder dir of fsys to dst on disk.
func extract(fsys fs.FS, dir, dst string) error {
	if _, err := fs.Stat(fsys, dir); err != nil {
		return err
	}
	return fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// Extract copies the folder dir of the course to dst on disk (a starter into a workspace, a
// solution to show).
func (c *Course) Extract(dir, dst string) error { return extract(c.fsys, dir, dst) }
