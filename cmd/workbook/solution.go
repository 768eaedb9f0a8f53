package main

import (
	"bufio"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/codediff"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/tty"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runSolution prints the reference solution of an exercise. Before the exercise has passed it asks
// first (or takes --yes), because the solution read too early takes the exercise away.
func runSolution(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	yes := flags.Bool("yes", false, e.ui.T("flag_solution_yes"))
	full := flags.Bool("full", false, e.ui.T("flag_solution_full"))
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	p, err := e.keepWorkspace()
	if err != nil {
		return err
	}
	ex, err := e.exerciseArg(p, pos, "err_solution_args")
	if err != nil {
		return err
	}
	if ok, err := e.mayShowSolution(p, ex, *yes); !ok || err != nil {
		return err
	}
	files, err := ex.Solution(e.content)
	if err != nil {
		return e.usageErr("err_no_solution", "Name", ex.Name)
	}
	pt := e.paintFor(e.stdout)
	fmt.Fprintln(e.stdout, pt.Bold(e.ui.T("solution_heading", "Title", ex.Title(e.content), "Name", ex.Name)))
	if *full || p == nil {
		if !*full {
			fmt.Fprintln(e.stdout, e.ui.T("solution_no_mine"))
		}
		for _, f := range files {
			e.solutionWhole(pt, f.Name, f.Data)
		}
	} else {
		e.solutionDiff(pt, ex, p.ExerciseDir(ex, e.content), files)
	}
	if p != nil {
		if _, err := e.updateState(p, func(st *progress.State) error {
			st.Exercise(ex.Name).SolutionSeen = true
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// solutionDiff shows, file by file, how the solution differs from the learner's program in dir.
func (e *env) solutionDiff(pt tty.Paint, ex *course.Exercise, dir string, files []course.SourceFile) {
	mine := filepath.ToSlash(e.rel(dir))
	shown := mine
	if shown == "." {
		shown = "./"
	}
	fmt.Fprintln(e.stdout, e.ui.T("solution_diff_intro", "Mine", shown))
	for _, f := range codediff.Compare(dir, mine, ex.SolutionDir(e.content), files) {
		name := path.Join(mine, f.Name)
		switch {
		case f.Missing:
			fmt.Fprintln(e.stdout)
			fmt.Fprintln(e.stdout, e.ui.T("solution_missing", "File", name))
			e.solutionWhole(pt, f.Name, f.Solution)
		case f.Same():
			fmt.Fprintln(e.stdout)
			fmt.Fprintln(e.stdout, pt.Green(e.ui.T("solution_same", "File", name)))
		default:
			fmt.Fprintln(e.stdout)
			for _, line := range strings.SplitAfter(f.Diff, "\n") {
				fmt.Fprint(e.stdout, diffLine(pt, line))
			}
		}
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, e.runnable(e.ui.T("solution_full_hint", "Name", ex.Name)))
}

// diffLine is one line of a unified diff, coloured: headers bold, hunk lines cyan, the learner's
// lines red, the solution's green.
func diffLine(pt tty.Paint, line string) string {
	body, nl := strings.CutSuffix(line, "\n")
	switch {
	case strings.HasPrefix(body, "--- "), strings.HasPrefix(body, "+++ "):
		body = pt.Bold(body)
	case strings.HasPrefix(body, "@@"):
		body = pt.Cyan(body)
	case strings.HasPrefix(body, "-"):
		body = pt.Red(body)
	case strings.HasPrefix(body, "+"):
		body = pt.Green(body)
	}
	if nl {
		body += "\n"
	}
	return body
}

// solutionWhole shows one file of the solution whole, under its name.
func (e *env) solutionWhole(pt tty.Paint, name string, data []byte) {
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, pt.Dim("// "+name))
	fmt.Fprint(e.stdout, string(data))
}

// mayShowSolution reports whether the solution of ex may be shown: once the exercise has passed, or
// with --yes, or when the learner says yes to the question asked.
func (e *env) mayShowSolution(p *workspace.Workspace, ex *course.Exercise, yes bool) (bool, error) {
	passed := false
	if p != nil {
		st, err := e.loadState(p)
		if err != nil {
			return false, err
		}
		passed = st.Lookup(ex.Name).EverPassed()
	}
	if !passed && !yes {
		fmt.Fprintln(e.stdout, e.runnable(e.ui.T("solution_not_passed", "Title", ex.Title(e.content), "Name", ex.Name)))
		fmt.Fprint(e.stdout, e.ui.T("solution_confirm")+" ")
		answer, _ := bufio.NewReader(e.stdin).ReadString('\n')
		if !cli.Confirmed(answer) {
			fmt.Fprintln(e.stdout)
			fmt.Fprintln(e.stdout, e.runnable(e.ui.T("solution_declined", "Name", ex.Name)))
			return false, nil
		}
	}
	return true, nil
}
