package course

import (
	"context"
	"errors"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// Build builds the program in dir as Check does, to be run by hand (workbook run): in virtual time
// when the exercise runs in it, each run limited to runTime. A program that does not build gives
// the Result of its build, with no case, for the caller to present (its Lang and Dir unset); a
// build the checker could not make is a *ToolError; an interrupted build, ctx's error.
func (e *Exercise) Build(ctx context.Context, dir string, runTime time.Duration) (*checker.Program, *checker.Result, error) {
	prog, err := checker.Build(ctx, dir, e.Limits(checker.Limits{RunTime: runTime}))
	var bf *checker.BuildFailure
	switch {
	case errors.As(err, &bf):
		return nil, &checker.Result{Exercise: e.Name, Verdict: bf.Verdict,
			BuildLog: bf.Log, Message: bf.Reason, Skipped: bf.Skipped, Cases: []checker.CaseResult{}}, nil
	case errors.Is(err, context.Canceled):
		return nil, nil, err
	case err != nil:
		return nil, nil, &ToolError{err}
	}
	return prog, nil, nil
}
