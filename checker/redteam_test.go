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
	t.Parallel() // with the other tests that build without the cache, after the tests that switch sandbox levels
	withoutExeCache(t)
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

// slowSleeperProgram sleeps for most of a run's idle limit in every case and then prints the right
// answer: it never uses a CPU, so no CPU limit stops it, and no run of it reaches the idle limit.
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

// TestSleeperBoundedByBudget checks what a program that sleeps just under the idle limit in every
// case costs: its sleep is charged to the budget like a run stopped at a limit, so the first case's
// nap spends it, and every later case is cut at the short limit (not_run, message budget) instead of
// each costing a nap. It is judged by counts of cases, never by time. (The sleep is the time the run
// spent neither on a CPU nor waiting for one, so a program a busy machine keeps waiting for a CPU is
// never taken for a sleeper: TestVerdictsUnderLoad.)
func TestSleeperBoundedByBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps")
	}
	if !canWatchCPU {
		t.Skip("this system does not tell a run's sleep from its waiting for a CPU")
	}
	t.Parallel() // with the other tests that build without the cache, after the tests that switch sandbox levels
	withoutExeCache(t)
	lim := Limits{RunTime: 100 * time.Millisecond, IdleTime: time.Second, WallTime: 2 * time.Second}
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
	res := &Result{Cases: p.RunCases(ctx, cases, Options{})}
	res.Summarize()
	notRun := 0
	for _, c := range res.Cases {
		if c.Status == NotRun {
			notRun++
			if c.Message != ReasonBudget {
				t.Errorf("%s: not_run with message %q, want %s", c.Name, c.Message, ReasonBudget)
			}
		}
	}
	t.Logf("%s, %d passed, %d not run, hung on %q", res.Verdict, res.Passed, notRun, res.Hung)
	if c := res.Cases[0]; c.Status != Pass || !c.Charged {
		t.Errorf("the first case: %s, charged %v; want pass, charged to the budget", c.Status, c.Charged)
	}
	if res.Passed != 1 || notRun != len(cases)-1 || res.Hung != "s00" {
		t.Errorf("%d passed, %d not run, hung on %q; want 1 passed, %d not run, hung on \"s00\"", res.Passed, notRun, res.Hung, len(cases)-1)
	}
}
