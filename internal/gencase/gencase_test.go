package gencase

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/workbook-course/workbook/checker"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, err string
		none            bool
	}{
		{"none", "order: 1\n", "", true},
		{"flags", "generate:\n  args:\n    - flag: -n\n      range: [1, 3]\n", "", false},
		{"rest", "generate:\n  rest:\n    choice: [x, .]\n    length: [1, 4]\n    join: true\n", "", false},
		{"empty", "generate:\n  count: 2\n", "neither args nor rest", false},
		{"both", "generate:\n  args:\n    - flag: -n\n      range: [1, 3]\n      choice: [a]\n", "both given", false},
		{"reversed", "generate:\n  args:\n    - flag: -n\n      range: [3, 1]\n", "is empty", false},
		{"bad flag", "generate:\n  args:\n    - flag: n\n      range: [1, 3]\n", "must look like -name", false},
		{"bad length", "generate:\n  rest:\n    choice: [x]\n    length: [4, 1]\n", "length must be", false},
		{"count", "generate:\n  count: 99\n  args:\n    - flag: -n\n      range: [1, 3]\n", "not from 0 to 50", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := Parse([]byte(tc.yaml))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (spec == nil) != tc.none {
				t.Fatalf("spec = %+v, want none: %v", spec, tc.none)
			}
		})
	}
}

func TestDraw(t *testing.T) {
	spec := &Spec{
		Args: []Arg{{Flag: "-n", Range: []int{2, 4}}, {Flag: "-rule", Choice: []string{"a", "b"}}, {Flag: "-opt", Range: []int{7, 7}, Optional: true}},
		Rest: &Rest{Choice: []string{"x", "."}, Length: []int{1, 5}, Join: true},
	}
	r := rand.New(rand.NewPCG(1, 2))
	sawOpt, sawNoOpt := false, false
	for range 200 {
		args := spec.Draw(r)
		if args[0] != "-n" || args[1] < "2" || args[1] > "4" || len(args[1]) != 1 {
			t.Fatalf("-n drawn as %q", args[:2])
		}
		if args[2] != "-rule" || (args[3] != "a" && args[3] != "b") {
			t.Fatalf("-rule drawn as %q", args[2:4])
		}
		rest := args[4:]
		if len(rest) == 3 && rest[0] == "-opt" {
			sawOpt = true
			rest = rest[2:]
		} else {
			sawNoOpt = true
		}
		if len(rest) != 1 || len(rest[0]) < 1 || len(rest[0]) > 5 || strings.Trim(rest[0], "x.") != "" {
			t.Fatalf("rest drawn as %q", rest)
		}
	}
	if !sawOpt || !sawNoOpt {
		t.Errorf("an optional flag was always or never drawn: with %v, without %v", sawOpt, sawNoOpt)
	}
}

// fakeRef answers as a program that prints its arguments and exits 2 for "bad".
type fakeRef struct{ calls int }

func (f *fakeRef) Output(_ context.Context, lang string, args []string) (string, int, error) {
	f.calls++
	if slices.Contains(args, "bad") {
		return "", 2, nil
	}
	return lang + ": " + strings.Join(args, " ") + "\n", 0, nil
}

func TestCases(t *testing.T) {
	spec := &Spec{Count: 5, Args: []Arg{{Flag: "-w", Choice: []string{"ok", "bad", "two words"}}}}
	ctx := context.Background()
	a, drawnA, err := Cases(ctx, spec, 42, &fakeRef{}, "bg")
	if err != nil {
		t.Fatal(err)
	}
	b, drawnB, err := Cases(ctx, spec, 42, &fakeRef{}, "bg")
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 5 || len(drawnA) != 5 {
		t.Fatalf("%d cases, %d drawn; want 5", len(a), len(drawnA))
	}
	for i := range a {
		if string(a[i].Script) != string(b[i].Script) || !slices.Equal(drawnA[i].Args, drawnB[i].Args) {
			t.Errorf("case %d differs between two draws with one seed", i)
		}
		c, err := checker.ParseCase(a[i].Name+".txtar", a[i].Script)
		if err != nil {
			t.Fatalf("%s: %v\n%s", a[i].Name, err, a[i].Script)
		}
		if c.Visible || c.Titles["bg"] == "" || c.Titles["ru"] == "" || c.Titles["en"] == "" {
			t.Errorf("%s: visible %v, titles %v", c.Name, c.Visible, c.Titles)
		}
		script := string(a[i].Script)
		switch drawnA[i].Args[1] {
		case "bad":
			if !strings.Contains(script, "! run -w bad\nstatus 2\n") {
				t.Errorf("a usage error drawn as\n%s", script)
			}
		case "two words":
			if !strings.Contains(script, "run -w 'two words'\nexpect want\n-- want.bg --\nbg: -w two words\n") {
				t.Errorf("an argument with a space drawn as\n%s", script)
			}
		case "ok":
			if !strings.Contains(script, "run -w ok\nexpect want\n-- want.bg --\nbg: -w ok\n") {
				t.Errorf("drawn as\n%s", script)
			}
		}
	}
	c, _, err := Cases(ctx, spec, 43, &fakeRef{}, "bg")
	if err != nil {
		t.Fatal(err)
	}
	same := true
	for i := range c {
		same = same && string(c[i].Script) == string(a[i].Script)
	}
	if same {
		t.Error("seeds 42 and 43 drew the same five cases")
	}
}

