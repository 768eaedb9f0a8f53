package verify

import (
	"context"
	"fmt"
	"sync"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// Problem is one thing wrong with an exercise's content, located at a file of the course. Code and
// Args let a presenter say it in the user's language (message "exercise_"+Code); Msg says it in
// English; Detail holds what the compiler or the cases said, as it is.
type Problem struct {
	File   string // path within the course, e.g. exercises/exercise-deadline/cases/hidden/01.txtar
	Line   int    // the line within File, when the problem is at one
	Code   string
	Args   []any // named values for the message: "Name", value, …
	Msg    string
	Detail string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return p.File + ": " + p.Msg
}

// Audit is what AuditAll found about an exercise.
type Audit struct {
	Problems []Problem
	Mutation *Mutation // the measure of the cases; nil when the solutions could not be measured
	Cached   bool      // every part of it was taken from the cache (see Cache)
	// MutationCached says that Mutation was taken from the cache.
	MutationCached bool
}

// Exercises checks the files of every exercise of list as an author needs them checked: they are
// all there in both languages, its hints have three steps, every reference solution passes every
// case, every starter fails, every kept wrong program fails, and its generator (if any) draws cases.
// It returns the problems of each in the order of list, and whether each was taken from cache (nil
// for none): the programs of the exercises whose inputs changed are built with as few go commands as
// checker.BuildMany needs, and their verdicts are stored there unless a run ran out of time (which a
// busy machine may cause). An error means the check itself could not be made. AuditAll adds
// mutation testing.
func Exercises(ctx context.Context, list []*course.Exercise, lim checker.Limits, cache *Cache) ([][]Problem, []bool, error) {
	return exercises(ctx, list, lim, cache, nil)
}

func exercises(ctx context.Context, list []*course.Exercise, lim checker.Limits, cache *Cache, progress func(name string, n, total int)) ([][]Problem, []bool, error) {
	probs := make([][]Problem, len(list))
	cached := make([]bool, len(list))
	keys := make([]string, len(list))
	var todo []*course.Exercise
	var todoAt []int
	for i, e := range list {
		if cache.Enabled() {
			var err error
			if keys[i], err = cacheKey(e, kindPrograms, cache, lim); err != nil {
				return nil, nil, err
			}
		}
		if en := cache.get(keys[i]); en != nil {
			probs[i], cached[i] = en.Problems, true
			continue
		}
		todo, todoAt = append(todo, e), append(todoAt, i)
	}
	if len(todo) == 0 {
		return probs, cached, nil
	}
	if progress != nil {
		progress("", 0, len(todo))
	}
	got, steady, err := verifyMany(ctx, todo, lim)
	if err != nil {
		return nil, nil, err
	}
	for k, i := range todoAt {
		probs[i] = got[k]
		if steady[k] {
			cache.put(keys[i], &entry{Exercise: list[i].Name, Problems: got[k]})
		}
	}
	return probs, cached, nil
}

// AuditAll checks every exercise of list as Exercises does, then measures its cases by mutation
// testing (Mutate: every mutant of the reference solutions is killed by a case or listed as
// equivalent), in the order of list. It takes from cache (nil for none) every part of an audit
// whose inputs have not changed, builds the programs of the others with as few go commands as it can
// (checker.BuildMany: one for all, an executable each), and measures the cases of two exercises at a
// time. progress, when not nil, is told when the programs are built (name "") and when the mutation
// analysis of each exercise starts, n of total. An error means the check itself could not be made.
func AuditAll(ctx context.Context, list []*course.Exercise, lim checker.Limits, cache *Cache, progress func(name string, n, total int)) ([]*Audit, error) {
	audits := make([]*Audit, len(list))
	mutKeys := make([]string, len(list))
	probs, cached, err := exercises(ctx, list, lim, cache, progress)
	if err != nil {
		return nil, err
	}
	for i, e := range list {
		audits[i] = &Audit{Problems: probs[i], Cached: cached[i]}
		if cache.Enabled() {
			if mutKeys[i], err = cacheKey(e, kindMutants, cache, lim); err != nil {
				return nil, err
			}
		}
	}

	// The mutation analysis, of the exercises whose solutions pass their cases: mutants of a
	// solution that fails them measure nothing.
	var measure []int
	for i, e := range list {
		if !measurable(audits[i].Problems) {
			continue
		}
		if en := cache.get(mutKeys[i]); en != nil && en.Exercise == e.Name {
			audits[i].Mutation, audits[i].MutationCached = en.Mutation, true
			audits[i].Problems = append(audits[i].Problems, en.Problems...)
			continue
		}
		audits[i].Cached = false
		measure = append(measure, i)
	}
	if err := measureAll(ctx, list, measure, audits, lim, cache, mutKeys, progress); err != nil {
		return nil, err
	}
	return audits, nil
}

// measureAll runs the mutation analysis of the exercises of list at the indexes measure, two at a
// time, adds each one's measure and problems to its audit and stores them in cache under mutKeys.
func measureAll(ctx context.Context, list []*course.Exercise, measure []int, audits []*Audit, lim checker.Limits,
	cache *Cache, mutKeys []string, progress func(name string, n, total int)) error {
	type measured struct {
		m     *Mutation
		probs []Problem
		err   error
	}
	out := make([]measured, len(list))
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, 2)
	for n, i := range measure {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if progress != nil {
				mu.Lock()
				progress(list[i].Name, n+1, len(measure))
				mu.Unlock()
			}
			o := &out[i]
			if o.m, o.probs, o.err = Mutate(ctx, list[i], lim); o.err == nil {
				cache.put(mutKeys[i], &entry{Exercise: list[i].Name, Problems: o.probs, Mutation: o.m})
			}
		}()
	}
	wg.Wait()
	for _, i := range measure {
		if out[i].err != nil {
			return out[i].err
		}
		audits[i].Mutation = out[i].m
		audits[i].Problems = append(audits[i].Problems, out[i].probs...)
	}
	return nil
}

// measurable reports whether the verdicts of an exercise's programs let its cases be measured.
func measurable(probs []Problem) bool {
	for _, p := range probs {
		if p.Code == "should_pass" || p.Code == "cases" {
			return false
		}
	}
	return true
}

// cacheKey is the cache key of the result of kind for the exercise.
func cacheKey(e *course.Exercise, kind string, c *Cache, lim checker.Limits) (string, error) {
	in, err := keyInputOf(e, kind, c, lim)
	if err != nil {
		return "", err
	}
	return in.sum(), nil
}
