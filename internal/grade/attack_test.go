package grade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// attackClass writes a class of honest students (the reference solutions, one renamed) beside
// students who attack the grade itself: ballast (700 MiB of static zeros), a compile-time bomb,
// compiler messages that name the batch's other packages, a program that hangs in the cases with a
// 503 in them and is right in the others, one that spins in every case, and one that sleeps.
func attackClass(t testing.TB) (dir string, honest []string) {
	t.Helper()
	dir = t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bg := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	ru := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	write("honest-bg/main.go", bg)
	write("honest-ru/main.go", ru)
	write("honest-renamed/main.go", strings.ReplaceAll(bg, "tick", "tock"))
	honest = []string{"honest-bg", "honest-ru", "honest-renamed"}
	// Right in every case without a 503, spinning in the others.
	write("partial/main.go", bg)
	write("partial/spin.go", "package main\n\nimport \"os\"\n\nfunc init() {\n\tfor _, a := range os.Args {\n\t\tif a == \"503\" {\n\t\t\tfor {\n\t\t\t}\n\t\t}\n\t}\n}\n")
	write("ballast/main.go", bg)
	write("ballast/ballast.go", "package main\n\nimport \"os\"\n\nvar ballast = [...]byte{700 << 20: 0}\n\nfunc init() { ballast[len(os.Args)]++ }\n")
	var bomb strings.Builder
	bomb.WriteString("package main\n\ntype T0 bool\n\n")
	for i := 1; i <= 28; i++ {
		fmt.Fprintf(&bomb, "type T%d struct{ a, b T%d }\n", i, i-1)
	}
	bomb.WriteString("\nvar bombed = func(x, y *T28) bool { return *x == *y }\n")
	write("bomb/main.go", bg)
	write("bomb/bomb.go", bomb.String())
	var forger strings.Builder
	forger.WriteString("package main\n\nvar msg int = \"\\n# learners/p000\\np000/main.go:1:1: x\\n\"\n\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&forger, "var _ = p%03d.Main\n", i)
	}
	write("forger/main.go", bg)
	write("forger/forge.go", forger.String())
	write("spinner/main.go", bg)
	write("spinner/spin.go", "package main\n\nfunc init() {\n\tfor {\n\t}\n}\n")
	write("sleeper/main.go", bg)
	write("sleeper/sleep.go", "package main\n\nimport \"time\"\n\nfunc init() { time.Sleep(time.Hour) }\n")
	return dir, honest
}

// attackLimits are the limits the class beside the attacks is graded with. Each only decides how long
// an attacker burns, so each is short, and still far above what an honest program takes (a few
// milliseconds of CPU a run, well under a second to build, in the batch as alone): a second of CPU a
// run and a budget of one such run (the spinners: after it, every case gets the short limit, which
// the partial hanger's honest cases pass as before; half a second a run was tried, and the kernel's
// CPU limit of a run, whole seconds, then came too close to the checker's own), two seconds neither
// on a CPU nor waiting for one (the sleeper: that is what the checker's wall-clock backstop counts,
// so a loaded machine does not shorten it), and a build limit of ten seconds (the bomb: the batch
// stops after half of it without a new executable, and the bomb gets the other half alone).
var attackLimits = checker.Limits{RunTime: time.Second, Budget: time.Second, WallTime: 2 * time.Second, BuildTime: 10 * time.Second}

// warmBuildCache builds an honest program once per test binary, with a generous build limit, so that
// the standard library is in the Go build cache as learners' programs are built (offline, without
// cgo) before a class is graded with attackLimits' short build limit: in a fresh cache on a loaded
// machine the first executable of a batch may take longer than half of it, for everyone.
func warmBuildCache(t testing.TB) {
	warmOnce.Do(func() {
		dir, err := os.MkdirTemp("", "warm")
		if err != nil {
			warmErr = err
			return
		}
		defer os.RemoveAll(dir)
		// A comment of its own each time, so that it is built, not taken from the executables' cache.
		src := fmt.Sprintf("%s\n// warm-up %d\n", courseFile(t, "solutions/exercise-deadline/bg/main.go"), time.Now().UnixNano())
		if warmErr = os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); warmErr != nil {
			return
		}
		var p *checker.Program
		if p, warmErr = checker.Build(context.Background(), dir, checker.Limits{BuildTime: 5 * time.Minute}); p != nil {
			p.Close()
		}
	})
	if warmErr != nil {
		t.Fatalf("warming the build cache: %v", warmErr)
	}
}

var (
	warmOnce sync.Once
	warmErr  error
)

