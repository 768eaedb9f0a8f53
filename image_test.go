package workbook_test

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestImageRecipes stands in for a container engine where there is none (.ci/run builds the image
// itself where there is): it reads Dockerfile and checks what the image holds (Go of go.mod's
// version, workbook in /usr/local/bin, an ordinary user, the image's own toolchain), builds workbook
// as the Dockerfile's build stage does, and runs docs/grading.md's two recipes as they are written
// there, with that binary as the image's workbook, over a class of three: every pod of the
// Kubernetes Indexed Job (JOB_COMPLETION_INDEX 0 to n-1) and the merge after it, then every job of
// the CI matrix and its merge. Both give the grades one run gives.
func TestImageRecipes(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a class a dozen times")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the recipes are shell commands of Linux pods")
	}
	docker := readFile(t, "Dockerfile")
	build := imageBuild(t, docker)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	args := append([]string{"build"}, build.args...)
	for i, a := range args {
		if a == "-o" {
			args[i+1] = filepath.Join(bin, "workbook")
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), build.env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}

	doc := readFile(t, "docs/grading.md")
	sh := func(dir, script string, env ...string) string {
		t.Helper()
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			t.Fatal(err)
		}
		gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
		c := exec.Command("sh", "-c", script)
		c.Dir = dir
		// The pod's environment: the image's PATH with workbook and go, its own HOME, its toolchain.
		// The Go build cache is this machine's (a shared cache volume, as the documentation advises):
		// only the time of the first build depends on it.
		c.Env = append([]string{"PATH=" + bin + string(os.PathListSeparator) + filepath.Join(strings.TrimSpace(string(goroot)), "bin") + ":/usr/bin:/bin",
			"HOME=" + filepath.Join(tmp, "home"), "GOTOOLCHAIN=local", "GOCACHE=" + strings.TrimSpace(string(gocache))}, env...)
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s (%s): %v\n%s", script, strings.Join(env, " "), err, out)
		}
		return string(out)
	}
	os.MkdirAll(filepath.Join(tmp, "home"), 0o755)

	// The Kubernetes Indexed Job: every pod's command, then the merge, on the shared volume /data.
	job := section(t, doc, "### Recipe: a Kubernetes Indexed Job")
	n, err := strconv.Atoi(match(t, job, `(?m)^\s+completions: (\d+)`))
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(tmp, "data")
	writeClass(t, filepath.Join(data, "submissions"), filepath.Join(data, "cases"))
	pod := strings.ReplaceAll(foldedArgs(t, job), "/data", data)
	for i := range n {
		sh(tmp, pod, "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
	}
	merge := strings.ReplaceAll(match(t, job, "(?m)^(workbook grade merge .*)$"), "/data", data)
	out := sh(tmp, merge)
	if !strings.Contains(out, "3 submissions in the report: pass 2, fail 0, error 1") {
		t.Errorf("the Indexed Job's merge says:\n%s", out)
	}
	kube := gradesOf(t, filepath.Join(data, "reports", "all"))

	// The CI matrix: every job's run in a checkout holding the class, then the merge of the
	// artifacts (download-artifact puts each in reports/<its name>).
	matrix := section(t, doc, "### The same in a CI matrix (GitHub Actions)")
	shards := strings.Split(match(t, matrix, `shard: \[([0-9, ]+)\]`), ", ")
	runs := regexp.MustCompile(`(?m)^\s+- run: (workbook .*)$`).FindAllStringSubmatch(matrix, -1)
	if len(runs) != 2 || len(shards) < 2 {
		t.Fatalf("the matrix recipe has %d runs of workbook and %d shards, want a grade and a merge", len(runs), len(shards))
	}
	ci := filepath.Join(tmp, "ci")
	writeClass(t, filepath.Join(ci, "submissions"), filepath.Join(ci, "cases"))
	for _, k := range shards {
		sh(ci, strings.ReplaceAll(runs[0][1], "${{ matrix.shard }}", k))
		if err := os.MkdirAll(filepath.Join(ci, "reports"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(ci, "report-"+k), filepath.Join(ci, "reports", "report-"+k)); err != nil {
			t.Fatal(err)
		}
	}
	sh(ci, runs[1][1])
	if got := gradesOf(t, filepath.Join(ci, "grades")); !slices.Equal(got, kube) {
		t.Errorf("the matrix's grades differ from the Indexed Job's:\n%q\n%q", got, kube)
	}
}

// gradesOf is each student's grade in the report folder's grades.csv: name, status, passed, total,
// score and verdict (the columns after them hold the time the files were copied at).
func gradesOf(t *testing.T, dir string) []string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(readFile(t, filepath.Join(dir, "grades.csv")), "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, strings.Join(r[:6], ","))
	}
	if len(out) != 3 {
		t.Errorf("%s grades %d students, want 3", dir, len(out))
	}
	return out
}

