package course

import (
	"context"
	"hash/fnv"
	"math/rand/v2"
	"sync"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/gencase"
)

// references holds one runner of reference solutions per course and exercise, so that a process
// builds each solution once.
var references sync.Map // refKey -> *gencase.Solutions

type refKey struct {
	course *Course
	name   string
}

func (e *Exercise) reference() *gencase.Solutions {
	key := refKey{e.course, e.Name}
	if r, ok := references.Load(key); ok {
		return r.(*gencase.Solutions)
	}
	dirs := map[string]string{}
	for _, l := range Langs {
		dirs[l] = e.SolutionDir(l)
	}
	ref := gencase.Reference(e.course.fsys, dirs)
	ref.Virtual = e.Virtual()
	r, _ := references.LoadOrStore(key, ref)
	return r.(*gencase.Solutions)
}

// DrawnCases draws the exercise's generated cases (the "generate:" section of its exercise.yaml)
// with seed, their expected output the reference solution's in lang. An exercise that declares no
// generator has none.
func (e *Exercise) DrawnCases(ctx context.Context, seed uint64, lang string) ([]checker.Case, []gencase.Drawn, error) {
	if e.Generate == nil {
		return nil, nil, nil
	}
	if err := e.Generate.Validate(); err != nil {
		return nil, nil, err
	}
	return gencase.Cases(ctx, e.Generate, seed, e.reference(), lang)
}

// StudentSeed is the seed of one student's drawn cases under an instructor's seed: the same student
// and seed draw the same cases (a regrade), two students draw different ones.
func StudentSeed(seed uint64, student string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(student))
	x := h.Sum64() ^ seed
	// splitmix64's finaliser, so that near seeds give unrelated draws.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// CheckCases returns the cases a check runs against a learner's program printing lang: the
// exercise's own, then a handful drawn afresh with a seed from the system's randomness.
func (e *Exercise) CheckCases(ctx context.Context, lang string) ([]checker.Case, error) {
	return e.CheckCasesSeeded(ctx, NewSeed(), lang, false)
}

// NewSeed is a seed for a check's drawn cases, from the system's randomness: at most nine digits,
// short enough to type again, and never 0, which means "nothing drawn" in a Result.
func NewSeed() uint64 { return 1 + rand.Uint64N(999_999_999) }

// CheckCasesSeeded is CheckCases with the drawn cases drawn with seed: the same seed draws the same
// cases again. With reveal, the drawn cases are shown as visible cases are, their expected output
// included: a learner who replays a drawn case asked to see it, and a drawn case gives nothing away
// (the next check draws others).
func (e *Exercise) CheckCasesSeeded(ctx context.Context, seed uint64, lang string, reveal bool) ([]checker.Case, error) {
	cases, err := e.Cases()
	if err != nil {
		return nil, err
	}
	drawn, _, err := e.DrawnCases(ctx, seed, lang)
	if err != nil {
		return nil, err
	}
	for i := range drawn {
		drawn[i].Visible = reveal
	}
	return append(cases, drawn...), nil
}
