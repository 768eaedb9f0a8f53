package verify

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
	"github.com/workbook-course/workbook/internal/course"
)

// program is one program an exercise's verification runs against its cases.
type program struct {
	exercise string
	file     string // as problems name it: a folder of the course, or a kept wrong program's txtar
	dir      string // its copy on disk
	lang     string
	wantPass bool
	cases    []checker.Case
	probs    []Problem // what judge found, once it ran
	steady   bool      // whether probs may be kept in the cache (see verifyMany)
}

// part is a piece of an exercise's problems, in the order they are reported: problems found in its
// files, or a program's verdict.
type part struct {
	probs []Problem
	prog  *program
}

// verifyMany checks the exercises' files and programs (see Exercises). Every program of every
// exercise is built first, with as few go commands as checker.BuildMany needs, then each runs its
// cases. The problems are per exercise of list; steady says for each whether its problems may be
// kept in the cache (none of them comes from a run that ran out of time, which a busy machine may
// cause).
func verifyMany(ctx context.Context, list []*course.Exercise, lim checker.Limits) ([][]Problem, []bool, error) {
	tmp, err := checker.TempDir("verify")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	parts := make([][]part, len(list))
	var progs []*program
	for i, e := range list {
		ps, err := verifyParts(e, filepath.Join(tmp, strconv.Itoa(i)))
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
	if err := runAll(ctx, list, progs, lim); err != nil {
		return nil, nil, err
	}
	probs := make([][]Problem, len(list))
	steady := make([]bool, len(list))
	for i, e := range list {
		steady[i] = true
		for _, p := range parts[i] {
			if p.prog == nil {
				probs[i] = append(probs[i], p.probs...)
				continue
			}
			probs[i] = append(probs[i], p.prog.probs...)
			steady[i] = steady[i] && p.prog.steady
		}
		gen, err := drawProblems(ctx, e)
		if err != nil {
			return nil, nil, err
		}
		probs[i] = append(probs[i], gen...)
	}
	return probs, steady, nil
}

// runAll builds the programs (buildMany) and runs each against its cases, setting its probs and
// steady: as many programs at once as there are cores, each running one case at a time, so as many
// runs at once as a check makes, and the programs' own overheads overlap.
func runAll(ctx context.Context, list []*course.Exercise, progs []*program, lim checker.Limits) error {
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
	errs := make([]error, len(progs))
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
			p.steady = len(p.probs) == 0 || (res.Verdict != checker.Timeout && res.Verdict != checker.NotRun)
		}()
	}
	wg.Wait()
	return firstErr(errs)
}

// firstErr is the first error of errs that is not nil, or nil.
func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// drawProblems is the problem of an exercise whose generator draws no cases, in some language; an
// error when ctx ended meanwhile.
func drawProblems(ctx context.Context, e *course.Exercise) ([]Problem, error) {
	if e.Generate == nil {
		return nil, nil
	}
	for _, lang := range course.Langs {
		if _, _, err := e.DrawnCases(ctx, 1, lang); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return []Problem{{File: path.Join(e.Dir(), "exercise.yaml"), Code: "generate",
				Args: []any{"Err", err.Error()}, Msg: err.Error()}}, nil
		}
	}
	return nil, nil
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

// parts gathers an exercise's parts, in the order they are reported.
type parts struct {
	e    *course.Exercise
	list []part
}

// add adds a problem found in the exercise's files.
func (ps *parts) add(file, code string, args []any, format string, fargs ...any) {
	ps.list = append(ps.list, part{probs: []Problem{{File: file, Code: code, Args: args, Msg: fmt.Sprintf(format, fargs...)}}})
}

