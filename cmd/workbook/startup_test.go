package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/workbook-course/workbook/internal/i18n"
)

// TestStartup runs the real workbook binary's help and list, as a Russian learner with no workspace,
// and checks what keeps start-up short (BENCHMARKS.md has the times): no garbage collection runs
// while it starts (the packages allocate about 1.6 MB while they initialise, under the runtime's
// first heap goal of 4 MB), no package allocates more than 1 MB (chroma's registries did 4 MB, which
// once made a patched copy of chroma necessary), and each costs at most 12 times the CPU time of a Go
// program that prints one line. CPU time, not wall-clock time, and the best of a few runs: a loaded
// machine slows both alike.
func TestStartup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the workbook binary")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, exeName("workbook"))
	gobuild(t, ".", exe)
	hello := filepath.Join(dir, "hello")
	if err := os.MkdirAll(hello, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n",
		"go.mod":  "module hello\n\ngo 1.26\n",
	} {
		if err := os.WriteFile(filepath.Join(hello, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	helloExe := filepath.Join(dir, exeName("hello-go"))
	gobuild(t, hello, helloExe)
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(argv []string, extra ...string) (stdout, stderr []byte, cpu time.Duration) {
		t.Helper()
		var out, errb bytes.Buffer
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &errb
		cmd.Env = startupEnv(home, extra...)
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", argv, err, errb.Bytes())
		}
		return out.Bytes(), errb.Bytes(), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	// best is the least CPU time of argv and of hello-world over 15 runs, taken in turns: other
	// packages' tests run beside this one (CPU burners among them), and a process's CPU time grows
	// with what shares its caches, so the two are measured under the same conditions, and the least
	// of many runs is the one least disturbed.
	best := func(argv []string) (prog, hello time.Duration) {
		prog, hello = time.Duration(1<<62), time.Duration(1<<62)
		for range 15 {
			_, _, cpu := run(argv)
			prog = min(prog, cpu)
			_, _, cpu = run([]string{helloExe})
			hello = min(hello, cpu)
		}
		return prog, hello
	}
	gc := regexp.MustCompile(`(?m)^gc \d+ @.*$`)
	initAlloc := regexp.MustCompile(`(?m)^init (\S+) @.*?, (\d+) bytes,`)
	for _, args := range [][]string{{"help"}, {"list"}} {
		stdout, stderr, _ := run(append([]string{exe}, args...), "GODEBUG=gctrace=1,inittrace=1")
		if len(stdout) == 0 {
			t.Errorf("workbook %v printed nothing", args)
		}
		if m := gc.Find(stderr); m != nil {
			t.Errorf("workbook %v collected garbage during start-up: %s", args, m)
		}
		inits := initAlloc.FindAllSubmatch(stderr, -1)
		if len(inits) == 0 {
			t.Errorf("workbook %v: no init trace in:\n%s", args, stderr)
		}
		for _, m := range inits {
			if n, _ := strconv.Atoi(string(m[2])); n > 1<<20 {
				t.Errorf("workbook %v: %s allocated %d bytes while initialising, want at most 1 MB", args, m[1], n)
			}
		}
		// A floor under 1 ms is the clock's grain (some systems count CPU time in ticks).
		if cpu, floor := best(append([]string{exe}, args...)); cpu > 12*max(floor, time.Millisecond) {
			t.Errorf("workbook %v took %v of CPU time, more than 12 times a hello-world Go program's %v", args, cpu, floor)
		} else {
			t.Logf("workbook %v: %v of CPU time; hello-world: %v", args, cpu, floor)
		}
	}
}

// TestSummariesInCore checks that every command's one-line summary, which `workbook help` lists, is
// in the core message files: internal/i18n parses a language's files part by part, core first, so
// that help parses core alone.
func TestSummariesInCore(t *testing.T) {
	for _, lang := range i18n.UILangs {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "i18n", "locales", "core."+lang+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		var core map[string]any
		if err := toml.Unmarshal(data, &core); err != nil {
			t.Fatal(err)
		}
		for _, c := range commands() {
			if _, ok := core[c.summary]; !ok {
				t.Errorf("core.%s.toml has no %s, the summary of %s", lang, c.summary, c.name)
			}
		}
	}
}
