package mutate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/workbook-course/workbook/checker"
)

// perBuild is how many mutants one executable holds at most: the checker copies at most 500 files
// of a program's folder.
const perBuild = 400

// Set is the executables that hold a list of mutants, built and ready to run.
type Set struct {
	mutants []Mutant
	progs   []*checker.Program // progs[i/perBuild] holds mutants[i], as package i%perBuild+1
}

// Close removes the executables.
func (s *Set) Close() {
	for _, p := range s.progs {
		p.Close()
	}
}

// Build builds the mutants into executables of up to perBuild mutants each, with one go command for
// each, through checker.Build. base is the unchanged program as Base returns it: package 0 of every
// executable, which must pass every case as the solution does (Run checks it).
func Build(ctx context.Context, base []byte, mutants []Mutant, lim checker.Limits) (*Set, error) {
	s := &Set{mutants: mutants}
	// Mutants of the course's reference solutions: the course's own code, never failed by a build
	// limit meant for a learner's compile-time bomb.
	trusted := lim
	trusted.Trusted = true
	for start := 0; start < len(mutants) || start == 0; start += perBuild {
		end := min(start+perBuild, len(mutants))
		dir, err := checker.TempDir("mutants")
		if err != nil {
			s.Close()
			return nil, err
		}
		err = writeDispatcher(dir, base, mutants[start:end])
		var prog *checker.Program
		if err == nil {
			prog, err = checker.Build(ctx, dir, trusted)
		}
		os.RemoveAll(dir)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("building the mutants: %w", err)
		}
		s.progs = append(s.progs, prog)
		if end == len(mutants) {
			break
		}
	}
	return s, nil
}

// writeDispatcher lays out in dir a module "mutants" whose package m0000 is base, m0001… the
// mutants, and whose main calls the Main of the package its first argument ("@N") names.
func writeDispatcher(dir string, base []byte, mutants []Mutant) error {
	var imports, table strings.Builder
	write := func(i int, src []byte) error {
		pkg := fmt.Sprintf("m%04d", i)
		if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
			return err
		}
		fmt.Fprintf(&imports, "\t%s \"mutants/%s\"\n", pkg, pkg)
		fmt.Fprintf(&table, "\t%s.Main,\n", pkg)
		return os.WriteFile(filepath.Join(dir, pkg, "main.go"), src, 0o644)
	}
	if err := write(0, base); err != nil {
		return err
	}
	for i, m := range mutants {
		if err := write(i+1, m.Src); err != nil {
			return err
		}
	}
	main := `// Command mutants runs one of its mutants: the first argument, "@N", says which.
package main

import (
	"os"
	"strconv"
	"strings"

` + imports.String() + `)

var mains = []func(){
` + table.String() + `}

func main() {
	if len(os.Args) < 2 || !strings.HasPrefix(os.Args[1], "@") {
		os.Stderr.WriteString("mutants: the first argument must be @N\n")
		os.Exit(3)
	}
	n, err := strconv.Atoi(os.Args[1][1:])
	if err != nil || n < 0 || n >= len(mains) {
		os.Stderr.WriteString("mutants: no mutant " + os.Args[1] + "\n")
		os.Exit(3)
	}
	os.Args = append(os.Args[:1:1], os.Args[2:]...)
	mains[n]()
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		return err
	}
	mod := "module mutants\n\ngo " + checker.GoVersion() + "\n"
	return os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644)
}

// Outcome is what the cases did to one mutant.
type Outcome struct {
	Mutant   Mutant
	KilledBy string          // the name of the first case it failed, "" for a survivor
	Status   checker.Verdict // how it failed that case
}

// runLine finds the run commands of a case script, to put the mutant's selector first.
var runLine = regexp.MustCompile(`(?m)^(\s*(?:!\s+)?run)([ \t]|$)`)

// select makes a case run package n of the executable: "run ARGS" becomes "run @n ARGS".
func selectMutant(c checker.Case, n int) checker.Case {
	c.Script = runLine.ReplaceAll(c.Script, []byte(fmt.Sprintf("${1} @%d${2}", n)))
	return c
}

// ErrBaseFails is returned (wrapped) by Run when the unchanged program, built as the mutants are,
// fails a case: the measure would mean nothing.
var ErrBaseFails = fmt.Errorf("the unchanged program fails a case when built with its mutants")

// Run runs the cases against every mutant, several mutants at once (opt.Parallel, default
// GOMAXPROCS) and the cases of one mutant one after the other in their order (visible cases come
// first), stopping at the first case a mutant fails. It first runs every case against the unchanged
// program. The outcomes are in the order of the mutants.
func (s *Set) Run(ctx context.Context, cases []checker.Case, opt checker.Options) ([]Outcome, error) {
	one := opt
	one.Parallel = 1
	for b, prog := range s.progs {
		for _, c := range cases {
			r := prog.RunCases(ctx, []checker.Case{selectMutant(c, 0)}, one)[0]
			if r.Status == checker.Timeout {
				// A busy machine, more likely than a slow solution: once more, alone.
				r = prog.RunCases(ctx, []checker.Case{selectMutant(c, 0)}, one)[0]
			}
			if r.Status != checker.Pass {
				return nil, fmt.Errorf("%w (executable %d, case %s: %s %s)", ErrBaseFails, b, c.Name, r.Status, r.Message)
			}
		}
	}
	out := make([]Outcome, len(s.mutants))
	par := opt.Parallel
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	// A run mostly waits for its process, so twice as many mutants as cores keep them busy.
	par *= 2
	kills := make([]atomic.Int64, len(cases))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = s.runOne(ctx, i, cases, kills, one)
			}
		}()
	}
	for i := range s.mutants {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// runOne runs the cases against mutant i until one kills it: first the cases that have killed the
// most mutants so far (kills counts them), in their order when they are even.
func (s *Set) runOne(ctx context.Context, i int, cases []checker.Case, kills []atomic.Int64, opt checker.Options) Outcome {
	o := Outcome{Mutant: s.mutants[i]}
	prog := s.progs[i/perBuild]
	order := make([]int, len(cases))
	count := make([]int64, len(cases))
	for k := range order {
		order[k], count[k] = k, kills[k].Load()
	}
	sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
	for _, k := range order {
		c := cases[k]
		r := prog.RunCases(ctx, []checker.Case{selectMutant(c, i%perBuild+1)}, opt)[0]
		if r.Status != checker.Pass {
			kills[k].Add(1)
			o.KilledBy, o.Status = c.Name, r.Status
			return o
		}
	}
	return o
}
