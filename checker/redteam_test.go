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

// TestSleeperUnderWallLimitCostsBounded checks what a program that sleeps just under the wall limit
// in every case costs: an endless loop in every case costs about two limits and a fraction of a
// second per case, but a sleeper that stays under WallTime is never charged to the budget and so
// costs WallTime per case (20 cases of 19 s each at the defaults: minutes for one student, while it
// passes every case). Its cost should be bounded like a spinner's.
func TestSleeperUnderWallLimitCostsBounded(t *testing.T) {
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
	// Unbounded, the sleeper would cost 16 × 0.8 s, 6.4 s on two cores. Its first runs are charged
	// their sleep (budget), so the cases after them get the short limit: at most one wall limit for
	// the first runs, then half a short wall limit a case on two cores, and a second of slack.
	short := shortRun(lim)
	if max := lim.WallTime + time.Duration(len(cases))*short.Wall/2 + time.Second; took > max {
		t.Errorf("a program that sleeps under the wall limit in each of %d cases took %s, more than %s", len(cases), took.Round(time.Millisecond), max)
	}
}
