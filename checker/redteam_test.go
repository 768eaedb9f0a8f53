package checker

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestBatchBesideLoadError grades honest programs in one BuildMany beside a program that imports a
// path that looks like the standard library but that the go command cannot load ("database", a
// folder of GOROOT without Go files; "fmt/", "fmt/../os"; "syscall/js", whose files are all for
// another system). The go command then fails before building anything, and its build-fail event
// names the imported path, not the importer: no learner is blamed, and every honest program would
// be built alone, one go command each, for one classmate's import.
func TestBatchBesideLoadError(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a class of programs")
	}
	defer func(old bool) { testNoCache = old }(testNoCache)
	testNoCache = true
	for _, imp := range []string{"database", "fmt/", "fmt/../os", "syscall/js"} {
		t.Run(imp, func(t *testing.T) {
			var srcs []string
			for k := 0; k < 3; k++ {
				srcs = append(srcs, writeProgram(t, honestProgram(100+k)))
			}
			srcs = append(srcs, writeProgram(t, map[string]string{"main.go": fmt.Sprintf("package main\n\nimport _ %q\n\nfunc main() {}\n", imp)}))
			progs, errs := BuildMany(context.Background(), srcs, Limits{BuildTime: 20 * time.Second})
			defer closeAll(progs)
			for k := 0; k < 3; k++ {
				if errs[k] != nil {
					t.Fatalf("honest program %d: %v", k, errs[k])
				}
				if !progs[k].batched {
					t.Errorf("honest program %d was built alone beside an import of %q", k, imp)
				}
			}
			if errs[3] == nil {
				t.Errorf("the import of %q built", imp)
			}
		})
	}
}

// slowSleeperProgram sleeps for most of a run's wall limit in every case and then prints the right
// answer: it never uses a CPU, so no CPU limit stops it, and no run of it reaches the wall limit.
const slowSleeperProgram = `package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	time.Sleep(800 * time.Millisecond)
	fmt.Println("wbmark-honest-7", strings.Join(os.Args[1:], " "))
}
`

// TestSleeperBoundedByWallLimit checks what a program that sleeps just under the wall limit in every
// case costs: a run that ends by itself is never charged to the budget, so the sleeper costs up to
// WallTime per case, and no more. (Bounding it by the budget needs the time a run spent neither on
// a CPU nor waiting for one, which the sandbox init does not report yet; wall time minus CPU time
// made CPU-starved programs under load look like sleepers.)
func TestSleeperBoundedByWallLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps")
	}
	defer func(old bool) { testNoCache = old }(testNoCache)
	testNoCache = true
	lim := Limits{RunTime: 100 * time.Millisecond, WallTime: time.Second}
	ctx := context.Background()
	p, err := Build(ctx, writeProgram(t, map[string]string{"main.go": slowSleeperProgram}), lim)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var cases []Case
	for i := 0; i < 16; i++ {
		cases = append(cases, Case{Name: fmt.Sprintf("s%02d", i), Script: fmt.Appendf(nil, "run %d\nexpect want\n-- want --\nwbmark-honest-7 %d\n", i, i)})
	}
	start := time.Now()
	res := &Result{Cases: p.RunCases(ctx, cases, Options{})}
	took := time.Since(start)
	res.Summarize()
	t.Logf("%s, %d passed, in %s", res.Verdict, res.Passed, took.Round(time.Millisecond))
	// A run that ends by itself costs the budget nothing, so the sleeper is bounded by the wall limit
	// per case, not by the budget: at most one wall limit a case on one core (charging its sleep to
	// the budget was tried, and made CPU-starved programs under load look like sleepers).
	if max := time.Duration(len(cases)) * lim.WallTime; took > max {
		t.Errorf("a program that sleeps under the wall limit in each of %d cases took %s, more than %s", len(cases), took.Round(time.Millisecond), max)
	}
}
