package course

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

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
}

// Verify checks an exercise's files as an author needs them checked: they are all there in both
// languages, its hints have three steps, every reference solution passes every case, every starter
// fails, every kept wrong program fails, and its generator (if any) draws cases. It returns the
// problems found; an error means the check itself could not be made. Audit adds mutation testing.
func (e *Exercise) Verify(ctx context.Context, lim checker.Limits) ([]Problem, error) {
	probs, err := e.verifyFiles(ctx, lim)
	if err != nil {
		return nil, err
	}
	if e.Generate != nil {
		for _, lang := range Langs {
			if _, _, err := e.DrawnCases(ctx, 1, lang); err != nil {
				probs = append(probs, Problem{File: path.Join(e.Dir(), "exercise.yaml"), Code: "generate",
					Args: []any{"Err", err.Error()}, Msg: err.Error()})
				break
			}
		}
	}
	return probs, nil
}

// Audit is Verify and then the measure of the cases by mutation testing (Mutate): every mutant of
// the reference solutions is killed by a case or listed as equivalent. An error means the check
// itself could not be made.
func (e *Exercise) Audit(ctx context.Context, lim checker.Limits) (*Audit, error) {
	probs, err := e.Verify(ctx, lim)
	if err != nil {
		return nil, err
	}
	a := &Audit{Problems: probs}
	for _, p := range probs {
		if p.Code == "should_pass" || p.Code == "cases" {
			return a, nil // mutants of a solution that fails its cases measure nothing
		}
	}
	m, mprobs, err := e.Mutate(ctx, lim)
	if err != nil {
		return nil, err
	}
	a.Mutation = m
	a.Problems = append(a.Problems, mprobs...)
	return a, nil
}

// verifyFiles checks the exercise's files and programs (see Verify).
func (e *Exercise) verifyFiles(ctx context.Context, lim checker.Limits) ([]Problem, error) {
	var probs []Problem
	add := func(file, code string, args []any, format string, fargs ...any) {
		probs = append(probs, Problem{File: file, Code: code, Args: args, Msg: fmt.Sprintf(format, fargs...)})
	}
	if e.Order <= 0 || e.Lesson == "" || e.Difficulty < 1 || e.Difficulty > 3 || e.Minutes <= 0 {
		add(path.Join(e.Dir(), "exercise.yaml"), "meta", nil, "order, lesson, difficulty (1 to 3) and minutes are required")
	}
	cases, err := e.Cases()
	if err != nil {
		add(path.Join(e.Dir(), "cases"), "cases", []any{"Err", err.Error()}, "%v", err)
		return probs, nil
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
	tmp, err := checker.TempDir("verify")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
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
		opt := checker.Options{Exercise: e.Name, Lang: lang, Limits: lim}
		for _, prog := range []struct {
			dir      string
			wantPass bool
		}{{e.SolutionDir(lang), true}, {e.StarterDir(lang), false}} {
			dst := filepath.Join(tmp, filepath.FromSlash(prog.dir))
			if err := extract(e.course.fsys, prog.dir, dst); err != nil {
				add(prog.dir, "program", []any{"Err", err.Error()}, "missing: %v", err)
				continue
			}
			res, err := checker.Check(ctx, dst, cases, opt)
			if err != nil {
				return nil, err
			}
			probs = append(probs, judge(prog.dir, res, prog.wantPass)...)
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
		dst := filepath.Join(tmp, "wrong", strings.TrimSuffix(path.Base(w), ".txtar"))
		for _, f := range ar.Files {
			p := filepath.Join(dst, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				return nil, err
			}
		}
		res, err := checker.Check(ctx, dst, cases, checker.Options{Exercise: e.Name, Lang: lang, Limits: lim})
		if err != nil {
			return nil, err
		}
		probs = append(probs, judge(w, res, false)...)
	}
	return probs, nil
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
