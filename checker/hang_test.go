package checker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// hangProgram behaves by its first argument: "loop" spins for ever, "child" starts a copy of itself
// that spins and waits for it, "slow N" keeps a CPU busy for N ms and prints "ok", and a number
// prints itself, except for 7, on which it spins.
const hangProgram = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"
)

func spin() {
	for {
	}
}

func main() {
	switch os.Args[1] {
	case "loop":
		spin()
	case "child":
		cmd := exec.Command("/proc/self/exe", "loop")
		if err := cmd.Run(); err != nil {
			spin()
		}
	case "slow":
		ms, _ := strconv.Atoi(os.Args[2])
		for start := time.Now(); time.Since(start) < time.Duration(ms)*time.Millisecond; {
		}
		fmt.Println("ok")
	case "7":
		spin()
	default:
		fmt.Println(os.Args[1])
	}
}
`

// TestHangingProgram checks, in CPU-independent terms, that a program that hangs costs one time
// limit per CPU, not one per case: at most Parallel cases wait out the full limit, the others are
// not_run (or, where the program is fine, get their real result), and the check says which case it
// first hung on; and that a program that is only slow is never cut short.
func TestHangingProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a program that hangs")
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(hangProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	limit := 600 * time.Millisecond
	prog, err := Build(context.Background(), src, Limits{RunTime: limit, CPUTime: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	cases := func(args ...string) []Case {
		var cs []Case
		for i := 0; i < 15; i++ {
			a := args[0]
			if a == "N" {
				a = fmt.Sprint(i)
			}
			script := fmt.Sprintf("run %s\nexpect want\n-- want --\n%s\n", a, a)
			if len(args) > 1 {
				script = fmt.Sprintf("run %s\nexpect want\n-- want --\nok\n", args[1])
			}
			cs = append(cs, Case{Name: fmt.Sprintf("%02d", i), Visible: i < 3, Script: []byte(script)})
		}
		return cs
	}
	const par = 2
	tests := []struct {
		name      string
		cases     []Case
		verdict   Verdict
		maxFull   int // cases that may wait out the whole limit
		minPassed int
		hung      bool
	}{
		{"endless loop", cases("loop"), Timeout, par, 0, true},
		{"waits for a child that spins", cases("child"), Timeout, par, 0, true},
		{"hangs in one case only", cases("N"), Timeout, 1, 14 - par, false},
		{"slow but within the limit", cases("slow", "slow 300"), Pass, 0, 15, false},
	}
	for _, lv := range testLevels(t) {
		t.Run(lv.name, func(t *testing.T) {
			defer lv.use()()
			for _, tt := range tests {
				if tt.verdict == Pass && lv.name != "best" {
					continue // a slow program is judged by its time alone, the same at every level
				}
				t.Run(tt.name, func(t *testing.T) { checkHang(t, prog, tt.cases, par, tt.verdict, tt.maxFull, tt.minPassed, tt.hung) })
			}
		})
	}
}

// checkHang runs cases and checks the hang budget's bounds, in counts of cases, never in time.
func checkHang(t *testing.T, prog *Program, cases []Case, par int, verdict Verdict, maxFull, minPassed int, hung bool) {
	tt := struct {
		cases     []Case
		verdict   Verdict
		maxFull   int
		minPassed int
		hung      bool
	}{cases, verdict, maxFull, minPassed, hung}
	{
		{
			res := &Result{Cases: prog.RunCases(context.Background(), tt.cases, Options{Parallel: par})}
			res.Summarize()
			full, notRun := 0, 0
			for _, c := range res.Cases {
				switch c.Status {
				case Timeout:
					full++
				case NotRun:
					notRun++
					if c.Message != "hang" {
						t.Errorf("%s: not_run with message %q, want hang", c.Name, c.Message)
					}
				}
			}
			t.Logf("verdict %s, passed %d, timed out %d, not run %d, hung on %q", res.Verdict, res.Passed, full, notRun, res.Hung)
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
			}
			if full > tt.maxFull {
				t.Errorf("%d cases waited out the full limit, want at most %d", full, tt.maxFull)
			}
			if res.Passed < tt.minPassed {
				t.Errorf("%d cases passed, want at least %d", res.Passed, tt.minPassed)
			}
			if (res.Hung != "") != tt.hung {
				t.Errorf("hung on %q, want a case named: %v", res.Hung, tt.hung)
			}
			if len(res.Cases) != 15 {
				t.Errorf("%d case results, want one per case", len(res.Cases))
			}
		}
	}
}
