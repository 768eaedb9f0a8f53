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

// TestVerdictsUnderLoad runs the hanging and slow corpus (hangTests) and a reference solution's
// check on this machine as it is, then again beside four CPU burners, and checks that every case
// gets the same status both times, and the bounds of checkHang: a verdict judged by the program's
// own CPU time does not depend on what else the machine is doing.
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
	run := func(t *testing.T) (map[string][]Verdict, *Result) {
		got := map[string][]Verdict{}
		for _, tt := range hangTests {
			t.Run(tt.name, func(t *testing.T) { got[tt.name] = checkHang(t, prog, 2, tt) })
		}
		res, err := Check(context.Background(), solution, cases, Options{Lang: "bg"})
		if err != nil {
			t.Fatal(err)
		}
		return got, res
	}
	var idle map[string][]Verdict
	var idleRes *Result
	t.Run("as it is", func(t *testing.T) { idle, idleRes = run(t) })
	t.Run("four burners", func(t *testing.T) {
		startBurners(t, 4, 4*time.Minute)
		loaded, res := run(t)
		for name, want := range idle {
			if got := loaded[name]; !slices.Equal(got, want) {
				t.Errorf("%s: statuses under load %v, without %v", name, got, want)
			}
		}
		if res.Verdict != idleRes.Verdict || res.Passed != idleRes.Passed || idleRes.Verdict != Pass {
			t.Errorf("the reference solution: %s (%d passed) under load, %s (%d passed) without", res.Verdict, res.Passed, idleRes.Verdict, idleRes.Passed)
		}
		// The hostile programs that are stopped by a time limit, with the verdicts and messages
		// TestHostile asks of them on a machine as it is.
		for _, h := range loadHostile(t) {
			if !strings.Contains(h.fields["verdict"], string(Timeout)) || len(h.missingNeeds(SandboxIsolation())) > 0 {
				continue
			}
			t.Run("hostile/"+h.name, func(t *testing.T) {
				src := filepath.Join(t.TempDir(), "src")
				h.writeSource(t, src)
				prog, err := Build(context.Background(), src, h.limits(t))
				if err != nil {
					t.Fatal(err)
				}
				defer prog.Close()
				delete(h.fields, "max") // how long it takes under load is not what is checked here
				runHostile(t, h, prog, newHostileEnv(t))
			})
		}
	})
}
