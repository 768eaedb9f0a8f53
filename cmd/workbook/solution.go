package main

import (
	"bufio"
	"context"
	"fmt"

	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runSolution prints the reference solution of an exercise. Before the exercise has passed it asks
// first (or takes --yes), because the solution read too early takes the exercise away.
func runSolution(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	yes := flags.Bool("yes", false, e.ui.T("flag_solution_yes"))
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
	for _, f := range files {
		fmt.Fprintln(e.stdout)
		fmt.Fprintln(e.stdout, pt.Dim("// "+f.Name))
		fmt.Fprint(e.stdout, string(f.Data))
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