// TestMetricsCases: a scenario exercise's drawn cases judge the figures, with no reference run.
func TestMetricsCases(t *testing.T) {
	spec := &Spec{Count: 3, Metrics: true, Args: []Arg{{Flag: "-seed", Range: []int{0, 1 << 30}}}}
	cases, drawn, err := Cases(context.Background(), spec, 7, nil, "ru")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		want := "run -seed " + drawn[i].Args[1] + "\nmetrics\n"
		if !strings.HasSuffix(string(c.Script), want) || strings.Contains(string(c.Script), "expect") {
			t.Errorf("drawn as\n%s\nwant it to end %q", c.Script, want)
		}
	}
}

// TestReference builds a small reference solution once, runs it, and finds it in the cache the
// second time.
func TestReference(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	cacheDir, userCache := warmGoCache(t)
	t.Setenv("XDG_CACHE_HOME", cacheDir)
	t.Setenv("HOME", t.TempDir())
	fsys := fstest.MapFS{"sol/bg/main.go": {Data: []byte("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tif len(os.Args) > 2 {\n\t\tos.Exit(2)\n\t}\n\tfmt.Println(\"здравей\", os.Args[1:])\n}\n")}}
	ref := Reference(fsys, map[string]string{"bg": "sol/bg"})
	ctx := context.Background()
	for _, tc := range []struct {
		args []string
		out  string
		code int
	}{
		{[]string{"a"}, "здравей [a]\n", 0},
		{[]string{"a", "b"}, "", 2},
	} {
		out, code, err := ref.Output(ctx, "bg", tc.args)
		if err != nil || out != tc.out || code != tc.code {
			t.Errorf("Output(%q) = %q, %d, %v; want %q, %d", tc.args, out, code, err, tc.out, tc.code)
		}
	}
	again := Reference(fsys, map[string]string{"bg": "sol/bg"})
	exe, err := again.executable(ctx, "bg")
	if err != nil || exe != ref.exes["bg"] {
		t.Errorf("second reference: %q, %v; want the cached %q", exe, err, ref.exes["bg"])
	}
	t.Logf("reference executable %s (cache folder %q)", ref.exes["bg"], ref.cache)
	// (With -count above 1 the checker keeps the folders of the first run: its caches are chosen
	// once per process.)
	// The test's own folder, not the user's: compared with the folder warmGoCache made, since the
	// user's build cache may itself sit in a shared parent such as /tmp.
	if userCache != "" && !strings.HasPrefix(ref.cache, cacheDir+string(filepath.Separator)) {
		t.Errorf("the reference cache is %s, outside the test's own folder %s", ref.cache, cacheDir)
	}
	if _, _, err := ref.Output(ctx, "ru", nil); err == nil {
		t.Error("a language without a solution gave no error")
	}
}

// caches is the folder of the test's caches, made once per test binary and removed by TestMain:
// the checker chooses its cache folders (and builds its sandbox init there) once per process, so a
// folder removed after one run of a test (-count 2) would leave the next run pointing at nothing.
var caches struct {
	once            sync.Once
	dir, userCache  string
	link, noLinkWhy string
	err             error
}

// TestMain removes the test's cache folder, if a test made it.
func TestMain(m *testing.M) {
	code := m.Run()
	if caches.dir != "" {
		os.RemoveAll(caches.dir)
	}
	os.Exit(code)
}

// warmGoCache gives the test caches of workbook's own that no earlier run of the test binary has
// filled, beside the user's warm Go build cache: $GOCACHE becomes a link named go-build, in a new
// folder, to the real build cache, so the checker keeps its executables and the reference
// solutions' in that new folder (beside go-build) while go build finds the standard library already
// compiled. Without the link, a new HOME would make a new, empty build cache, and the build would
// compile fmt, os and the runtime from scratch (about 45 s on two cores). Where no link can be
// made, the build cache stays new. It returns the new folder and the user's build cache ("" for
// none).
func warmGoCache(t *testing.T) (dir, userCache string) {
	t.Helper()
	goBin, err := checker.GoTool()
	if err != nil {
		t.Skip(err)
	}
	caches.once.Do(func() {
		if caches.dir, caches.err = os.MkdirTemp("", "workbook-gencase-test-"); caches.err != nil {
			return
		}
		out, err := exec.Command(goBin, "env", "GOCACHE").Output()
		cache := strings.TrimSpace(string(out))
		if err != nil || cache == "" || cache == "off" {
			caches.noLinkWhy = fmt.Sprintf("no Go build cache to share (%v)", err)
			return
		}
		caches.userCache = cache
		link := filepath.Join(caches.dir, "go-build")
		if err := os.Symlink(cache, link); err != nil {
			caches.noLinkWhy = fmt.Sprintf("no link to the Go build cache (%v)", err)
			return
		}
		caches.link = link
	})
	if caches.err != nil {
		t.Fatal(caches.err)
	}
	if caches.link == "" {
		t.Logf("%s: the build starts cold", caches.noLinkWhy)
	} else {
		t.Setenv("GOCACHE", caches.link)
	}
	return caches.dir, caches.userCache
}
