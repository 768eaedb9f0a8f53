package grade

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/workbook-course/workbook/checker"
)

// The benchmarks grade 24 distinct correct submissions of exercise-deadline (12 Bulgarian, 12
// Russian): with workbook grade; with the naive script (one go build and one run per case per
// student, in sequence); and with that script's loop done through the checker (its offline,
// stripped build and its sandboxed runs), to tell what batching and parallel work give from what
// the checker's build flags and sandbox cost. Every iteration gets programs no build cache has
// seen, so all of them pay for their builds. See BENCHMARKS.md:
//
//	go test ./internal/grade -run '^$' -bench 'Grade24|Naive' -benchtime 1x -count 3
const benchStudents = 24

var benchSalt = time.Now().UnixNano()

// benchRound makes every class of every run of a benchmark new to the build cache and to the
// checker's cache of executables (-count repeats a benchmark with the same iteration numbers).
var benchRound atomic.Int64

// benchClass writes n distinct correct programs: the reference solutions with renamed identifiers and
// a constant of their own, so that no two share a build.
func benchClass(b testing.TB, n, iter int) string {
	b.Helper()
	dir := b.TempDir()
	sols := map[string][]byte{
		"bg": courseFile(b, "solutions/exercise-deadline/bg/main.go"),
		"ru": courseFile(b, "solutions/exercise-deadline/ru/main.go"),
	}
	for i := 0; i < n; i++ {
		lang := []string{"bg", "ru"}[i%2]
		suffix := strconv.Itoa(i)
		src := strings.NewReplacer("tick", "tick"+suffix, "wait", "wait"+suffix).Replace(string(sols[lang]))
		src += fmt.Sprintf("\nconst build%d = \"%d-%d-%d\"\n", i, benchSalt, iter, benchRound.Add(1))
		p := filepath.Join(dir, fmt.Sprintf("student %02d", i), "main.go")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func BenchmarkGrade24(b *testing.B) {
	job := deadlineJob(b)
	job.Limits.RunTime = 10 * time.Second
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		class := benchClass(b, benchStudents, i)
		out := filepath.Join(b.TempDir(), "report")
		b.StartTimer()
		rep, _, err := Run(context.Background(), job, class, out)
		if err != nil {
			b.Fatal(err)
		}
		if err := Write(out, rep, "en"); err != nil {
			b.Fatal(err)
		}
		if rep.Summary.Pass != benchStudents {
			b.Fatalf("%d of %d passed", rep.Summary.Pass, benchStudents)
		}
	}
}

// BenchmarkRegrade24 grades a class a second time into a new report (the instructor added a case,
// or lost the report): the executables come from the checker's cache, only the runs are paid for.
func BenchmarkRegrade24(b *testing.B) {
	job := deadlineJob(b)
	job.Limits.RunTime = 10 * time.Second
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		class := benchClass(b, benchStudents, i)
		if _, _, err := Run(context.Background(), job, class, filepath.Join(b.TempDir(), "report")); err != nil {
			b.Fatal(err)
		}
		out := filepath.Join(b.TempDir(), "report")
		b.StartTimer()
		rep, _, err := Run(context.Background(), job, class, out)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Summary.Pass != benchStudents {
			b.Fatalf("%d of %d passed", rep.Summary.Pass, benchStudents)
		}
	}
}

// BenchmarkNaive24 is the naive script as an instructor would write it: for each student in turn,
// go build the student's files (default flags) and run the program once per case, comparing the
// exit code and stdout.
func BenchmarkNaive24(b *testing.B) {
	job := deadlineJob(b)
	cases := make([]naiveCase, len(job.Cases))
	for i, c := range job.Cases {
		cases[i] = parseNaive(b, c)
	}
	goBin, err := checker.GoTool()
	if err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "GOCACHE="+checker.GoCache(), "CGO_ENABLED=0")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		class := benchClass(b, benchStudents, i)
		bin := b.TempDir()
		b.StartTimer()
		passed := 0
		entries, _ := os.ReadDir(class)
		for _, e := range entries {
			dir := filepath.Join(class, e.Name())
			lang := DetectLang(readDirSource(dir))
			files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
			exe := filepath.Join(bin, e.Name())
			build := exec.Command(goBin, append([]string{"build", "-o", exe}, files...)...)
			build.Env = env
			if out, err := build.CombinedOutput(); err != nil {
				b.Fatalf("go build: %v\n%s", err, out)
			}
			ok := true
			for _, c := range cases {
				var stdout bytes.Buffer
				run := exec.Command(exe, c.args...)
				run.Stdout = &stdout
				code := 0
				if err := run.Run(); err != nil {
					code = run.ProcessState.ExitCode()
				}
				if code != c.exit || (c.want != nil && checker.Compare(c.want[lang], stdout.String()) != nil) {
					ok = false
				}
			}
			if ok {
				passed++
			}
		}
		if passed != benchStudents {
			b.Fatalf("%d of %d passed", passed, benchStudents)
		}
	}
}

