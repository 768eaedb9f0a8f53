package grade

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// attackClass writes a class of honest students (the reference solutions, one renamed) beside
// students who attack the grade itself: ballast (700 MiB of static zeros), a compile-time bomb,
// compiler messages that name the batch's other packages, a program that hangs in the cases with a
// 503 in them and is right in the others, one that spins in every case, and one that sleeps.
func attackClass(t *testing.T) (dir string, honest []string) {
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

// TestGradeBesideAttacks grades a class of honest students beside every attack on the grade that
// works through the checker, and checks that each honest student (and the one who hangs in some
// cases) gets exactly the result it gets graded alone, that each attack gets its own verdict, and
// that the class did not wait a build limit per attack.
func TestGradeBesideAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a class of programs")
	}
	t.Parallel() // grades a class of its own
	class, honest := attackClass(t)
	job := deadlineJob(t)
	job.Limits = checker.Limits{RunTime: time.Second, WallTime: 3 * time.Second, BuildTime: 20 * time.Second}
	start := time.Now()
	rep, _ := runGrade(t, job, class, filepath.Join(t.TempDir(), "report"))
	took := time.Since(start)
	t.Logf("graded %d students in %s", len(rep.Students), took.Round(time.Millisecond))
	if max := 90 * time.Second; took > max {
		t.Errorf("the class took %s, more than %s", took, max)
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
	if st := by["sleeper"]; st.Result != nil && len(st.Result.Cases) > 0 && st.Result.Cases[0].Message != checker.ReasonBlocked {
		t.Errorf("sleeper: the first case's message %q, want %s", st.Result.Cases[0].Message, checker.ReasonBlocked)
	}
	if st := by["spinner"]; st.Result != nil && len(st.Result.Cases) > 0 && st.Result.Cases[0].Message != checker.ReasonCPULimit {
		t.Errorf("spinner: the first case's message %q, want %s", st.Result.Cases[0].Message, checker.ReasonCPULimit)
	}
	// Every honest student, and the one who hangs in some cases, as graded alone.
	for _, name := range append(honest, "partial") {
		alone := filepath.Join(t.TempDir(), "alone")
		if err := os.CopyFS(filepath.Join(alone, name), os.DirFS(filepath.Join(class, name))); err != nil {
			t.Fatal(err)
		}
		ar, _ := runGrade(t, job, alone, filepath.Join(t.TempDir(), "report"))
		if len(ar.Students) != 1 {
			t.Fatalf("%s alone: %d students", name, len(ar.Students))
		}
		a, b := ar.Students[0].Result, by[name].Result
		if b == nil || a.Verdict != b.Verdict || a.Passed != b.Passed || len(a.Cases) != len(b.Cases) {
			t.Errorf("%s: %+v in the class, %+v alone", name, b, a)
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
