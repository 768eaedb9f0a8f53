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
// that spins and waits for it, "slow N" keeps a CPU busy for N ms and prints "ok", "sleep" sleeps
// for an hour, "nap N" sleeps N ms and prints "ok", "third N" spins when N is a multiple of three and prints N otherwise, and a number
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
	case "sleep":
		time.Sleep(time.Hour)
	case "nap":
		ms, _ := strconv.Atoi(os.Args[2])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		fmt.Println("ok")
	case "third":
		if n, _ := strconv.Atoi(os.Args[2]); n%3 == 0 {
			spin()
		}
		fmt.Println(os.Args[2])
	default:
		fmt.Println(os.Args[1])
	}
}
`

// hangCases are 15 cases of hangProgram: with "N", each case's number is its argument; with two
// arguments, the second is the run's and "ok" is expected; "third" prints the case's number.
func hangCases(args ...string) []Case {
	var cs []Case
	for i := 0; i < 15; i++ {
		a := args[0]
		want := a
		switch a {
		case "N":
			a, want = fmt.Sprint(i), fmt.Sprint(i)
		case "third":
			a, want = fmt.Sprint("third ", i), fmt.Sprint(i)
		}
		script := fmt.Sprintf("run %s\nexpect want\n-- want --\n%s\n", a, want)
		if len(args) > 1 {
			script = fmt.Sprintf("run %s\nexpect want\n-- want --\nok\n", args[1])
		}
		cs = append(cs, Case{Name: fmt.Sprintf("%02d", i), Visible: i < 3, Script: []byte(script)})
	}
	return cs
}

// hangTest is one way of hanging and what must come of it, in counts of cases, never in time.
type hangTest struct {
	name      string
	cases     []Case
	verdict   Verdict
	maxFull   int    // cases that may wait out the whole limit
	minPassed int    // cases that must pass
	hung      bool   // later cases were cut short for the budget
	message   string // the message of the cases that timed out
}

var hangTests = []hangTest{
	{"endless loop", hangCases("loop"), Timeout, 2, 0, true, ReasonCPULimit},
	{"waits for a child that spins", hangCases("child"), Timeout, 2, 0, true, ""},
	{"hangs in one case only", hangCases("N"), Timeout, 1, 14, false, ReasonCPULimit},
	// Five of fifteen hang: the ten others keep their points.
	{"hangs in some cases", hangCases("third"), Timeout, 2, 10, true, ReasonCPULimit},
	{"sleeps", hangCases("sleep"), Timeout, 2, 0, true, ReasonBlocked},
	{"slow but within the limit", hangCases("slow", "slow 300"), Pass, 0, 15, false, ""},
	// Sleeps 2 s, under the 3 s wall limit, in every case: the first case's nap spends the budget,
	// and the others are cut at the short limit instead of each costing its nap.
	{"naps under the wall limit", hangCases("nap", "nap 2000"), Timeout, 0, 1, true, ReasonBlocked},
	// Naps shorter than the short limit's wall clock cost nothing.
	{"naps briefly", hangCases("nap", "nap 150"), Pass, 0, 15, false, ReasonBlocked},
}

// buildHangProgram builds hangProgram with a CPU limit of 600 ms a run.
func buildHangProgram(t *testing.T) *Program {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(hangProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := Build(context.Background(), src, Limits{RunTime: 600 * time.Millisecond, WallTime: 3 * time.Second, CPUTime: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestHangingProgram checks, in CPU-independent terms, that a program that hangs costs its budget
// and a fraction of a second per case, not one limit per case: at most Budget/RunTime cases wait
// out the full limit, the others get a short limit and are not_run (message budget) or, where the
// program is fine, get their real result; that a program that hangs in some cases keeps the
// points of the others; that a sleeper is named as such; and that a program that is only slow is
// never cut short.
func TestHangingProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a program that hangs")
	}
	prog := buildHangProgram(t)
	defer prog.Close()
	const par = 2
	for _, lv := range testLevels(t) {
		t.Run(lv.name, func(t *testing.T) {
			defer lv.use()()
			for _, tt := range hangTests {
				if (tt.verdict == Pass || tt.message == ReasonBlocked) && lv.name != "best" {
					continue // judged by time alone, the same at every level
				}
				t.Run(tt.name, func(t *testing.T) { checkHang(t, prog, par, tt) })
			}
		})
	}
}

// checkHang runs the cases and checks the budget's bounds, in counts of cases, never in time. It
// returns the cases' statuses.
func checkHang(t *testing.T, prog *Program, par int, tt hangTest) []Verdict {
	t.Helper()
	res := &Result{Cases: prog.RunCases(context.Background(), tt.cases, Options{Parallel: par})}
	res.Summarize()
	full, notRun := 0, 0
	var statuses []Verdict
	for _, c := range res.Cases {
		statuses = append(statuses, c.Status)
		switch c.Status {
		case Timeout:
			full++
			if tt.message != "" && c.Message != tt.message {
				t.Errorf("%s: timeout with message %q, want %q", c.Name, c.Message, tt.message)
			}
		case NotRun:
			notRun++
			if c.Message != ReasonBudget {
				t.Errorf("%s: not_run with message %q, want %s", c.Name, c.Message, ReasonBudget)
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
	return statuses
}

// TestJudgeTime checks how a run's time verdict is read from how it was stopped.
func TestJudgeTime(t *testing.T) {
	rl := runLimit{CPU: 600 * time.Millisecond, Wall: 3 * time.Second}
	tests := []struct {
		name      string
		stopped   string
		cpu, dur  time.Duration
		idle      time.Duration
		wantState Verdict
		want      string
	}{
		{"ended by itself within its limit", "", 100 * time.Millisecond, time.Second, 0, Pass, ""},
		{"ended by itself past its CPU limit", "", 700 * time.Millisecond, time.Second, 0, Timeout, ReasonCPULimit},
		{"stopped at the CPU limit", "cpu", 600 * time.Millisecond, time.Second, 0, Timeout, ReasonCPULimit},
		{"stopped as blocked", "blocked", 0, 3 * time.Second, 3 * time.Second, Timeout, ReasonBlocked},
		{"wall clock at Wall, almost no CPU", "wall", 10 * time.Millisecond, 3 * time.Second, 0, Timeout, ReasonBlocked},
		{"wall clock at Wall, busy", "wall", 500 * time.Millisecond, 3 * time.Second, 0, Timeout, ReasonCPULimit},
		// At the last backstop, never seen idle: a spinner a busy machine starved.
		{"last backstop, starved", "wall", 300 * time.Millisecond, 12 * time.Second, 100 * time.Millisecond, Timeout, ReasonCPULimit},
		{"last backstop, idle", "wall", 10 * time.Millisecond, 12 * time.Second, 11 * time.Second, Timeout, ReasonBlocked},
	}
	for _, tt := range tests {
		out := RunOutput{Status: Pass, CPU: tt.cpu, Duration: tt.dur, Idle: tt.idle}
		judgeTime(&out, rl, tt.stopped)
		if out.Status != tt.wantState || out.Reason != tt.want {
			t.Errorf("%s: %s %q, want %s %q", tt.name, out.Status, out.Reason, tt.wantState, tt.want)
		}
	}
}