// naiveScript is the naive grading script in shell, as an instructor would write it: for each
// student in turn, go build, then run every case and compare the exit code and stdout (either
// language's transcript) with cmp.
const naiveScript = `#!/bin/sh
# naive.sh CLASS CASES BIN: prints how many students passed every case.
class=$1 cases=$2 bin=$3
passed=0
for dir in "$class"/*/; do
	name=$(basename "$dir")
	go build -o "$bin/$name" "$dir"*.go || continue
	ok=1
	for c in "$cases"/*/; do
		read -r args < "$c/args"
		read -r want < "$c/exit"
		"$bin/$name" $args > "$bin/out" 2> /dev/null
		[ $? -eq "$want" ] || ok=0
		if [ -f "$c/stdout.bg" ]; then
			cmp -s "$bin/out" "$c/stdout.bg" || cmp -s "$bin/out" "$c/stdout.ru" || ok=0
		fi
	done
	[ $ok -eq 1 ] && passed=$((passed + 1))
done
echo $passed
`

// BenchmarkNaiveScript24 runs naiveScript with /bin/sh on the same class.
func BenchmarkNaiveScript24(b *testing.B) {
	job := deadlineJob(b)
	sh, err := exec.LookPath("sh")
	if err != nil {
		b.Skip("no sh")
	}
	goBin, err := checker.GoTool()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	script := filepath.Join(dir, "naive.sh")
	os.WriteFile(script, []byte(naiveScript), 0o755)
	casesDir := filepath.Join(dir, "cases")
	for i, c := range job.Cases {
		nc := parseNaive(b, c)
		cd := filepath.Join(casesDir, fmt.Sprintf("%02d", i))
		os.MkdirAll(cd, 0o755)
		os.WriteFile(filepath.Join(cd, "args"), []byte(strings.Join(nc.args, " ")+"\n"), 0o644)
		os.WriteFile(filepath.Join(cd, "exit"), []byte(strconv.Itoa(nc.exit)+"\n"), 0o644)
		for lang, want := range nc.want {
			os.WriteFile(filepath.Join(cd, "stdout."+lang), []byte(want), 0o644)
		}
	}
	env := append(os.Environ(), "GOCACHE="+checker.GoCache(), "CGO_ENABLED=0", "PATH="+filepath.Dir(goBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		class := benchClass(b, benchStudents, i)
		bin := b.TempDir()
		b.StartTimer()
		cmd := exec.Command(sh, script, class, casesDir, bin)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil || strings.TrimSpace(string(out)) != strconv.Itoa(benchStudents) {
			b.Fatalf("naive.sh: %v: %s", err, out)
		}
	}
}

// BenchmarkNaiveSandboxed24 is the same loop through the checker: checker.Build (a scratch copy,
// offline, no symbol table or DWARF) and Program.Run for each case (the sandbox).
func BenchmarkNaiveSandboxed24(b *testing.B) {
	job := deadlineJob(b)
	cases := make([]naiveCase, len(job.Cases))
	for i, c := range job.Cases {
		cases[i] = parseNaive(b, c)
	}
	lim := checker.Limits{RunTime: 10 * time.Second}
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		class := benchClass(b, benchStudents, i)
		b.StartTimer()
		passed := 0
		entries, _ := os.ReadDir(class)
		for _, e := range entries {
			dir := filepath.Join(class, e.Name())
			src := readDirSource(dir)
			lang := DetectLang(src)
			prog, err := checker.Build(ctx, dir, lim)
			if err != nil {
				b.Fatal(err)
			}
			ok := true
			for _, c := range cases {
				out := prog.Run(ctx, "", c.args, "")
				if out.ExitCode != c.exit || (c.want != nil && checker.Compare(c.want[lang], out.Stdout) != nil) {
					ok = false
				}
			}
			prog.Close()
			if ok {
				passed++
			}
		}
		if passed != benchStudents {
			b.Fatalf("%d of %d passed", passed, benchStudents)
		}
	}
}

// naiveCase is what the naive script reads from a case: the arguments, the exit code and the
// expected stdout per language (nil when the case does not compare stdout).
type naiveCase struct {
	args []string
	exit int
	want map[string]string
}

