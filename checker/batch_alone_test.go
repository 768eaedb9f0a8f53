package checker

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// traceAddr finds the addresses a stack trace shows as arguments.
var traceAddr = regexp.MustCompile(`0x[0-9a-f]{6,}`)

// courseProgram is a program of the course that grade could meet: a starter, a reference solution
// or one of the kept wrong programs, with its exercise's cases and its language.
type courseProgram struct {
	name, dir, lang string
	cases           []Case
}

// coursePrograms lists every starter, solution and kept wrong program of the course, the wrong
// ones unpacked into folders of their own.
func coursePrograms(t *testing.T) []courseProgram {
	return coursePrograms1(t, false)
}

// coursePrograms1 is coursePrograms; with sample, only a fixed part of it: of each exercise (the
// n-th in name order) the reference solution in one language (alternating with n) and one program
// that fails, in turn the starter in the other language (n even) and one of the kept wrong programs
// (n odd: the (n/2)-th, counting round).
func coursePrograms1(t *testing.T, sample bool) []courseProgram {
	t.Helper()
	exercises, err := filepath.Glob("../exercises/exercise-*")
	if err != nil || len(exercises) == 0 {
		t.Fatalf("no exercises: %v", err)
	}
	var all []courseProgram
	n := -1
	for _, ex := range exercises {
		name := filepath.Base(ex)
		if isVirtualExercise(ex) {
			continue // built with its synctest harness, never in a shared executable (vtime.go)
		}
		n++
		cases, err := LoadCases(os.DirFS(".."), "exercises/"+name+"/cases")
		if err != nil {
			t.Fatal(err)
		}
		for k, lang := range []string{"bg", "ru"} {
			if !sample || k == n%2 {
				all = append(all, courseProgram{name + "/solution/" + lang, filepath.Join("..", "solutions", name, lang), lang, cases})
			}
			if !sample || (k != n%2 && n%2 == 0) {
				all = append(all, courseProgram{name + "/starter/" + lang, filepath.Join(ex, lang), lang, cases})
			}
		}
		wrong, _ := filepath.Glob(filepath.Join(ex, "testdata", "wrong", "*.txtar"))
		for k, w := range wrong {
			if sample && (n%2 == 0 || k != (n/2)%len(wrong)) {
				continue
			}
			ar, err := txtar.ParseFile(w)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, f := range ar.Files {
				if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			lang := "bg"
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if l, ok := strings.CutPrefix(line, "# lang: "); ok {
					lang = strings.TrimSpace(l)
				}
			}
			all = append(all, courseProgram{name + "/wrong/" + strings.TrimSuffix(filepath.Base(w), ".txtar"), dir, lang, cases})
		}
	}
	return all
}

// fullStrength reports whether WORKBOOK_TEST_FULL=1 asks for the checker's tests at full strength:
// TestBatchMatchesAlone over every program of the course rather than its fixed sample. CI runs it
// so as a step of its own (.ci/run); go test ./... runs the sample.
func fullStrength() bool { return os.Getenv("WORKBOOK_TEST_FULL") == "1" }

// TestBatchMatchesAlone builds programs of the course grade could meet both ways, side by side in
// one go command (BuildMany) and each alone (Build), checks that each batch-built executable holds
// no other program's package, runs all its exercise's cases against both (see compareRuns), and
// checks that they come out the same: the verdict, and every field of each case but its time.
//
// go test ./... takes a fixed sample of the programs (see coursePrograms1): every exercise that is
// not in virtual time, with every one of its cases, against a program that passes and one that
// fails, in both languages; 24 programs of 111. WORKBOOK_TEST_FULL=1 takes every program, as CI does
// in a step of its own.
func TestBatchMatchesAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs of the course twice")
	}
	t.Parallel() // with the other tests that build without the cache, after the tests that switch sandbox levels
	withoutExeCache(t)
	progs := coursePrograms1(t, !fullStrength())
	dirs := make([]string, len(progs))
	for i, p := range progs {
		dirs[i] = p.dir
	}
	ctx := context.Background()
	lim := Limits{RunTime: 5 * time.Second}
	start := time.Now()
	batch, errs := BuildMany(ctx, dirs, lim)
	defer closeAll(batch)
	built := time.Now()
	alone := make([]*Program, len(progs))
	aloneErrs := make([]error, len(progs))
	// Two builds at a time: a small program's go command is mostly one thread.
	var bwg sync.WaitGroup
	bsem := make(chan struct{}, 2)
	for i, d := range dirs {
		bwg.Add(1)
		bsem <- struct{}{}
		go func() {
			defer func() { <-bsem; bwg.Done() }()
			alone[i], aloneErrs[i] = Build(ctx, d, lim)
		}()
	}
	bwg.Wait()
	defer closeAll(alone)
	t.Logf("built in one go command in %v, each alone in %v", built.Sub(start), time.Since(built))
	for i, cp := range progs {
		if (errs[i] == nil) != (aloneErrs[i] == nil) || (errs[i] != nil && errs[i].Error() != aloneErrs[i].Error()) {
			t.Errorf("%s: built in a batch %v, alone %v", cp.name, errs[i], aloneErrs[i])
		}
	}
	// Two programs at a time, one case at a time each.
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, cp := range progs {
		if errs[i] != nil || aloneErrs[i] != nil {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			compareRuns(t, ctx, cp, alone[i], batch[i])
		}()
	}
	wg.Wait()
	t.Logf("%d programs; their cases run both ways in %v", len(progs), time.Since(start))
}

// compareRuns runs cp's cases against the program built alone, through testscript, and against
// the one built in a batch, straight from memory (see parseDirect), and reports every difference:
// so the one run of the course's cases both ways checks both what a batch build changes and what
// running without testscript does.
func compareRuns(t *testing.T, ctx context.Context, cp courseProgram, alone, batch *Program) {
	opt := Options{Lang: cp.lang, Parallel: 1}
	a := &Result{Cases: alone.runCases(ctx, cp.cases, opt, false)}
	b := &Result{Cases: batch.runCases(ctx, cp.cases, opt, true)}
	a.Summarize()
	b.Summarize()
	if a.Verdict != b.Verdict || a.Passed != b.Passed {
		t.Errorf("%s: verdict alone %s (%d passed), in a batch %s (%d passed)", cp.name, a.Verdict, a.Passed, b.Verdict, b.Passed)
	}
	for k := range a.Cases {
		ca, cb := a.Cases[k], b.Cases[k]
		if budgetTiming(ca, cb) || budgetTiming(cb, ca) {
			continue
		}
		compareCases(t, cp.name+", case "+ca.Name+" (batch and direct, against alone through testscript)", cb, ca, alone, batch)
	}
}

func closeAll(progs []*Program) {
	for _, p := range progs {
		p.Close()
	}
}

// budgetTiming reports whether a case was cut by its program's spent budget (NotRun) and failed
// the other way (never passed): a wrong program whose earlier cases spent its budget on the CPU
// reaches its last case one way and not the other as the machine's load stretches their CPU time
// (exercise-storm's naive loop: memory_limit alone, not_run in a batch, once under CI's load).
// That is the budget's timing, not the build's or testscript's; the verdict and the count of
// passed cases, compared above, still hold both ways.
func budgetTiming(cut, other CaseResult) bool {
	return cut.Status == NotRun && cut.Message == ReasonBudget && other.Status != Pass
}
