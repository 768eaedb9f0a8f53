package verify

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/mutate"
)

// EquivalentFile is the name, within an exercise's folder, of the list of mutants of its reference
// solutions that are equivalent to them (exercises/README.md describes the format).
const EquivalentFile = "equivalent.txt"

// Equivalent is one line of an exercise's list of equivalent mutants:
//
//	bg/main.go:21: removed `fs.SetOutput(os.Stderr)` # a FlagSet writes to os.Stderr unless told otherwise
type Equivalent struct {
	File   string // the solution's file, relative to solutions/<name>/: "bg/main.go"
	Line   int    // the line of the change, where verify's report names it
	What   string // what changed, exactly as verify's report says it
	Reason string // why the mutant prints what the solution prints, for a reviewer to check
	At     int    // the line of this entry in the list
}

// key matches the entry with a mutant of the file.
func (q Equivalent) key() string { return q.File + ":" + strconv.Itoa(q.Line) + ": " + q.What }

// ParseEquivalents reads a list of equivalent mutants. Blank lines and lines opened by "#" are
// comments; every other line is "FILE:LINE: WHAT # REASON", with a reason.
func ParseEquivalents(name string, data []byte) ([]Equivalent, error) {
	var list []Equivalent
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := fmt.Errorf("%s:%d: want \"FILE:LINE: WHAT # REASON\", got %q", name, n, line)
		loc, rest, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, bad
		}
		file, lineNo, ok := strings.Cut(loc, ":")
		num, err := strconv.Atoi(lineNo)
		if !ok || err != nil || num < 1 || file == "" {
			return nil, bad
		}
		what, reason, ok := strings.Cut(rest, " # ")
		what, reason = strings.TrimSpace(what), strings.TrimSpace(reason)
		if !ok || what == "" || reason == "" {
			return nil, bad
		}
		list = append(list, Equivalent{File: file, Line: num, What: what, Reason: reason, At: n})
	}
	return list, sc.Err()
}

