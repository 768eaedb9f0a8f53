package workbook_test

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/ociimage"
)

// TestImageRecipes runs docs/grading.md's two recipes as they are written there, with workbook built
// as the image builds it (internal/ociimage: its test checks the Dockerfile agrees) and this
// machine's go, over a class of three: every pod of the Kubernetes Indexed Job (JOB_COMPLETION_INDEX
// 0 to n-1) and the merge after it, then every job of the CI matrix and its merge. Both give the
// grades one run gives. TestImageInside runs the same in the image itself.
func TestImageRecipes(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a class a dozen times")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the recipes are shell commands of Linux pods")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	args := slices.Concat([]string{"build"}, ociimage.BuildArgs, []string{"-o", filepath.Join(bin, "workbook"), "./cmd/workbook"})
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), ociimage.BuildEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	if err := os.MkdirAll(filepath.Join(tmp, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The pod's environment: the image's PATH with workbook and go, its own HOME, its toolchain.
	// The Go build cache is this machine's (a shared cache volume, as the documentation advises):
	// only the time of the first build depends on it.
	run := func(dir, script string, _ int, env ...string) (string, error) {
		c := exec.Command("sh", "-c", script)
		c.Dir = dir
		c.Env = append([]string{"PATH=" + bin + string(os.PathListSeparator) + filepath.Join(strings.TrimSpace(string(goroot)), "bin") + ":/usr/bin:/bin",
			"HOME=" + filepath.Join(tmp, "home"), "GOTOOLCHAIN=local", "GOCACHE=" + strings.TrimSpace(string(gocache))}, env...)
		out, err := c.CombinedOutput()
		return string(out), err
	}
	playRecipes(t, readRecipes(t), filepath.Join(tmp, "data"), filepath.Join(tmp, "ci"), func(p string) string { return p }, run)
}

// recipes is what docs/grading.md's two recipes run.
type recipes struct {
	pods    int    // the Indexed Job's completions
	podUID  int    // its pods' runAsUser
	pod     string // each pod's shell command, on the volume /data
	merge   string // the merge after the Job
	shards  []string
	grade   dockerRun // each job of the CI matrix
	mergeCI dockerRun // the merge job
}

// dockerRun is a docker run of the matrix recipe: its user, environment, folder and command.
type dockerRun struct {
	uid     int
	env     []string
	workdir string
	cmd     string
}

// readRecipes reads the two recipes from docs/grading.md.
func readRecipes(t *testing.T) recipes {
	t.Helper()
	doc := readFile(t, "docs/grading.md")
	var r recipes
	job := section(t, doc, "### Recipe: a Kubernetes Indexed Job")
	var err error
	if r.pods, err = strconv.Atoi(match(t, job, `(?m)^\s+completions: (\d+)`)); err != nil {
		t.Fatal(err)
	}
	if r.podUID, err = strconv.Atoi(match(t, job, `runAsUser: (\d+)`)); err != nil {
		t.Fatal(err)
	}
	r.pod = foldedArgs(t, job)
	r.merge = match(t, job, "(?m)^(workbook grade merge .*)$")

	matrix := section(t, doc, "### The same in a CI matrix (GitHub Actions)")
	r.shards = strings.Split(match(t, matrix, `shard: \[([0-9, ]+)\]`), ", ")
	image := match(t, job, `image: (\S+)`)
	runs := regexp.MustCompile(`(?m)^\s+- run: docker run (.*) `+regexp.QuoteMeta(image)+` (workbook .*)$`).FindAllStringSubmatch(matrix, -1)
	if len(runs) != 2 || len(r.shards) < 2 {
		t.Fatalf("the matrix recipe has %d docker runs of workbook in %s and %d shards, want a grade and a merge", len(runs), image, len(r.shards))
	}
	for i, m := range runs {
		d := dockerRun{cmd: m[2]}
		opts := strings.Fields(m[1])
		for j := 0; j+1 < len(opts); j++ {
			switch opts[j] {
			case "--user":
				if d.uid, err = strconv.Atoi(opts[j+1]); err != nil {
					t.Fatal(err)
				}
			case "-e":
				d.env = append(d.env, opts[j+1])
			case "-w":
				d.workdir = opts[j+1]
			}
		}
		if d.uid == 0 || d.workdir == "" || !strings.Contains(m[1], `-v "$PWD:`+d.workdir+`"`) {
			t.Fatalf("the matrix's docker run %q runs as no user, or not in the checked-out folder", m[1])
		}
		if i == 0 {
			r.grade = d
		} else {
			r.mergeCI = d
		}
	}
	return r
}

// playRecipes plays the recipes with run, which runs a shell command in a folder as a user: every
// pod of the Indexed Job with the volume at data, then every job of the matrix with the checkout at
// ci (both paths as the commands see them; host gives the path of one on this machine). It checks
// that both give the grades of one run.
func playRecipes(t *testing.T, r recipes, data, ci string, host func(string) string, run func(dir, script string, uid int, env ...string) (string, error)) {
	t.Helper()
	sh := func(dir, script string, uid int, env ...string) string {
		t.Helper()
		out, err := run(dir, script, uid, env...)
		if err != nil {
			t.Fatalf("%s (%s): %v\n%s", script, strings.Join(env, " "), err, out)
		}
		return out
	}
	// The Kubernetes Indexed Job: every pod's command, then the merge, on the shared volume.
	writeClass(t, filepath.Join(host(data), "submissions"), filepath.Join(host(data), "cases"))
	chownAll(t, host(data), r.podUID)
	pod := strings.ReplaceAll(r.pod, "/data", data)
	for i := range r.pods {
		sh(data, pod, r.podUID, "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
	}
	out := sh(data, strings.ReplaceAll(r.merge, "/data", data), r.podUID)
	if !strings.Contains(out, "3 submissions in the report: pass 2, fail 0, error 0") ||
		!strings.Contains(out, "1 student handed in the starter unchanged") {
		t.Errorf("the Indexed Job's merge says:\n%s", out)
	}
	kube := gradesOf(t, filepath.Join(host(data), "reports", "all"))
	// One run over the whole class gives the same grades.
	sh(data, "workbook grade exercise-deadline "+data+"/submissions --tests "+data+"/cases --out "+data+"/reports/one --lang en", r.podUID)
	if one := gradesOf(t, filepath.Join(host(data), "reports", "one")); !slices.Equal(one, kube) {
		t.Errorf("the Indexed Job's grades differ from one run's:\n%q\n%q", kube, one)
	}

	// The CI matrix: every job's docker run in a checkout holding the class, then the merge of the
	// artifacts (download-artifact puts each in reports/<its name>).
	writeClass(t, filepath.Join(host(ci), "submissions"), filepath.Join(host(ci), "cases"))
	chownAll(t, host(ci), r.grade.uid)
	for _, k := range r.shards {
		sh(ci, strings.ReplaceAll(r.grade.cmd, "${{ matrix.shard }}", k), r.grade.uid, r.grade.env...)
	}
	if err := os.MkdirAll(filepath.Join(host(ci), "reports"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, k := range r.shards {
		if err := os.Rename(filepath.Join(host(ci), "report-"+k), filepath.Join(host(ci), "reports", "report-"+k)); err != nil {
			t.Fatal(err)
		}
	}
	chownAll(t, host(ci), r.mergeCI.uid)
	sh(ci, r.mergeCI.cmd, r.mergeCI.uid, r.mergeCI.env...)
	if got := gradesOf(t, filepath.Join(host(ci), "grades")); !slices.Equal(got, kube) {
		t.Errorf("the matrix's grades differ from the Indexed Job's:\n%q\n%q", got, kube)
	}
}

// chownAll gives the folder to uid where this process may (as root): a volume or checkout of the
// recipe's user.
func chownAll(t *testing.T, dir string, uid int) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
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

// imageSetup is the container runtime's part, run in new mount and PID namespaces before chroot:
// the run's own /proc, a /dev of the usual devices, /sys read-only.
const imageSetup = `set -e; r=$1; shift
mount -t proc proc "$r/proc"
mount -t tmpfs -o mode=755,nosuid tmpfs "$r/dev"
for d in null zero full random urandom tty; do touch "$r/dev/$d"; mount --bind "/dev/$d" "$r/dev/$d"; done
mount --bind -o ro /sys "$r/sys"
exec "$@"`

// TestImageInside runs docs/grading.md's two recipes inside the image internal/ociimage built (the
// OCI layout WORKBOOK_IMAGE names; .ci/run builds it): its layers unpacked into a root file system,
// every command run there with chroot, in new mount and PID namespaces with a /proc of their own, as
// the recipe's user (the pods' 10001, the matrix's 1001), with the image's environment, so the
// grades come from the image's workbook and the image's go, and from nothing of this machine's. The
// Go build cache lies in the pods' HOME, shared by them, as the documentation advises with a volume.
// It also says which protections the sandbox gave there (results.json), as grade does.
func TestImageInside(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a class a dozen times in the image, with a Go build cache of its own")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the image is of Linux")
	}
	layout := os.Getenv("WORKBOOK_IMAGE")
	if layout == "" {
		t.Skip("WORKBOOK_IMAGE names no image: go run ./internal/ociimage/mkimage DIR writes one (.ci/run does, and runs this test with it)")
	}
	if os.Geteuid() != 0 {
		t.Skip("runs the image with mount and PID namespaces and chroot, which need root")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare (util-linux) to make the namespaces")
	}
	chroot, err := exec.LookPath("chroot")
	if err != nil {
		t.Skip("no chroot (coreutils)")
	}
	if out, err := exec.Command(unshare, "--mount", "--pid", "--fork", "true").CombinedOutput(); err != nil {
		t.Skipf("no mount and PID namespaces here: %v: %s", err, out)
	}
	img, err := ociimage.ReadLayout(layout)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "root")
	if err := ociimage.Unpack(img, root); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"proc", "dev", "sys"} { // mount points, as the runtime makes them
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	homes := map[int]string{}
	for _, line := range strings.Split(readFile(t, filepath.Join(root, "etc", "passwd")), "\n") {
		if f := strings.Split(line, ":"); len(f) == 7 {
			uid, _ := strconv.Atoi(f[2])
			homes[uid] = f[5]
		}
	}
	run := func(dir, script string, uid int, extra ...string) (string, error) {
		home := homes[uid]
		if home == "" {
			home = "/" // a runtime's HOME for a user /etc/passwd does not name
		}
		env := environ(append(slices.Concat(cfg.Config.Env, []string{"HOME=" + home}), extra...))
		args := slices.Concat([]string{"--mount", "--pid", "--fork", "--propagation", "private", "sh", "-c", imageSetup, "sh", root, "env", "-i"},
			env, []string{chroot, "--userspec=" + strconv.Itoa(uid) + ":" + strconv.Itoa(uid), root, "/bin/sh", "-c", "cd " + dir + " && " + script})
		out, err := exec.Command(unshare, args...).CombinedOutput()
		return string(out), err
	}
	if out, err := run("/", "command -v workbook && command -v go && go version", 10001); err != nil || !strings.Contains(out, "/usr/local/bin/workbook\n/usr/local/go/bin/go\ngo version go1.") {
		t.Fatalf("the image's workbook and go: %v\n%s", err, out)
	}
	playRecipes(t, readRecipes(t), "/data", "/w", func(p string) string { return filepath.Join(root, p) }, run)

	var results struct {
		Students []struct {
			Student string
			Status  string
			Result  struct{ Isolation *checker.Isolation }
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, "data", "reports", "all", "results.json"))), &results); err != nil {
		t.Fatal(err)
	}
	for _, s := range results.Students {
		if s.Status == "error" || s.Status == "unchanged" { // the untouched starter: no program ran
			continue
		}
		iso := s.Result.Isolation
		if iso == nil || iso.Level == "" || len(iso.Applied) == 0 {
			t.Errorf("%s: no isolation in results.json: %+v", s.Student, iso)
			continue
		}
		t.Logf("%s: the sandbox in the image: level %s, applied %v, missing %v", s.Student, iso.Level, iso.Applied, iso.Missing)
	}
}

// environ is env with each name once, the last value of it winning (as docker run -e overrides the
// image's).
func environ(env []string) []string {
	var out []string
	for i, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(env[i+1:], func(o string) bool { return strings.HasPrefix(o, name+"=") }) {
			out = append(out, kv)
		}
	}
	return out
}
