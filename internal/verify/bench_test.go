package verify

import (
	"context"
	"os"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// repo is the course of this repository, read from disk.
func repo(b *testing.B) *course.Course {
	b.Helper()
	if _, err := os.Stat("../../exercises"); err != nil {
		b.Skip("no exercises/ beside the package")
	}
	return course.New(os.DirFS("../.."))
}

// BenchmarkMutation runs the mutation testing of every exercise of the course, one after another:
// go test ./internal/verify -run '^$' -bench Mutation -benchtime 1x
func BenchmarkMutation(b *testing.B) {
	c := repo(b)
	list, err := c.Exercises()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		mutants, survivors := 0, 0
		for _, ex := range list {
			m, _, err := Mutate(ctx, ex, checker.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			mutants += m.Mutants
			survivors += len(m.Survivors)
		}
		b.ReportMetric(float64(mutants), "mutants")
		b.ReportMetric(float64(survivors), "survivors")
	}
}