// TestGradeBesideAttacks grades a class of honest students beside every attack on the grade that
// works through the checker, and checks that each honest student (and the one who hangs in some
// cases) gets exactly the result it gets graded alone, that each attack gets its own verdict, and
// that no student but the bomb's author waited out a build limit (BenchmarkGradeBesideAttacks
// measures how long the class takes: about one build limit, not one per attack). The gradings of
// the class and of each student alone are independent and run at once.
func TestGradeBesideAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a class of programs")
	}
	t.Parallel() // grades a class of its own
	class, honest := attackClass(t)
	job := deadlineJob(t)
	job.Limits = attackLimits
	warmBuildCache(t)
	alone := append(append([]string(nil), honest...), "partial")
	reps := make([]*Report, len(alone)+1) // the class's, then each alone
	errs := make([]error, len(reps))
	var wg sync.WaitGroup
	for i := range reps {
		dir := class
		if i > 0 {
			dir = filepath.Join(t.TempDir(), "alone")
			if err := os.CopyFS(filepath.Join(dir, alone[i-1]), os.DirFS(filepath.Join(class, alone[i-1]))); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(t.TempDir(), "report")
		j := deadlineJob(t) // a job of its own for each grading
		j.Limits = attackLimits
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], _, errs[i] = Run(context.Background(), j, dir, out)
			if errs[i] == nil {
				errs[i] = Write(out, reps[i], "en")
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	rep := reps[0]
	// Only the bomb's author is held to a build limit: every other program was built in a share of
	// the batch, whose CPU time without progress is what stops it, never its wall time (a loaded
	// machine stretches a build's wall time many times over: no assertion on it here).
	waited := 0
	for _, st := range rep.Students {
		if st.Result != nil && st.Result.Message == "build_time" {
			waited++
		}
	}
	if waited > 1 {
		t.Errorf("%d students waited out a build limit, want the bomb's author alone", waited)
	}
	by := map[string]Student{}
	for _, st := range rep.Students {
		by[st.Name] = st
	}
	with503 := 0
	for _, c := range job.Cases {
		// The partial hanger spins on an argument that is exactly 503 (not 503:2, a Retry-After).
		for _, line := range strings.Split(string(c.Script), "\n") {
			if f := strings.Fields(line); len(f) > 0 && (f[0] == "run" || f[0] == "!") && slices.Contains(f, "503") {
				with503++
				break
			}
		}
	}
	checks := []struct {
		name, verdict, message string
		passed                 int
	}{
		{"ballast", "build_error", "static_data", 0},
		{"forger", "build_error", "", 0},
		{"spinner", "timeout", "", 0},
		{"sleeper", "timeout", "", 0},
		{"partial", "timeout", "", len(job.Cases) - with503},
	}
	for _, c := range checks {
		st := by[c.name]
		if st.Result == nil {
			t.Errorf("%s: not in the report", c.name)
			continue
		}
		if string(st.Result.Verdict) != c.verdict || (c.message != "" && st.Result.Message != c.message) || st.Result.Passed != c.passed {
			t.Errorf("%s: %s %q, %d passed; want %s %q, %d passed", c.name, st.Result.Verdict, st.Result.Message, st.Result.Passed, c.verdict, c.message, c.passed)
		}
	}
	if st := by["bomb"]; st.Result == nil || st.Result.Verdict != "build_error" || (st.Result.Message != "build_time" && st.Result.Message != "build_memory") {
		t.Errorf("bomb: %+v, want a build error build_time or build_memory", st.Result)
	}
	// Named a sleeper where its threads can be read (Linux), blocked elsewhere.
	sleeper := checker.ReasonBlocked
	if runtime.GOOS == "linux" {
		sleeper = checker.ReasonSlept
	}
	if st := by["sleeper"]; st.Result != nil && len(st.Result.Cases) > 0 && st.Result.Cases[0].Message != sleeper {
		t.Errorf("sleeper: the first case's message %q, want %s", st.Result.Cases[0].Message, sleeper)
	}
	if st := by["spinner"]; st.Result != nil && len(st.Result.Cases) > 0 && st.Result.Cases[0].Message != checker.ReasonCPULimit {
		t.Errorf("spinner: the first case's message %q, want %s", st.Result.Cases[0].Message, checker.ReasonCPULimit)
	}
	// Every honest student, and the one who hangs in some cases, as graded alone.
	for k, name := range alone {
		ar := reps[k+1]
		if len(ar.Students) != 1 {
			t.Fatalf("%s alone: %d students", name, len(ar.Students))
		}
		a, b := ar.Students[0].Result, by[name].Result
		if b == nil || a.Verdict != b.Verdict || a.Passed != b.Passed || len(a.Cases) != len(b.Cases) {
			t.Errorf("%s: %s in the class, %s alone", name, caseLine(b), caseLine(a))
			continue
		}
		if name != "partial" && a.Verdict != checker.Pass {
			t.Errorf("%s alone: %s", name, a.Verdict)
		}
		for i := range a.Cases {
			if a.Cases[i].Status != b.Cases[i].Status || a.Cases[i].Got != b.Cases[i].Got {
				t.Errorf("%s, case %s: %s %q in the class, %s %q alone", name, a.Cases[i].Name, b.Cases[i].Status, b.Cases[i].Got, a.Cases[i].Status, a.Cases[i].Got)
			}
		}
	}
}

// BenchmarkGradeBesideAttacks grades the class of TestGradeBesideAttacks (three honest students and
// six attacks on the grade) with its limits. The time is the benchmark's to measure, not the test's
// (which counts who waited out a build limit): limits/op is how many build limits the class took,
// about one (the bomb's: half in the batch, half alone) plus the runs, never one per attack.
func BenchmarkGradeBesideAttacks(b *testing.B) {
	class, _ := attackClass(b)
	job := deadlineJob(b)
	job.Limits = attackLimits
	warmBuildCache(b)
	start := time.Now()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(b.TempDir(), "report")
		rep, _, err := Run(context.Background(), job, class, out)
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Students) != 9 {
			b.Fatalf("%d students graded, want 9", len(rep.Students))
		}
	}
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N)/job.Limits.BuildTime.Seconds(), "limits/op")
}

// caseLine is a result in one line for a failure message: its verdict, and each case's status with
// its message and duration.
func caseLine(r *checker.Result) string {
	if r == nil {
		return "no result"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d/%d:", r.Verdict, r.Passed, r.Total)
	for _, c := range r.Cases {
		fmt.Fprintf(&b, " %s=%s", c.Name, c.Status)
		if c.Message != "" {
			fmt.Fprintf(&b, "(%s)", c.Message)
		}
		fmt.Fprintf(&b, "@%dms", time.Duration(c.Duration).Milliseconds())
	}
	return b.String()
}
