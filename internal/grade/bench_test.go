package grade

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/workbook-course/workbook/checker"
)

// The benchmarks grade 24 distinct correct submissions of exercise-deadline (12 Bulgarian, 12
// Russian) in two ways: workbook grade, and the naive script (one go build and one run per case per
// student, in sequence). Every iteration gets programs no build cache has seen, so both pay for
// their builds. See BENCHMARKS.md:
//
//	go test ./internal/grade -run '^$' -bench 'Grade24|Naive24' -benchtime 1x -count 3
const benchStudents = 24

var benchSalt = time.Now().UnixNano()

// benchClass writes n distinct correct programs: the reference solutions with renamed identifiers and
// a constant of their own, so that no two share a build.
func benchClass(b *testing.B, n, iter int) string {
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
		src += fmt.Sprintf("\nconst build%d = \"%d-%d\"\n", i, benchSalt, iter)
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

func BenchmarkNaive24(b *testing.B) {
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
