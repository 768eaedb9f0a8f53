package grade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/workbook-course/workbook/checker"
)

// CaseError is an instructor's case that a reference solution does not pass: a case with a typo in
// its command or its expected output, which would otherwise be charged to every student.
type CaseError struct {
	Case   string          // the case's name
	Source string          // where it was read from
	Lang   string          // the reference solution's language
	Status checker.Verdict // how it went (fail, timeout, crash, …)
	Why    string          // in one English line (see testMessage)
	Got    string          // what the reference solution printed
}

func (e *CaseError) Error() string {
	return fmt.Sprintf("case %s: the reference solution (%s) does not pass it: %s", e.Case, e.Lang, e.Why)
}

// CheckCases runs cases against every reference solution, each in its own language, before any
// student is graded, and returns a *CaseError for the first case one of them does not pass.
func CheckCases(ctx context.Context, exercise string, solutions []Source, cases []checker.Case, lim checker.Limits) error {
	if len(cases) == 0 {
		return nil
	}
	for _, sol := range solutions {
		if err := checkAgainst(ctx, exercise, sol, cases, lim); err != nil {
			return err
		}
	}
	return nil
}

func checkAgainst(ctx context.Context, exercise string, sol Source, cases []checker.Case, lim checker.Limits) error {
	dir, err := checker.TempDir("ref")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for name, data := range sol.Files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	lim.Trusted = true // the course's own code, built under no limit meant for a student's
	prog, err := checker.Build(ctx, dir, lim)
	if err != nil {
		return fmt.Errorf("the reference solution (%s) does not build: %w", sol.Lang, err)
	}
	defer prog.Close()
	opt := checker.Options{Exercise: exercise, Lang: sol.Lang, UILang: sol.Lang, Limits: lim, Parallel: runtime.GOMAXPROCS(0)}
	results := prog.RunCases(ctx, cases, opt)
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, r := range results {
		if r.Status == checker.Pass {
			continue
		}
		why := testMessage(r)
		if why == "" {
			why = string(r.Status)
		}
		return &CaseError{Case: r.Name, Source: cases[i].Source, Lang: sol.Lang, Status: r.Status, Why: why,
			Got: clipLines(r.Got, 12)}
	}
	return nil
}

// clipLines keeps the first n lines of s.
func clipLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "") + "…\n"
}
