package checker

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// startBurners starts n processes that keep a CPU busy each (yes > /dev/null), for at most limit;
// they are killed when the test ends.
func startBurners(t *testing.T, n int, limit time.Duration) {
	t.Helper()
	yes, err := exec.LookPath("yes")
	if err != nil {
		t.Skip("no yes command to burn CPU with")
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	var cmds []*exec.Cmd
	for i := 0; i < n; i++ {
		cmd := exec.CommandContext(ctx, yes, "wbburner")
		if err := cmd.Start(); err != nil { // stdout is os.DevNull
			cancel()
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	t.Cleanup(func() {
		cancel()
		for _, c := range cmds {
			c.Wait()
		}
	})
}

// hangTestsUnderLoad are the hangTests TestVerdictsUnderLoad runs beside the burners. At full
// strength (WORKBOOK_TEST_FULL=1, a CI step of its own) every one. go test ./... runs one of each
// kind of verdict a busy machine could change: a spinner stopped at its CPU limit (not judged
// blocked for the CPU it waited for), a sleeper judged blocked (not busy), a slow program that must
// not be cut short, and naps shorter than the short limit that cost nothing; the others (a child
// that spins, the budget's bookkeeping of programs that hang in some cases, naps that spend it) are
// judged from the same readings.
func hangTestsUnderLoad(full bool) []hangTest {
	if full {
		return hangTests
	}
	var out []hangTest
	for _, tt := range hangTests {
		switch tt.name {
		case "endless loop", "sleeps", "slow but within the limit", "naps briefly":
			out = append(out, tt)
		}
	}
	return out
}

// TestVerdictsUnderLoad runs the hanging and slow corpus (hangTests), a reference solution's check
// and the hostile programs a time limit stops beside four CPU burners, three at a time, and checks that
// every case gets the status it gets on the machine as it is (TestHangingProgram's runs at the best
// level, or runs of its own when it runs alone), the bounds of checkHang, and the verdicts and
// messages TestHostile asks of the hostile programs: a verdict judged by the program's own CPU time
// does not depend on what else the machine is doing.
func TestVerdictsUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("burns CPU")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the CPU time of a running program is watched on Linux only; elsewhere the wall clock stands in for it")
	}
	prog := buildHangProgram(t)
	defer prog.Close()
	cases, err := LoadCases(os.DirFS(".."), "exercises/exercise-deadline/cases")
	if err != nil {
		t.Fatal(err)
	}
	solution := filepath.Join("..", "solutions", "exercise-deadline", "bg")
	check := func(t *testing.T) *Result {
		res, err := Check(context.Background(), solution, cases, Options{Lang: "bg"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// The hostile programs that are stopped by a time limit, built before the burners start.
	type built struct {
		h    hostile
		prog *Program
	}
	var hostiles []built
	for _, h := range loadHostile(t) {
		if !strings.Contains(h.fields["verdict"], string(Timeout)) || len(h.missingNeeds(SandboxIsolation())) > 0 {
			continue
		}
		src := filepath.Join(t.TempDir(), "src")
		h.writeSource(t, src)
		p, err := Build(context.Background(), src, h.limits(t))
		if err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		defer p.Close()
		delete(h.fields, "max") // how long it takes under load is not what is checked here
		hostiles = append(hostiles, built{h, p})
	}
	loaded := hangTestsUnderLoad(fullStrength())
	var idleRes *Result
	t.Run("as it is", func(t *testing.T) {
		var missing []hangTest
		for _, tt := range loaded {
			if _, ok := idleHangStatuses(tt.name); !ok {
				missing = append(missing, tt)
			}
		}
		runAll(t, len(missing), 2, func(i int) string { return missing[i].name }, func(t *testing.T, i int) {
			recordIdleHang(missing[i].name, checkHang(t, prog, 2, missing[i]))
		})
		idleRes = check(t)
	})
	if t.Failed() {
		return
	}
	t.Run("four burners", func(t *testing.T) {
		startBurners(t, 4, 4*time.Minute)
		n := len(loaded) + 1 + len(hostiles)
		name := func(i int) string {
			switch {
			case i < len(loaded):
				return loaded[i].name
			case i == len(loaded):
				return "solution"
			}
			return "hostile/" + hostiles[i-len(loaded)-1].h.name
		}
		// Four at a time, up to eight runs beside the four burners.
		runAll(t, n, 4, name, func(t *testing.T, i int) {
			switch {
			case i < len(loaded):
				tt := loaded[i]
				want, _ := idleHangStatuses(tt.name)
				if got := checkHang(t, prog, 2, tt); !slices.Equal(got, want) {
					t.Errorf("statuses under load %v, without %v", got, want)
				}
			case i == len(loaded):
				res := check(t)
				if res.Verdict != idleRes.Verdict || res.Passed != idleRes.Passed || idleRes.Verdict != Pass {
					t.Errorf("the reference solution: %s (%d passed) under load, %s (%d passed) without", res.Verdict, res.Passed, idleRes.Verdict, idleRes.Passed)
				}
			default:
				b := hostiles[i-len(loaded)-1]
				runHostile(t, b.h, b.prog, newHostileEnv(t))
			}
		})
	})
}