// verifyParts checks the exercise's files and lays its programs out under dst, to be built and run:
// the problems and programs in the order they are reported.
func verifyParts(e *course.Exercise, dst string) ([]part, error) {
	ps := &parts{e: e}
	if e.Order <= 0 || e.Lesson == "" || e.Difficulty < 1 || e.Difficulty > 3 || e.Minutes <= 0 {
		ps.add(path.Join(e.Dir(), "exercise.yaml"), "meta", nil, "order, lesson, difficulty (1 to 3) and minutes are required")
	}
	cases, err := e.Cases()
	if err != nil {
		ps.add(path.Join(e.Dir(), "cases"), "cases", []any{"Err", err.Error()}, "%v", err)
		return ps.list, nil
	}
	ps.cases(cases)
	for _, lang := range course.Langs {
		ps.lang(lang, cases, dst)
	}
	if err := ps.wrong(cases, dst); err != nil {
		return nil, err
	}
	return ps.list, nil
}

// cases checks the cases' titles and counts.
func (ps *parts) cases(cases []checker.Case) {
	visible := 0
	for _, c := range cases {
		if c.Visible {
			visible++
		}
		for _, l := range course.Langs {
			if c.Titles[l] == "" {
				ps.add(c.Source, "case_title", []any{"Lang", l}, "no title in %s (a comment line \"# %s: …\")", l, l)
			}
		}
	}
	if visible < 3 || len(cases)-visible < 6 {
		ps.add(path.Join(ps.e.Dir(), "cases"), "case_count", []any{"Visible", visible, "Hidden", len(cases) - visible}, "%d visible and %d hidden cases; at least 3 and 6 are needed", visible, len(cases)-visible)
	}
}

// lang checks the exercise's files in lang and lays its solution and starter out under dst.
func (ps *parts) lang(lang string, cases []checker.Case, dst string) {
	e := ps.e
	if _, err := e.Statement(lang); err != nil {
		ps.add(path.Join(e.Dir(), lang+".md"), "statement", nil, "missing statement")
	}
	hints, err := e.Hints(lang)
	if err != nil {
		ps.add(path.Join(e.Dir(), "hints."+lang+".md"), "hints", nil, "missing hints")
	} else if len(hints) != 3 {
		ps.add(path.Join(e.Dir(), "hints."+lang+".md"), "hint_count", []any{"N", len(hints)}, "%d hints; there must be three sections opened by \"## \"", len(hints))
	}
	if e.Titles[lang] == "" {
		ps.add(path.Join(e.Dir(), "exercise.yaml"), "title", []any{"Lang", lang}, "no title in %s", lang)
	}
	for _, prog := range []struct {
		dir      string
		wantPass bool
	}{{e.SolutionDir(lang), true}, {e.StarterDir(lang), false}} {
		dir := filepath.Join(dst, filepath.FromSlash(prog.dir))
		if err := e.Course().Extract(prog.dir, dir); err != nil {
			ps.add(prog.dir, "program", []any{"Err", err.Error()}, "missing: %v", err)
			continue
		}
		ps.list = append(ps.list, part{prog: &program{exercise: e.Name, file: prog.dir, dir: dir, lang: lang, wantPass: prog.wantPass, cases: cases}})
	}
}

// wrong lays the exercise's kept wrong programs out under dst.
func (ps *parts) wrong(cases []checker.Case, dst string) error {
	e := ps.e
	fsys := e.Course().FS()
	wrong, _ := fs.Glob(fsys, path.Join(e.Dir(), "testdata", "wrong", "*.txtar"))
	if len(wrong) == 0 {
		ps.add(path.Join(e.Dir(), "testdata", "wrong"), "no_wrong", nil, "no wrong programs kept")
	}
	for _, w := range wrong {
		data, err := fs.ReadFile(fsys, w)
		if err != nil {
			return err
		}
		ar := txtar.Parse(data)
		lang := ""
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "# lang:"); ok {
				lang = strings.TrimSpace(v)
			}
		}
		if lang != "bg" && lang != "ru" {
			ps.add(w, "wrong_lang", nil, "the comment must say which language the program prints: \"# lang: bg\" or \"# lang: ru\"")
			continue
		}
		dir := filepath.Join(dst, "wrong", strings.TrimSuffix(path.Base(w), ".txtar"))
		for _, f := range ar.Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return err
			}
		}
		ps.list = append(ps.list, part{prog: &program{exercise: e.Name, file: w, dir: dir, lang: lang, wantPass: false, cases: cases}})
	}
	return nil
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
