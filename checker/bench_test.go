package checker

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The benchmarks compare a warm check of the exercise-deadline reference solution with what a
// person would do by hand: go build the same program and run it once per case. Run them with
//
//	go test ./checker -run '^$' -bench 'Check|ByHand' -benchtime 20x -count 5
//
// The figures are in BENCHMARKS.md.

const benchSolution = "../solutions/exercise-deadline/bg"

func benchCases(b testing.TB) []Case {
	cases, err := LoadCases(os.DirFS(".."), "exercises/exercise-deadline/cases")
	if err != nil {
		b.Fatal(err)
	}
	return cases
}

// BenchmarkCheck is a check after an edit: the executable is built, not taken from the cache.
func BenchmarkCheck(b *testing.B) { benchCheck(b, false) }

// BenchmarkCheckRerun is a check of unchanged sources (watch, serve's Check, a second check): the
// executable comes from the cache. Its floor is BenchmarkByHandRerun.
func BenchmarkCheckRerun(b *testing.B) { benchCheck(b, true) }

func benchCheck(b *testing.B, cached bool) {
	cases := benchCases(b)
	ctx := context.Background()
	check := func() {
		res, err := Check(ctx, benchSolution, cases, Options{Lang: "bg"})
		if err != nil || res.Verdict != Pass {
			b.Fatalf("check: %v %+v", err, res)
		}
	}
	if cached {
		check() // the executable is in the cache from now on
	} else {
		testNoCache.Add(1)
		defer testNoCache.Add(-1)
	}
	for b.Loop() {
		check()
		// As after a workbook check: the next one starts its sandbox sessions anew.
		b.StopTimer()
		endIdleSessions()
		b.StartTimer()
	}
}

// BenchmarkByHandRerun is the floor of a rerun: a go build that has nothing to do (the same output
// file, up to date) and the runs.
func BenchmarkByHandRerun(b *testing.B) { byHand(b, false) }

func BenchmarkByHand(b *testing.B) { byHand(b, true) }

func byHand(b *testing.B, fresh bool) {
	cases := benchCases(b)
	goBin, err := GoTool()
	if err != nil {
		b.Fatal(err)
	}
	var runs [][]string
	for _, c := range cases {
		for _, line := range strings.Split(string(c.Script), "\n") {
			f := strings.Fields(line)
			if len(f) > 0 && f[0] == "!" {
				f = f[1:]
			}
			if len(f) > 0 && f[0] == "run" {
				runs = append(runs, f[1:])
			}
		}
	}
	// The same program in a folder of its own, as a learner would have it.
	dir := b.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(benchSolution, "main.go"))
	if err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(src, "main.go"), data, 0o644)
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module learner\n\ngo 1.26\n"), 0o644)
	i := 0
	for b.Loop() {
		// A fresh output path each time, as after an edit: go build would skip linking otherwise.
		if fresh {
			i++
		}
		exe := filepath.Join(dir, "prog"+strconv.Itoa(i))
		cmd := exec.Command(goBin, "build", "-o", exe, ".")
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOCACHE="+GoCache(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
		for _, args := range runs {
			var out bytes.Buffer
			run := exec.Command(exe, args...)
			run.Stdout = &out
			_ = run.Run()
		}
	}
}

// BenchmarkCases runs the 15 cases of exercise-deadline against its built reference solution, one at
// a time, three ways: as RunCases runs them (straight from memory, see parseDirect), all through
// testscript as before, and as bare runs of the program with the cases' arguments (Program.Run, no
// case around it: the floor).
//
//	go test ./checker -run '^$' -bench Cases -benchtime 40x -count 5
func BenchmarkCases(b *testing.B) {
	cases := benchCases(b)
	ctx := context.Background()
	prog, err := Build(ctx, benchSolution, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	defer prog.Close()
	var args [][]string
	for _, c := range cases {
		dc, ok := parseDirect(c.Script)
		if !ok {
			b.Fatalf("case %s needs testscript", c.Name)
		}
		for _, l := range dc.lines {
			if l.name == "run" {
				args = append(args, l.args)
			}
		}
	}
	opt := Options{Lang: "bg", Parallel: 1}
	check := func(b *testing.B, rs []CaseResult) {
		for _, r := range rs {
			if r.Status != Pass {
				b.Fatalf("case %s: %s %s", r.Name, r.Status, r.Message)
			}
		}
	}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			check(b, prog.runCases(ctx, cases, opt, true))
		}
	})
	b.Run("testscript", func(b *testing.B) {
		for b.Loop() {
			check(b, prog.runCases(ctx, cases, opt, false))
		}
	})
	b.Run("runs", func(b *testing.B) {
		for b.Loop() {
			for _, a := range args {
				prog.Run(ctx, "", a, "")
			}
		}
	})
}
