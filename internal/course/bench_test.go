package course

import (
	"context"
	"os"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// repo is the course of this repository, read from disk.
func repo(b *testing.B) *Course {
	b.Helper()
	if _, err := os.Stat("../../exercises"); err != nil {
		b.Skip("no exercises/ beside the package")
	}
	return New(os.DirFS("../.."))
}

// BenchmarkCheck checks exercise-storm's reference solution as `workbook check` does, with the
// cases drawn afresh and without them:
// go test ./internal/course -run '^$' -bench Check -count 6
func BenchmarkCheck(b *testing.B) {
	ex, err := repo(b).Exercise("exercise-storm")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := ex.course.Extract(ex.SolutionDir("bg"), dir); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		cases func() ([]checker.Case, error)
	}{
		{"files", ex.Cases},
		{"files+drawn", func() ([]checker.Case, error) { return ex.CheckCases(ctx, "bg") }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				cases, err := tc.cases()
				if err != nil {
					b.Fatal(err)
				}
				res, err := checker.Check(ctx, dir, cases, checker.Options{Exercise: ex.Name, Lang: "bg"})
				if err != nil {
					b.Fatal(err)
				}
				if res.Verdict != checker.Pass {
					b.Fatalf("the solution: %s (%d of %d)", res.Verdict, res.Passed, res.Total)
				}
			}
		})
	}
}
