package course

import (
	"context"
	"os"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestMutation measures the cases of every exercise of the repository by mutation testing: every
// mutant of every reference solution must be killed by a case or listed in the exercise's
// equivalent.txt. A survivor fails the test, named as `workbook verify` names it.
func TestMutation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs every mutant of every solution")
	}
	if _, err := os.Stat("../../exercises"); err != nil {
		t.Skip("no exercises/ beside the package")
	}
	list, err := New(os.DirFS("../..")).Exercises()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range list {
		t.Run(ex.Name, func(t *testing.T) {
			t.Parallel()
			m, probs, err := ex.Mutate(context.Background(), checker.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range probs {
				t.Error(p)
			}
			t.Logf("%d mutants, %d killed, %d equivalent, %d survivors: score %.1f %% in %s",
				m.Mutants, m.Killed, m.Equivalent, len(m.Survivors), m.Score(), m.Elapsed.Round(100e6))
		})
	}
}
