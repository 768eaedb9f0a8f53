package checker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// hangProgram behaves by its first argument: "loop" spins for ever, "child" starts a copy of itself
// that spins and waits for it, "childsleep" one that sleeps for ever (and waits for ever if it
// cannot start it), "slow N" keeps a CPU busy for N ms and prints "ok", "sleep" sleeps for an hour,
// "wait" waits on a channel nobody sends on, "lock" for a mutex held for ever (both with a signal
// handler, so that the Go runtime does not call it a deadlock), "nap N" sleeps N ms and prints "ok",
// "third N" spins when N is a multiple of three and prints N otherwise, and a number prints itself,
// except for 7, on which it spins.
const hangProgram = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync"
	"time"
)

func spin() {
	for {
	}
}

func main() {
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	switch os.Args[1] {
	case "loop":
		spin()
	case "child":
		cmd := exec.Command("/proc/self/exe", "loop")
		if err := cmd.Run(); err != nil {
			spin()
		}
	case "childsleep":
		exec.Command("/proc/self/exe", "sleep").Run()
		<-make(chan int)
	case "wait":
		<-make(chan int)
	case "lock":
		var mu sync.Mutex
		mu.Lock()
		mu.Lock()
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

// hangCases are the hangCount cases of hangProgram: with "N", each case's number is its argument;
// with two arguments, the second is the run's and "ok" is expected; "third" prints the case's number.
func hangCases(args ...string) []Case {
	var cs []Case
	for i := 0; i < hangCount; i++ {
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

// hangCount is how many cases each hangTest has: enough for the budget (two full runs) to be spent
// and for the cases after it to be many more (seven), the number 7 among them, and one in every
// three to hang for "third". (It was 15; nine prove the same bounds at three fifths of the
// cost, most of it the cut-short runs of the child that spins, half a second of CPU time each where
// the watcher sees only the program's own process.)
const hangCount = 9

// hangTest is one way of hanging and what must come of it, in counts of cases, never in time.
type hangTest struct {
	name      string
	cases     []Case
	verdict   Verdict
	maxFull   int    // cases that may wait out the whole limit
	minPassed int    // cases that must pass
	hung      bool   // later cases were cut short for the budget
	message   string // the message of the cases that timed out
	// children: the program starts a child in every case, so where a run is one process
	// (no_child_processes) every case crashes at once with message process instead.
	children bool
}

var hangTests = []hangTest{
	{"endless loop", hangCases("loop"), Timeout, 2, 0, true, ReasonCPULimit, false},
	{"waits for a child that spins", hangCases("child"), Timeout, 2, 0, true, "", true},
	{"hangs in one case only", hangCases("N"), Timeout, 1, hangCount - 1, false, ReasonCPULimit, false},
	// Three of nine hang (0, 3 and 6): the six others keep their points, though the third hang
	// comes after the budget is spent.
	{"hangs in some cases", hangCases("third"), Timeout, 2, 6, true, ReasonCPULimit, false},
	{"sleeps", hangCases("sleep"), Timeout, 2, 0, true, ReasonSlept, false},
	{"waits on a channel", hangCases("wait"), Timeout, 2, 0, true, ReasonWaited, false},
	{"waits for a lock", hangCases("lock"), Timeout, 2, 0, true, ReasonWaited, false},
	// Slept or waited by level: the sandbox init reads the child's threads too (it sleeps), the
	// watcher the program's own (it waits for its child).
	{"waits for a child that sleeps", hangCases("childsleep"), Timeout, 2, 0, true, "", true},
	// Half the CPU limit in every case, 2.7 s in all: more than twice the budget.
	{"slow but within the limit", hangCases("slow", "slow 300"), Pass, 0, hangCount, false, "", false},
	// Sleeps 2 s, past the idle limit (300 ms), in every case: stopped as a sleeper.
	{"naps past the idle limit", hangCases("nap", "nap 2000"), Timeout, 2, 0, true, ReasonSlept, false},
	// Naps shorter than the short limit's idle time cost nothing.
	{"naps briefly", hangCases("nap", "nap 20"), Pass, 0, hangCount, false, ReasonSlept, false},
}

// hangTestsAt are the hangTests a level runs. The best level runs them all. A weaker level runs
// those whose handling depends on the level: how a run that spins or waits for a child is seen and
// stopped (the watcher where there is no sandbox init, the init's own reading where there is, the
// whole process tree where there is no PID namespace); a sleeper, a waiter, a slow program and the
// naps are judged by the program's own threads, the same at every level. At full strength
// (WORKBOOK_TEST_FULL=1, a CI step of its own) a weaker level runs every way of spinning with every
// case; go test ./... runs there the endless loop and the two children, with weakCount cases each
// (the budget's two full runs and three after it).
func hangTestsAt(weaker, full bool) []hangTest {
	var tests []hangTest
	for _, tt := range hangTests {
		if !weaker {
			tests = append(tests, tt)
			continue
		}
		if tt.verdict == Pass || tt.message == ReasonSlept || tt.message == ReasonWaited {
			continue // judged by the program's own threads, the same at every level
		}
		if !full {
			switch tt.name {
			case "endless loop", "waits for a child that spins", "waits for a child that sleeps":
			default:
				continue // the budget's bookkeeping, the same at every level
			}
			tt.cases = tt.cases[:weakCount]
		}
		tests = append(tests, tt)
	}
	return tests
}

// weakCount is how many cases a weaker level gives each way of spinning in go test ./...: enough for
// the budget (two full runs) to be spent and for three cases after it to be cut short.
const weakCount = 5

// hangLimits are hangProgram's limits: 600 ms of CPU time a run (a budget of 1.2 s, two full runs),
// a wall-clock backstop of 3 s, and 2 s of CPU time for each process. (300 ms, 2 s and 1 s were
// tried: on a machine at a load of 30, runs that spin were then judged blocked.)
var hangLimits = Limits{RunTime: 600 * time.Millisecond, WallTime: 3 * time.Second, CPUTime: 2 * time.Second}

// buildHangProgram builds hangProgram with hangLimits.
func buildHangProgram(t *testing.T) *Program {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(hangProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := Build(context.Background(), src, hangLimits)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// idleHang holds the statuses each hangTest gave at the best level on the machine as it is, for
// TestVerdictsUnderLoad to compare its runs beside CPU burners with: TestHangingProgram records
// them, and TestVerdictsUnderLoad runs whatever is missing (when it runs alone).
var idleHang struct {
	sync.Mutex
	statuses map[string][]Verdict
}

func recordIdleHang(name string, statuses []Verdict) {
	idleHang.Lock()
	defer idleHang.Unlock()
	if idleHang.statuses == nil {
		idleHang.statuses = map[string][]Verdict{}
	}
	idleHang.statuses[name] = statuses
}

func idleHangStatuses(name string) ([]Verdict, bool) {
	idleHang.Lock()
	defer idleHang.Unlock()
	s, ok := idleHang.statuses[name]
	return s, ok
}

// runAll runs f(t, i) for i in [0, n) as subtests of t named name(i), at most par at once, and
// returns when every one is done. Unlike t.Parallel it is held to par, not to -test.parallel: much
// of what these subtests wait for is a wall-clock backstop, and every CPU limit is judged by the
// program's own CPU time, not by the machine's.
func runAll(t *testing.T, n, par int, name func(int) string, f func(t *testing.T, i int)) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan struct{}, par)
	for i := 0; i < n; i++ {
		if par == 1 {
			t.Run(name(i), func(t *testing.T) { f(t, i) })
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			t.Run(name(i), func(t *testing.T) { f(t, i) })
		}()
	}
	wg.Wait()
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
	levels := withNoFilterLevel(testLevels(t))
	for _, lv := range levels {
		t.Run(lv.name, func(t *testing.T) {
			defer lv.use()()
			tests := hangTestsAt(lv.name != "best", fullStrength())
			// Four ways of hanging at once at the best level, two at the weaker ones, two runs each,
			// every run judged by its own CPU and idle time. (Fewer runs at once were needed while
			// a run's wait for a CPU could be read as idle time: on a machine at a load of 30, four
			// runs at once had spinning runs judged blocked.)
			par := 2
			if lv.name == "best" {
				par = 4
			}
			runAll(t, len(tests), par, func(i int) string { return tests[i].name }, func(t *testing.T, i int) {
				statuses := checkHang(t, prog, 2, tests[i])
				if lv.name == "best" && !t.Failed() {
					recordIdleHang(tests[i].name, statuses)
				}
			})
		})
	}
}

// checkHang runs the cases and checks the budget's bounds, in counts of cases, never in time. It
// returns the cases' statuses.
func checkHang(t *testing.T, prog *Program, par int, tt hangTest) []Verdict {
	t.Helper()
	var cost budgetStats
	ctx := context.WithValue(context.Background(), budgetStatsKey{}, &cost)
	res := &Result{Cases: prog.RunCases(ctx, tt.cases, Options{Parallel: par})}
	res.Summarize()
	var statuses []Verdict
	if tt.children && SandboxIsolation().Has(ProtectOneProcess) {
		for _, c := range res.Cases {
			statuses = append(statuses, c.Status)
			if c.Status != Crash || c.Message != ReasonProcess {
				t.Errorf("%s: %s %q, want crash %q: the program starts a child", c.Name, c.Status, c.Message, ReasonProcess)
			}
		}
		return statuses
	}
	full, notRun := 0, 0
	for _, c := range res.Cases {
		statuses = append(statuses, c.Status)
		switch c.Status {
		case Timeout:
			full++
			if want := idleReason(tt.message); tt.message != "" && c.Message != want {
				t.Errorf("%s: timeout with message %q, want %q", c.Name, c.Message, want)
			} else if tt.message == "" && tt.name == "waits for a child that sleeps" && c.Message != ReasonSlept && c.Message != idleReason(ReasonWaited) {
				t.Errorf("%s: timeout with message %q, want slept or waited", c.Name, c.Message)
			}
		case NotRun:
			notRun++
			if c.Message != ReasonBudget {
				t.Errorf("%s: not_run with message %q, want %s", c.Name, c.Message, ReasonBudget)
			}
		case Pass:
		default:
			t.Errorf("%s: %s %q, stderr %q", c.Name, c.Status, c.Message, c.Stderr)
		}
	}
	t.Logf("verdict %s, passed %d, timed out %d, not run %d, hung on %q, runs stopped at the full limit %d", res.Verdict, res.Passed, full, notRun, res.Hung, cost.FullStops)
	for _, why := range cost.Cut {
		t.Logf("not run past the budget: %s", why) // which of the short limit's bounds cut it
	}
	if res.Verdict != tt.verdict {
		t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
	}
	if full > tt.maxFull {
		t.Errorf("%d cases waited out the full limit, want at most %d", full, tt.maxFull)
	}
	// What the program cost, whatever the verdicts: no more runs stopped at the full limit than the
	// budget holds (two), nor than one per case run at once; a run that started beside one that
	// hung waits to know whether the budget is spent before it takes a limit.
	if lim := max(int(hangLimits.WithDefaults().Budget/hangLimits.RunTime), par); cost.FullStops > lim {
		t.Errorf("%d runs were stopped at the full limit, want at most %d", cost.FullStops, lim)
	}
	if res.Passed < tt.minPassed {
		t.Errorf("%d cases passed, want at least %d", res.Passed, tt.minPassed)
	}
	if (res.Hung != "") != tt.hung {
		t.Errorf("hung on %q, want a case named: %v", res.Hung, tt.hung)
	}
	if len(res.Cases) != len(tt.cases) {
		t.Errorf("%d case results, want one per case", len(res.Cases))
	}
	return statuses
}

// idleReason is the message a run stopped for idling gets where it was doing what says: the
// same where a program's threads can be read, blocked elsewhere.
func idleReason(doing string) string {
	if !canWatchCPU && (doing == ReasonSlept || doing == ReasonWaited) {
		return ReasonBlocked
	}
	return doing
}

// TestNameWait checks that a run judged blocked is named by what its threads were blocked in, and
// that nothing else is renamed.
func TestNameWait(t *testing.T) {
	for _, tt := range []struct {
		reason, wait, want string
	}{
		{ReasonBlocked, "slept", ReasonSlept},
		{ReasonBlocked, "waited", ReasonWaited},
		{ReasonBlocked, "", ReasonBlocked},
		{ReasonCPULimit, "slept", ReasonCPULimit},
		{ReasonCPULimit, "waited", ReasonCPULimit},
		{"", "waited", ""},
		{ReasonMemoryLimit, "slept", ReasonMemoryLimit},
	} {
		out := RunOutput{Status: Timeout, Reason: tt.reason}
		nameWait(&out, tt.wait)
		if out.Reason != tt.want {
			t.Errorf("%q read as %q: %q, want %q", tt.reason, tt.wait, out.Reason, tt.want)
		}
	}
}

// TestJudgeTime checks how a run's time verdict is read from how it was stopped.
func TestJudgeTime(t *testing.T) {
	rl := runLimit{CPU: 600 * time.Millisecond, Idle: 300 * time.Millisecond, Wall: 3 * time.Second}
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
		{"last backstop, idle past the idle limit", "wall", 10 * time.Millisecond, 12 * time.Second, 400 * time.Millisecond, Timeout, ReasonBlocked},
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

// TestBudgetAgain checks which runs are made once more before they count, and under which limit: a
// run past the budget (under the short limit) that went past the short limit's CPU time, stopped
// there or ended by itself after it, since a busy machine stretches a CPU clock; and a run that began
// under the full limit, ended by itself past the short limit's CPU or idle time, of a case whose
// earlier cases have spent the budget by then, which judge would cut for it. Never a run under the
// full limit before the budget is spent or stopped at that limit, a run that idled or crashed, or
// one that finished in time.
func TestBudgetAgain(t *testing.T) {
	b := newBudget(3, hangLimits)
	short, full := b.short, b.full
	tests := []struct {
		name   string
		spent  time.Duration // what case 0 was charged when case 1's run ended
		rl     runLimit
		out    RunOutput
		want   bool
		wantRL runLimit
	}{
		{"short, stopped at its CPU limit", b.limit, short, RunOutput{Status: Timeout, Reason: ReasonCPULimit, Stopped: true, CPU: short.CPU}, true, short},
		{"short, ended by itself past its CPU time", b.limit, short, RunOutput{Status: Timeout, Reason: ReasonCPULimit, Stopped: true, CPU: short.CPU + time.Millisecond}, true, short},
		{"short, finished in time", b.limit, short, RunOutput{Status: Pass, CPU: 3 * time.Millisecond}, false, short},
		{"short, stopped for sleeping", b.limit, short, RunOutput{Status: Timeout, Reason: ReasonSlept, Stopped: true}, false, short},
		{"short, stopped for waiting", b.limit, short, RunOutput{Status: Timeout, Reason: ReasonWaited, Stopped: true}, false, short},
		{"short, crashed", b.limit, short, RunOutput{Status: Crash, ExitCode: 2}, false, short},
		{"short, printed too much", b.limit, short, RunOutput{Status: OutputLimit, ExitCode: -1}, false, short},
		{"full, stopped at its CPU limit", b.limit, full, RunOutput{Status: Timeout, Reason: ReasonCPULimit, Stopped: true, CPU: full.CPU}, false, full},
		{"full, past the short CPU time, budget spent since", b.limit, full, RunOutput{Status: Pass, CPU: short.CPU + 10*time.Millisecond}, true, short},
		{"full, idled past the short idle time, budget spent since", b.limit, full, RunOutput{Status: Pass, CPU: time.Millisecond, Idle: short.Idle + 10*time.Millisecond}, true, short},
		{"full, past the short CPU time, budget not spent", b.limit - time.Millisecond, full, RunOutput{Status: Pass, CPU: short.CPU + 10*time.Millisecond}, false, full},
		{"full, within the short limit, budget spent since", b.limit, full, RunOutput{Status: Pass, CPU: 3 * time.Millisecond}, false, full},
		{"full, crashed past the short CPU time, budget spent since", b.limit, full, RunOutput{Status: Crash, ExitCode: 2, CPU: short.CPU + 10*time.Millisecond}, true, short},
	}
	for _, tt := range tests {
		b.charge[0] = tt.spent
		rl, got := b.again(1, tt.rl, &tt.out)
		if got != tt.want || got && rl != tt.wantRL {
			t.Errorf("%s: again %v under %+v, want %v under %+v", tt.name, got, rl, tt.want, tt.wantRL)
		}
	}
	// Only what counts is recorded: a past-budget case whose second run finished in time keeps
	// its result.
	b.charge[0] = b.limit
	if rl := b.limitFor(1); rl != short {
		t.Fatalf("past the budget: limit %+v, want the short one", rl)
	}
	b.ran(1, &RunOutput{Status: Pass, CPU: 3 * time.Millisecond}, short)
	res := []CaseResult{{Name: "0", Status: Timeout}, {Name: "1", Status: Pass}, {Name: "2", Status: Pass}}
	b.judge(res)
	if res[1].Status != Pass || len(b.cut) != 0 {
		t.Errorf("the case whose counted run finished in time: %s, cut %q; want pass, none cut", res[1].Status, b.cut)
	}
}
