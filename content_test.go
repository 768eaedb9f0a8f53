package workbook_test

import (
	"context"
	"os"
	"testing"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/verify"
)

// TestExercises proves, for every exercise in both languages, that the reference solution passes
// every case, that the starter and every kept wrong program fail, and that the statement, hints and
// metadata are all there. It reads the repository's files, not the embedded copy, so an author sees a
// change at once (a changed file changes the key of verify's cache, below).
func TestExercises(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every solution, starter and wrong program")
	}
	c := course.New(os.DirFS("."))
	list, err := c.Exercises()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) == 0 {
		t.Fatal("no exercises found")
	}
	dirs, err := os.ReadDir("exercises")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, err := os.Stat("exercises/" + d.Name() + "/exercise.yaml"); d.IsDir() && err != nil {
			t.Errorf("exercises/%s has no exercise.yaml", d.Name())
		}
	}
	// Every exercise's programs at once (one go command builds them all), their verdicts kept in
	// verify's cache under a key of the module's source and the exercises' files, as TestMutation
	// keeps its measures: a second run, or a fresh clone of the same commit on the same machine,
	// takes them from there, and WORKBOOK_NOCACHE=1 runs everything again.
	code, err := verify.SourceHash(".")
	if err != nil {
		t.Fatal(err)
	}
	probs, cached, err := verify.Exercises(context.Background(), list, checker.Limits{}, verify.OpenCacheFor(false, code))
	if err != nil {
		t.Fatal(err)
	}
	for i, ex := range list {
		t.Run(ex.Name, func(t *testing.T) {
			if cached[i] {
				t.Log("verdicts from verify's cache")
			}
			for _, p := range probs[i] {
				t.Error(p)
			}
		})
	}
}

// TestEmbeddedMatchesRepository guards the embedding: the binary carries the same exercises as the
// repository.
func TestEmbeddedMatchesRepository(t *testing.T) {
	disk := course.New(os.DirFS(".")).Names()
	emb := course.New(workbook.Content()).Names()
	if len(disk) != len(emb) {
		t.Fatalf("repository has %v, embedded %v", disk, emb)
	}
	for i := range disk {
		if disk[i] != emb[i] {
			t.Errorf("exercise %d: repository %s, embedded %s", i, disk[i], emb[i])
		}
	}
}
