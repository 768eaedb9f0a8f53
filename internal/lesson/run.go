package lesson

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/imports"

	"github.com/workbook-course/workbook/checker"
)

// Runner builds and runs lesson programs through the checker: every distinct program once, however
// many outputs and quizzes show it, a few at a time. One Runner may check many lessons; a program it
// has run already is not run again.
type Runner struct {
	Limits checker.Limits // for every build and run (the checker's defaults when zero)
	Jobs   int            // programs built or run at once (default: runtime.GOMAXPROCS, the CPUs the process may use)

	mu     sync.Mutex
	cache  map[[32]byte]*outcome
	builds atomic.Int32 // go builds made, for tests
}

// outcome is what became of one program.
type outcome struct {
	src      string
	built    bool   // it compiled
	buildLog string // the compiler's messages when it did not
	fixErr   error  // the imports could not be fixed
	out      checker.RunOutput
}

func (o *outcome) ok() bool { return o.built && o.out.Status == checker.Pass && o.out.ExitCode == 0 }

func (r *Runner) jobs() int {
	if r.Jobs > 0 {
		return r.Jobs
	}
	return runtime.GOMAXPROCS(0)
}

// runAll makes sure every program of srcs has run, and returns their outcomes by source.
func (r *Runner) runAll(ctx context.Context, srcs []string) (map[string]*outcome, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cache == nil {
		r.cache = map[[32]byte]*outcome{}
	}
	res := map[string]*outcome{}
	var todo []*outcome
	for _, src := range srcs {
		key := sha256.Sum256([]byte(src))
		o, ok := r.cache[key]
		if !ok {
			o = &outcome{src: src}
			r.cache[key] = o
			todo = append(todo, o)
		}
		res[src] = o
	}
	if len(todo) == 0 {
		return res, nil
	}
	tmp, err := checker.TempDir("lesson")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	// Fix the imports and write each program into a folder of its own.
	dirs := make([]string, len(todo))
	fixed := make([][]byte, len(todo))
	if err := r.each(ctx, len(todo), func(i int) error {
		o := todo[i]
		dir := filepath.Join(tmp, fmt.Sprintf("p%03d", i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		file := filepath.Join(dir, "main.go")
		src, err := FixImports(file, o.src)
		if err != nil {
			o.fixErr = err
			return nil
		}
		dirs[i], fixed[i] = dir, src
		return os.WriteFile(file, src, 0o644)
	}); err != nil {
		r.forget(todo)
		return nil, err
	}
	// Most programs are built together as one executable; the others, and all of them if that
	// fails, one by one.
	done, err := r.runBatch(ctx, filepath.Join(tmp, "batch"), todo, fixed)
	if err != nil {
		r.forget(todo)
		return nil, err
	}
	if err := r.each(ctx, len(todo), func(i int) error {
		if dirs[i] == "" || done[i] {
			return nil
		}
		o := todo[i]
		r.builds.Add(1)
		prog, err := checker.Build(ctx, dirs[i], trusted(VirtualLimits(o.src, r.Limits)))
		var bf *checker.BuildFailure
		switch {
		case errors.As(err, &bf):
			o.buildLog = bf.Log
			return nil
		case err != nil:
			return err
		}
		defer prog.Close()
		o.built = true
		o.out = prog.Run(ctx, "", nil, "")
		return ctx.Err()
	}); err != nil {
		r.forget(todo)
		return nil, err
	}
	return res, nil
}

// forget drops outcomes that were not finished because the tool failed.
func (r *Runner) forget(list []*outcome) {
	for _, o := range list {
		delete(r.cache, sha256.Sum256([]byte(o.src)))
	}
}

// each calls f(0) … f(n-1), r.jobs() at a time, and returns the first error.
func (r *Runner) each(ctx context.Context, n int, f func(i int) error) error {
	sem := make(chan struct{}, r.jobs())
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// FixImports adds the standard-library imports src uses and drops those it does not, as goimports
// does, and formats it. filename must be in a folder of its own: goimports looks at the files next
// to it (the folder need not exist).
func FixImports(filename, src string) ([]byte, error) {
	return imports.Process(filename, []byte(src), &imports.Options{Comments: true, TabIndent: true, TabWidth: 8})
}

// Check builds and runs every program of the lessons and checks what they print: every output block
// byte for byte, every predict quiz (the right choice is printed and no wrong one is), every bug quiz
// (the buggy and the fixed version print different things) and the final form of every program
// (it builds and runs). A lesson that Parse found problems in is not run. The error is for the tool
// only (no Go toolchain, cancelled); what is wrong with a lesson comes back as Errors.
func (r *Runner) Check(ctx context.Context, lessons ...*Lesson) (Errors, error) {
	var checks []*check
	var errs Errors
	var srcs []string
	for _, l := range lessons {
		c, e := plan(l)
		errs = append(errs, e...)
		checks = append(checks, c...)
		for _, c := range c {
			srcs = append(srcs, c.src)
			if c.kind == checkBug {
				srcs = append(srcs, c.fixed)
			}
		}
	}
	outcomes, err := r.runAll(ctx, srcs)
	if err != nil {
		return nil, err
	}
	reported := map[*outcome]bool{}
	for _, c := range checks {
		errs = append(errs, judge(c, outcomes[c.src], outcomes[c.fixed], reported)...)
	}
	errs.Sort()
	return errs, nil
}

// judge says what is wrong with one check once its programs ran.
func judge(c *check, o, fix *outcome, reported map[*outcome]bool) Errors {
	// A program that does not build or run is reported once, at the first place that shows it.
	if !o.ok() && !(c.kind == checkBug && o.built) {
		if reported[o] {
			return nil
		}
		reported[o] = true
		return Errors{broken(c, o)}
	}
	switch c.kind {
	case checkOutput:
		b := c.block
		if d := checker.Compare(b.Text, o.out.Stdout); d != nil {
			e := newError(c.file, diffLine(b, d.Line), CodeOutput, "Name", c.program, "Line", d.Line)
			e.Diff = d
			return Errors{e}
		}
	case checkPredict:
		var errs Errors
		right := c.quiz.Right()
		var rightLine int
		for i, ch := range c.quiz.Choices() {
			if i == right {
				rightLine = ch.Line
			}
		}
		for i, ch := range c.quiz.Choices() {
			d := checker.Compare(ch.Text, o.out.Stdout)
			switch {
			case i == right && d != nil:
				e := newError(c.file, diffLine(ch, d.Line), CodePredictWrong, "Name", c.program, "Line", d.Line)
				e.Diff = d
				errs = append(errs, e)
			case i != right && d == nil:
				errs = append(errs, newError(c.file, ch.Line, CodePredictMatch, "Name", c.program, "Line", rightLine))
			}
		}
		return errs
	case checkBug:
		if !fix.ok() {
			e := newError(c.file, c.quiz.blocks(FixBlock)[0].Line, CodeBugFixBroken)
			e.Detail = detail(fix)
			return Errors{e}
		}
		if o.out.Stdout == fix.out.Stdout && o.ok() {
			return Errors{newError(c.file, c.line, CodeBugSame)}
		}
	}
	return nil
}

// broken reports a program that did not build, or did not run to a clean exit.
func broken(c *check, o *outcome) *Error {
	var e *Error
	switch {
	case o.fixErr != nil:
		e = newError(c.file, c.line, CodeImports, "Err", o.fixErr.Error())
	case !o.built:
		e = newError(c.file, c.line, CodeBuild, "Name", c.program)
	default:
		verdict, status := string(o.out.Status), ""
		switch o.out.Status {
		case checker.Timeout:
			status = "it did not finish in time"
		case checker.OutputLimit:
			status = "it printed too much"
		case checker.Crash:
			status = "it crashed"
		default:
			verdict, status = "exit", fmt.Sprintf("it exited with code %d", o.out.ExitCode)
		}
		e = newError(c.file, c.line, CodeRun, "Name", c.program, "Status", status, "Verdict", verdict, "Exit", o.out.ExitCode,
			"Reason", o.out.Reason)
	}
	e.Detail = detail(o)
	return e
}

// detail is what to show under a broken program: the compiler's log or the end of its stderr.
func detail(o *outcome) string {
	if !o.built {
		return strings.TrimSpace(o.buildLog)
	}
	lines := strings.Split(strings.TrimSpace(o.out.Stderr), "\n")
	if len(lines) > 15 {
		lines = append(lines[:15], "…")
	}
	return strings.Join(lines, "\n")
}

// diffLine is the lesson line of line n (from 1) of a block's content, or of its closing fence when n
// is past the end.
func diffLine(b *Block, n int) int {
	lines := strings.Count(b.Text, "\n")
	if n > lines {
		n = lines + 1
	}
	return b.CodeLine() + n - 1
}