// Equivalents returns the exercise's list of equivalent mutants (none when it has no list).
func Equivalents(e *course.Exercise) ([]Equivalent, error) {
	name := path.Join(e.Dir(), EquivalentFile)
	data, err := fs.ReadFile(e.Course().FS(), name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return ParseEquivalents(name, data)
}

// Survivor is a mutant of a reference solution that passes every case.
type Survivor struct {
	File string // the solution's file in the course: solutions/<name>/<lang>/main.go
	Line int
	What string
}

func (s Survivor) String() string { return fmt.Sprintf("%s:%d: %s", s.File, s.Line, s.What) }

// Mutation is the measure of an exercise's cases by mutation testing of its reference solutions.
type Mutation struct {
	Mutants    int        // mutants that build, of every solution
	Killed     int        // mutants some case fails
	Equivalent int        // survivors listed as equivalent
	Survivors  []Survivor // survivors not listed: each a missing case, or an equivalent to list
	Listed     int        // mutants run that the list of equivalents names
	Every      int        // about one mutant in Every was run (MutateSample); 0 or 1: all of them
	Elapsed    time.Duration
}

// Score is the share of the mutants that are not equivalent that the cases kill, in percent.
func (m *Mutation) Score() float64 {
	if n := m.Mutants - m.Equivalent; n > 0 {
		return 100 * float64(m.Killed) / float64(n)
	}
	return 100
}

// Mutate measures the exercise's cases: every mutant of each reference solution (see package
// mutate) is built and run against the cases. The problems are the survivors not listed as
// equivalent, the entries of the list that name no surviving mutant, and a list that cannot be read.
func Mutate(ctx context.Context, e *course.Exercise, lim checker.Limits) (*Mutation, []Problem, error) {
	return MutateSample(ctx, e, lim, 1)
}

// MutateSample is Mutate on a deterministic part of the mutants: those whose key (file, line and
// change) hashes to 0 modulo every, about one in every; every <= 1 takes them all. The part is the
// same on every machine and in every run, and spreads over every operator and line of a solution, so
// a quick run (go test ./...) measures the cases the way the full one does (workbook verify, and a
// CI step of its own), only on fewer mutants. Entries of the list of equivalents are checked against
// every mutant generated (a stale entry is found whatever the sample), and a listed mutant outside
// the sample counts neither as equivalent nor as run.
//
// langs, when given, keeps only the solutions in those languages (the others' mutants are generated,
// so their entries in the list are not stale, but none is run): the solutions in every language
// have one shape (verify checks their parity), so one language's mutants measure the cases as both
// do.
func MutateSample(ctx context.Context, e *course.Exercise, lim checker.Limits, every int, langs ...string) (*Mutation, []Problem, error) {
	start := time.Now()
	a := &analysis{e: e, lim: lim, listFile: path.Join(e.Dir(), EquivalentFile),
		listed: map[string]*Equivalent{}, used: map[string]bool{}, m: &Mutation{}}
	equiv, err := Equivalents(e)
	if err != nil {
		return nil, []Problem{{File: a.listFile, Code: "equivalent_format", Args: []any{"Err", err.Error()}, Msg: err.Error()}}, nil
	}
	for i := range equiv {
		a.listed[equiv[i].key()] = &equiv[i]
	}
	if a.cases, err = e.Cases(); err != nil {
		return nil, nil, err
	}
	for _, lang := range course.Langs {
		if err := a.solution(ctx, lang, every, len(langs) > 0 && !slices.Contains(langs, lang)); err != nil {
			return nil, nil, err
		}
	}
	for _, q := range equiv {
		if !a.used[q.key()] {
			a.probs = append(a.probs, Problem{File: a.listFile, Line: q.At, Code: "equivalent_stale",
				Args: []any{"Mutant", q.key()},
				Msg:  fmt.Sprintf("%s is listed as equivalent, but there is no such mutant", q.key())})
		}
	}
	a.m.Elapsed = time.Since(start)
	a.m.Every = max(every, 1)
	return a.m, a.probs, nil
}

// analysis is one MutateSample under way.
type analysis struct {
	e        *course.Exercise
	lim      checker.Limits
	cases    []checker.Case
	listFile string                 // the exercise's list of equivalent mutants
	listed   map[string]*Equivalent // its entries by key
	used     map[string]bool        // the keys of the entries that name a mutant generated
	m        *Mutation
	probs    []Problem
}

// solution measures the cases on the sample for every of the mutants of the solution in lang (none
// of them run when skip, but each still marks the entry of the list that names it as used).
func (a *analysis) solution(ctx context.Context, lang string, every int, skip bool) error {
	file := path.Join(a.e.SolutionDir(lang), "main.go")
	src, err := fs.ReadFile(a.e.Course().FS(), file)
	if err != nil {
		return nil // Exercises reports a missing solution
	}
	mutants, err := mutate.Generate(file, src)
	if err != nil {
		a.probs = append(a.probs, Problem{File: file, Code: "mutate", Args: []any{"Err", err.Error()}, Msg: err.Error()})
		return nil
	}
	rel := lang + "/main.go"
	all := mutants
	mutants = sample(rel, mutants, every)
	if skip {
		mutants = nil
	}
	run := map[string]bool{}
	for _, mu := range mutants {
		run[mu.Key()] = true
	}
	for _, mu := range all {
		if key := rel + ":" + mu.Key(); a.listed[key] != nil {
			if run[mu.Key()] {
				a.m.Listed++
			} else {
				a.used[key] = true // generated, so not stale; outside the sample, so not run
			}
		}
	}
	if len(mutants) == 0 {
		return nil
	}
	base, err := mutate.Base(file, src)
	if err != nil {
		return err
	}
	lim := mutationLimits(a.e.Limits(a.lim))
	set, err := mutate.Build(ctx, base, mutants, lim)
	if err != nil {
		return err
	}
	outcomes, err := set.Run(ctx, a.cases, checker.Options{Exercise: a.e.Name, Lang: lang, Limits: lim})
	set.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	a.m.Mutants += len(outcomes)
	for _, o := range outcomes {
		a.judge(o, file, rel)
	}
	return nil
}

// judge counts the outcome of a mutant of the solution file (rel within the solutions' folder).
func (a *analysis) judge(o mutate.Outcome, file, rel string) {
	key := rel + ":" + o.Mutant.Key()
	q := a.listed[key]
	switch {
	case o.KilledBy != "" && q != nil && o.Status == checker.Timeout:
		// A listed mutant that ran out of time on a busy machine: no proof it is not
		// equivalent, and no survivor either.
		a.m.Equivalent++
		a.used[key] = true
	case o.KilledBy != "" && q != nil:
		a.m.Killed++
		a.used[key] = true
		a.probs = append(a.probs, Problem{File: a.listFile, Line: q.At, Code: "equivalent_killed",
			Args: []any{"Mutant", key, "Case", o.KilledBy},
			Msg:  fmt.Sprintf("%s is listed as equivalent, but case %s kills it", key, o.KilledBy)})
	case o.KilledBy != "":
		a.m.Killed++
	case q != nil:
		a.m.Equivalent++
		a.used[key] = true
	default:
		s := Survivor{File: file, Line: o.Mutant.Line, What: o.Mutant.What}
		a.m.Survivors = append(a.m.Survivors, s)
		a.probs = append(a.probs, Problem{File: file, Line: s.Line, Code: "mutant_survived",
			Args: []any{"What", s.What},
			Msg:  fmt.Sprintf("%s: the mutant passes every case: add a case that kills it, or list it in %s with the reason it is equivalent", s.What, a.listFile)})
	}
}

// sample keeps the part of the mutants of the solution file rel that MutateSample takes for every:
// within each operator, the mutants whose key hashes to 0 modulo every, and, where that leaves an
// operator out, its mutant of the smallest hash, so that every kind of change is measured.
func sample(rel string, mutants []mutate.Mutant, every int) []mutate.Mutant {
	if every <= 1 {
		return mutants
	}
	hash := func(mu mutate.Mutant) uint32 {
		h := fnv.New32a()
		h.Write([]byte(rel + ":" + mu.Key()))
		return h.Sum32()
	}
	byOp := map[string][]mutate.Mutant{}
	var ops []string
	for _, mu := range mutants {
		if byOp[mu.Op] == nil {
			ops = append(ops, mu.Op)
		}
		byOp[mu.Op] = append(byOp[mu.Op], mu)
	}
	keep := map[string]bool{}
	for _, op := range ops {
		least, taken := -1, false
		for i, mu := range byOp[op] {
			if hash(mu)%uint32(every) == 0 {
				keep[mu.Key()], taken = true, true
			}
			if least < 0 || hash(mu) < hash(byOp[op][least]) {
				least = i
			}
		}
		if !taken {
			keep[byOp[op][least].Key()] = true
		}
	}
	var kept []mutate.Mutant
	for _, mu := range mutants {
		if keep[mu.Key()] {
			kept = append(kept, mu)
		}
	}
	return kept
}

// MutateCached is Mutate, with the result taken from cache (nil for none) when nothing it depends on
// has changed since it was stored there (see Cache), and the fresh result stored otherwise. cached
// reports which it was. A result taken from the cache holds the same survivors, equivalents and
// problems as the run that stored it.
func MutateCached(ctx context.Context, e *course.Exercise, lim checker.Limits, cache *Cache) (m *Mutation, probs []Problem, cached bool, err error) {
	return MutateSampleCached(ctx, e, lim, cache, 1)
}

// MutateSampleCached is MutateSample with the cache of MutateCached; a sample is kept apart from the
// full analysis and from other samples.
func MutateSampleCached(ctx context.Context, e *course.Exercise, lim checker.Limits, cache *Cache, every int, langs ...string) (m *Mutation, probs []Problem, cached bool, err error) {
	key := ""
	if cache.Enabled() {
		if key, err = sampleKey(e, cache, lim, every, langs); err != nil {
			return nil, nil, false, err
		}
	}
	if en := cache.get(key); en != nil && en.Exercise == e.Name {
		return en.Mutation, en.Problems, true, nil
	}
	m, probs, err = MutateSample(ctx, e, lim, every, langs...)
	if err == nil {
		cache.put(key, &entry{Exercise: e.Name, Problems: probs, Mutation: m})
	}
	return m, probs, false, err
}

// sampleKey is the cache key of the mutation analysis on the sample for every (all mutants for 1).
func sampleKey(e *course.Exercise, cache *Cache, lim checker.Limits, every int, langs []string) (string, error) {
	k, err := keyInputOf(e, kindMutants, cache, lim)
	if err != nil {
		return "", err
	}
	if every > 1 {
		k.Kind = fmt.Sprintf("%s 1/%d", kindMutants, every)
	}
	if len(langs) > 0 {
		k.Kind += " " + strings.Join(langs, ",")
	}
	return k.sum(), nil
}

// mutationLimits gives the mutants' build ten minutes, and mutants half as much CPU time again as a
// learner's program has (default 2 s, so 3 s). A run is judged by its own CPU time, so a machine that
// the mutation run keeps busy does not make a mutant time out; a mutant that needs more than that,
// where the solution needs a fraction of a second, is one no learner's program could be and still
// pass. A mutant that loops for ever is killed all the same, at half the cost of the three times the
// limit it had before (most of the mutation analysis of the exercises in virtual time went on such
// mutants: exercise-breaker-clock's sample took 36 s, now 14 s).
func mutationLimits(lim checker.Limits) checker.Limits {
	if lim.BuildTime <= 0 {
		// One executable holds up to 400 mutants of the course's own solution: a build of minutes,
		// not the seconds a learner's program gets.
		lim.BuildTime = 10 * time.Minute
	}
	if lim.RunTime <= 0 {
		lim.RunTime = 2 * time.Second
	}
	lim.RunTime = lim.RunTime * 3 / 2
	return lim
}