func parseNaive(b *testing.B, c checker.Case) naiveCase {
	ar := txtar.Parse(c.Script)
	var nc naiveCase
	sc := bufio.NewScanner(bytes.NewReader(ar.Comment))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) > 0 && f[0] == "run":
			nc.args = f[1:]
		case len(f) > 1 && f[0] == "!" && f[1] == "run":
			nc.args, nc.exit = f[2:], -2
		case len(f) == 2 && f[0] == "status":
			nc.exit, _ = strconv.Atoi(f[1])
		case len(f) == 2 && f[0] == "expect":
			nc.want = map[string]string{}
			for _, file := range ar.Files {
				if lang, ok := strings.CutPrefix(file.Name, f[1]+"."); ok {
					nc.want[lang] = string(file.Data)
				}
			}
		}
	}
	if nc.exit == -2 {
		b.Fatalf("%s: a non-zero exit without status", c.Name)
	}
	return nc
}

// BenchmarkBuild24 is the build phase of BenchmarkGrade24 alone: checker.BuildMany of the 24
// programs, as grade calls it (one batch).
func BenchmarkBuild24(b *testing.B) {
	lim := checker.Limits{RunTime: 10 * time.Second}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dirs := benchDirs(b, benchClass(b, benchStudents, i))
		b.StartTimer()
		progs, errs := checker.BuildMany(context.Background(), dirs, lim)
		b.StopTimer()
		for k, p := range progs {
			if errs[k] != nil {
				b.Fatal(errs[k])
			}
			p.Close()
		}
		b.StartTimer()
	}
}

// BenchmarkRuns24 is the run phase of BenchmarkGrade24 alone: the 15 cases of each of the 24
// programs, built beforehand, on as many workers as grade uses (one student at a time each): with
// RunCases as grade runs them (cases: straight from memory, without testscript since 2026-12-01),
// with Program.Run and the case's arguments alone (sandbox), and as plain processes without the
// sandbox (exec), to tell what each layer costs.
func BenchmarkRuns24(b *testing.B) {
	job := deadlineJob(b)
	cases := make([]naiveCase, len(job.Cases))
	for i, c := range job.Cases {
		cases[i] = parseNaive(b, c)
	}
	lim := checker.Limits{RunTime: 10 * time.Second}
	dirs := benchDirs(b, benchClass(b, benchStudents, 0))
	progs, errs := checker.BuildMany(context.Background(), dirs, lim)
	for k, p := range progs {
		if errs[k] != nil {
			b.Fatal(errs[k])
		}
		defer p.Close()
	}
	ctx := context.Background()
	// benchClass writes Bulgarian and Russian programs in turn.
	lang := func(k int) string { return []string{"bg", "ru"}[k%2] }
	layers := []struct {
		name string
		run  func(k int) bool
	}{
		{"cases", func(k int) bool {
			ok := true
			for _, c := range progs[k].RunCases(ctx, job.Cases, checker.Options{Lang: lang(k), Parallel: 1}) {
				ok = ok && c.Status == checker.Pass
			}
			return ok
		}},
		{"sandbox", func(k int) bool {
			ok := true
			for _, c := range cases {
				out := progs[k].Run(ctx, "", c.args, "")
				ok = ok && out.ExitCode == c.exit && (c.want == nil || checker.Compare(c.want[lang(k)], out.Stdout) == nil)
			}
			return ok
		}},
		{"exec", func(k int) bool {
			ok := true
			for _, c := range cases {
				var stdout bytes.Buffer
				cmd := exec.Command(progs[k].Path, c.args...)
				cmd.Stdout = &stdout
				code := 0
				if err := cmd.Run(); err != nil {
					code = cmd.ProcessState.ExitCode()
				}
				ok = ok && code == c.exit && (c.want == nil || checker.Compare(c.want[lang(k)], stdout.String()) == nil)
			}
			return ok
		}},
	}
	jobs := job.jobs()
	for _, layer := range layers {
		b.Run(layer.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				next := make(chan int)
				done := make(chan bool)
				for w := 0; w < jobs; w++ {
					go func() {
						ok := true
						for k := range next {
							ok = layer.run(k) && ok
						}
						done <- ok
					}()
				}
				for k := range progs {
					next <- k
				}
				close(next)
				for w := 0; w < jobs; w++ {
					if !<-done {
						b.Fatal("a case did not pass")
					}
				}
			}
		})
	}
}

// benchDirs lists the students' folders of a class written by benchClass.
func benchDirs(b testing.TB, class string) []string {
	entries, err := os.ReadDir(class)
	if err != nil {
		b.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		dirs = append(dirs, filepath.Join(class, e.Name()))
	}
	return dirs
}