// dockerBuild is the Dockerfile's build of workbook: its environment and the go build arguments.
type dockerBuild struct{ env, args []string }

// imageBuild checks what the Dockerfile's image holds and returns its build of workbook.
func imageBuild(t *testing.T, docker string) dockerBuild {
	t.Helper()
	mod, err := modfile.ParseLax("go.mod", []byte(readFile(t, "go.mod")), nil)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(mod.Go.Version, ".")
	if v := match(t, docker, `(?m)^ARG GO_VERSION=(\S+)$`); v != parts[0]+"."+parts[1] {
		t.Errorf("the image's Go is %s, go.mod's %s", v, mod.Go.Version)
	}
	if got := regexp.MustCompile(`(?m)^FROM golang:\$\{GO_VERSION\}`).FindAllString(docker, -1); len(got) != 2 {
		t.Errorf("the image is built and runs on Go's image of GO_VERSION: %d stages of it, want 2", len(got))
	}
	for _, want := range []string{"COPY --from=build /out/workbook /usr/local/bin/workbook", "ENV GOTOOLCHAIN=local"} {
		if !strings.Contains(docker, "\n"+want+"\n") {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if u := match(t, docker, `(?m)^USER (\d+):\d+$`); u == "0" {
		t.Errorf("the image runs as root")
	}
	run := strings.Fields(match(t, docker, `(?m)^RUN (.*go build .*)$`))
	var b dockerBuild
	for len(run) > 0 && strings.Contains(run[0], "=") {
		b.env, run = append(b.env, run[0]), run[1:]
	}
	if len(run) < 2 || run[0] != "go" || run[1] != "build" || run[len(run)-1] != "./cmd/workbook" || !strings.Contains(strings.Join(run, " "), "-o /out/workbook") {
		t.Fatalf("the Dockerfile's build is %q, want go build -o /out/workbook ./cmd/workbook", run)
	}
	b.args = run[2:]
	return b
}

// writeClass writes a class of three (the reference solution in each language, the untouched
// starter) into subs, and one case of the instructor's into cases.
func writeClass(t *testing.T, subs, cases string) {
	t.Helper()
	files := map[string]string{
		filepath.Join(subs, "anna", "main.go"):  readFile(t, "solutions/exercise-deadline/bg/main.go"),
		filepath.Join(subs, "Борис", "main.go"): readFile(t, "solutions/exercise-deadline/ru/main.go"),
		filepath.Join(subs, "Вера", "main.go"):  readFile(t, "exercises/exercise-deadline/bg/main.go"),
		filepath.Join(cases, "short-deadline.txtar"): `# bg: срок от три тика
# ru: срок в три такта
# en: a deadline of three ticks
run -deadline 3 timeout ok
expect want
-- want.bg --
тик 0, опит 1: timeout
тик 1, опит 2: ok
резултат: ok
-- want.ru --
такт 0, попытка 1: timeout
такт 1, попытка 2: ok
результат: ok
`,
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// section is the part of the Markdown doc from the heading to the next heading of its level or above.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("docs/grading.md has no %q", heading)
	}
	rest := doc[i+len(heading)+2:]
	if j := regexp.MustCompile(`(?m)^#{1,3} `).FindStringIndex(rest); j != nil {
		rest = rest[:j[0]]
	}
	return rest
}

// foldedArgs is the shell command of the recipe's container: its folded block (args: - >), joined.
func foldedArgs(t *testing.T, yaml string) string {
	t.Helper()
	lines := strings.Split(yaml, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "- >" {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		var words []string
		for _, m := range lines[i+1:] {
			if strings.TrimSpace(m) == "" || len(m)-len(strings.TrimLeft(m, " ")) <= indent {
				break
			}
			words = append(words, strings.TrimSpace(m))
		}
		return strings.Join(words, " ")
	}
	t.Fatal("the Indexed Job has no folded args block (- >)")
	return ""
}

func match(t *testing.T, text, re string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("nothing matches %s", re)
	}
	return m[1]
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
