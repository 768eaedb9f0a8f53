package verify

import (
	"context"
	"os"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// TestMutation measures the cases of every exercise of the repository by mutation testing: every
// mutant in a deterministic sample of the mutants of every exercise's reference solution (about one
// in mutationEvery, see MutateSample), in one of its languages (Bulgarian for the first
// exercise Exercises lists, Russian for the second, and so on: the two solutions have one shape),
// must be killed by a case or listed in the exercise's equivalent.txt. A survivor fails the test, named as `workbook verify` names it. The full analysis,
// every mutant, is `workbook verify` (CI runs it as a step of its own), or this test with
// WORKBOOK_MUTATION=full.
//
// The results are kept in verify's cache (see Cache), keyed by the source of the packages that
// decide them (SourceHash) among the rest, so a second run, a fresh clone of the same commit on the
// same machine, or a commit that changed only other packages, takes them from there; a clean machine (CI) has no cache and runs the sample, and WORKBOOK_NOCACHE=1
// does so anywhere. A result from the cache is checked exactly as a fresh one: it records the
// survivors, the equivalents and the problems of the run that stored it.
func TestMutation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs every mutant of every solution")
	}
	if _, err := os.Stat("../../exercises"); err != nil {
		t.Skip("no exercises/ beside the package")
	}
	list, err := course.New(os.DirFS("../..")).Exercises()
	if err != nil {
		t.Fatal(err)
	}
	every := mutationEvery
	full := os.Getenv("WORKBOOK_MUTATION") == "full"
	if full {
		every = 1
	}
	code, err := SourceHash("../..")
	if err != nil {
		t.Fatal(err)
	}
	cache := OpenCacheFor(false, code)
	for i, ex := range list {
		var langs []string
		if !full {
			langs = []string{course.Langs[i%len(course.Langs)]}
		}
		t.Run(ex.Name, func(t *testing.T) {
			t.Parallel()
			m, probs, cached, err := MutateSampleCached(context.Background(), ex, checker.Limits{}, cache, every, langs...)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range probs {
				t.Error(p)
			}
			if m == nil {
				t.Fatal("no measure of the cases")
			}
			survived := 0
			for _, p := range probs {
				if p.Code == "mutant_survived" {
					survived++
				}
			}
			if got, want := len(m.Survivors), survived; got != want {
				t.Errorf("%d survivors, but %d problems name one", got, want)
			}
			if got, want := m.Killed+m.Equivalent+len(m.Survivors), m.Mutants; got != want || want == 0 {
				t.Errorf("killed + equivalent + survivors = %d, want the %d mutants (and some)", got, want)
			}
			if len(probs) == 0 && m.Equivalent != m.Listed {
				t.Errorf("%d mutants counted as equivalent, but %s lists %d of those run", m.Equivalent, EquivalentFile, m.Listed)
			}
			from := "run"
			if cached {
				from = "from the cache"
			}
			t.Logf("%v: %d mutants, %d killed, %d equivalent, %d survivors: score %.1f %% in %s (%s)",
				langs, m.Mutants, m.Killed, m.Equivalent, len(m.Survivors), m.Score(), m.Elapsed.Round(100e6), from)
		})
	}
}

// mutationEvery is the share of the mutants go test ./... runs: about one in mutationEvery (it was
// one in five, about 200 CPU-seconds on a machine with no cache, most of go test ./...'s budget).
const mutationEvery = 12
