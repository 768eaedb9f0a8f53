package checker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVirtualVerdictsUnderLoad runs virtual-time programs (every mode of vtimeProgram: a pass, an
// exit code, a panic, a leak, a deadlock, HTTP calls through the flaky service) and the check of
// exercise-retry-ctx's reference solution on this machine as it is, then again beside four CPU
// burners, and checks that every run and every case gets the same verdict, output, reason and
// goroutine named both times: in a bubble the outcome depends on the order of events in virtual time
// alone. Nothing here is timed; the limits are the generous ones of a check.
func TestVirtualVerdictsUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("burns CPU")
	}
	prog := buildVirtual(t, vtimeProgram)
	modes := [][]string{{"a"}, {"-mode", "exit"}, {"-mode", "panic"}, {"-mode", "leak"}, {"-mode", "deadlock"},
		{"-mode", "http"}, {"-mode", "http", "-script", "timeout,429@5ms/1s,ok@999ms"}, {"-mode", "nobodyclose"}}
	cases, err := LoadCases(os.DirFS(".."), "exercises/exercise-retry-ctx/cases")
	if err != nil {
		t.Fatal(err)
	}
	solution := filepath.Join("..", "solutions", "exercise-retry-ctx", "ru")
	// outcome is what must not change with the load: one line per run and per case.
	outcome := func(t *testing.T) []string {
		var got []string
		for _, args := range modes {
			out := prog.Run(context.Background(), "", args, "")
			line := strings.Join(args, " ") + ": " + string(out.Status) + " " + out.Reason + " " + out.Stdout
			if b := out.Blocked; b != nil {
				line += " blocked " + b.Kind + " " + b.Wait + " " + b.Func + " " + b.File
			}
			got = append(got, line)
		}
		res, err := Check(context.Background(), solution, cases, Options{Lang: "ru", Limits: Limits{Virtual: true, RunTime: 20 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Pass || len(res.Cases) != len(cases) {
			t.Errorf("the reference solution: %s, %d of %d passed", res.Verdict, res.Passed, res.Total)
		}
		for _, c := range res.Cases {
			got = append(got, c.Name+": "+string(c.Status)+" "+c.Message)
		}
		return got
	}
	var idle []string
	t.Run("as it is", func(t *testing.T) { idle = outcome(t) })
	t.Logf("%d outcomes, e.g. %q", len(idle), idle[3])
	t.Run("four burners", func(t *testing.T) {
		startBurners(t, 4, 4*time.Minute)
		loaded := outcome(t)
		if len(loaded) != len(idle) {
			t.Fatalf("%d outcomes under load, %d without", len(loaded), len(idle))
		}
		for i := range idle {
			if loaded[i] != idle[i] {
				t.Errorf("under load:\n\t%s\nwithout:\n\t%s", loaded[i], idle[i])
			}
		}
	})
}
