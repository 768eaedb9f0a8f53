package checker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestScriptWords(t *testing.T) {
	tests := []struct {
		line  string
		words []string
		ok    bool
	}{
		{"", nil, true},
		{"   \t ", nil, true},
		{"# a comment", nil, true},
		{"run", []string{"run"}, true},
		{"run -ticks 3  -timeout 4\r", []string{"run", "-ticks", "3", "-timeout", "4"}, true},
		{"! run -budget -1", []string{"!", "run", "-budget", "-1"}, true},
		{"stdout 'storm \\[-rule'", []string{"stdout", `storm \[-rule`}, true},
		{"run 'it''s' ''", []string{"run", "it's", ""}, true},
		{"run a'b c'd", []string{"run", "ab cd"}, true},
		{"run x # the rest is a comment 'unclosed", []string{"run", "x"}, true},
		{"run a#b", []string{"run", "a"}, true},
		{"run '#not a comment'", []string{"run", "#not a comment"}, true},
		{"run '$HOME'", []string{"run", "$HOME"}, true},
		{"run 'x[1]'", []string{"run", "x[1]"}, true},
		{"run x[1]", []string{"run", "x[1]"}, true},
		// What testscript reads otherwise: variables, conditions, an unterminated quote.
		{"run $WORK/x", nil, false},
		{"run a$b", nil, false},
		{"[short] skip", nil, false},
		{"run [x]", nil, false},
		{"run 'unterminated", nil, false},
	}
	for _, tt := range tests {
		words, ok := scriptWords(tt.line)
		if ok != tt.ok || (ok && !reflect.DeepEqual(words, tt.words)) {
			t.Errorf("scriptWords(%q) = %q, %v; want %q, %v", tt.line, words, ok, tt.words, tt.ok)
		}
	}
}

func TestParseDirect(t *testing.T) {
	tests := []struct {
		name   string
		script string
		ok     bool
	}{
		{"plain", "run\nexpect want\n-- want --\nx\n", true},
		{"exit code", "! run -n 0\nstatus 2\n! stdout .\nstderr .\n", true},
		{"comments", "# bg: заглавие\n# ru: заголовок\nrun # why\n\nexpect want\n-- want.bg --\nx\n-- want.ru --\nx\n", true},
		{"input file", "run -graph graph.txt\nexpect want\n-- graph.txt --\na b\n-- want --\nx\n", true},
		{"other command", "exec cat x\n", false},
		{"cmp", "run\ncmp stdout want\n-- want --\nx\n", false},
		{"condition", "[windows] skip\nrun\n", false},
		{"variable", "run $WORK/x\n", false},
		{"count", "run\nstdout -count=2 x\n", false},
		{"bad pattern", "run\nstdout '('\n", false},
		{"two patterns", "run\nstdout a b\n", false},
		{"negated expect", "run\n! expect want\n-- want --\n", false},
		{"expect without a name", "run\nexpect\n", false},
		{"status not a number", "run\nstatus two\n", false},
		{"negated status", "! run\n! status 2\n", false},
		{"bang alone", "run\n!\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dc, ok := parseDirect([]byte(tt.script))
			if ok != tt.ok {
				t.Fatalf("parseDirect: %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			for _, l := range dc.lines {
				if l.name == "expect" {
					if _, ok := dc.inputs[l.args[0]]; ok {
						t.Errorf("expected file %s among the inputs", l.args[0])
					}
				}
			}
		})
	}
	dc, _ := parseDirect([]byte("run -graph graph.txt\nexpect want\n-- graph.txt --\na b\n-- want.bg --\nx\n-- want.ru --\ny\n"))
	if len(dc.inputs) != 1 || string(dc.inputs["graph.txt"]) != "a b\n" || len(dc.expected) != 2 {
		t.Errorf("inputs %q, expected %q", dc.inputs, dc.expected)
	}
	if l := dc.lines[1]; l.num != 2 || l.name != "expect" {
		t.Errorf("second line: %+v", l)
	}
}

// echoProgram prints each argument on a line of its own, but: file=NAME prints the file NAME,
// err=TEXT prints TEXT on stderr, exit=N exits with code N, crlf prints a line ending in CRLF,
// write=NAME writes the file NAME in its folder and ls lists its folder.
const echoProgram = `package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	for _, a := range os.Args[1:] {
		switch {
		case strings.HasPrefix(a, "file="):
			b, err := os.ReadFile(strings.TrimPrefix(a, "file="))
			if err != nil {
				fmt.Fprintln(os.Stderr, "no file")
				os.Exit(3)
			}
			os.Stdout.Write(b)
		case strings.HasPrefix(a, "err="):
			fmt.Fprintln(os.Stderr, strings.TrimPrefix(a, "err="))
		case strings.HasPrefix(a, "exit="):
			n, _ := strconv.Atoi(strings.TrimPrefix(a, "exit="))
			os.Exit(n)
		case a == "crlf":
			fmt.Print("crlf\r\n")
		case strings.HasPrefix(a, "write="):
			if err := os.WriteFile(strings.TrimPrefix(a, "write="), []byte("left\n"), 0o644); err != nil {
				fmt.Println("cannot write:", err)
			}
		case a == "ls":
			entries, _ := os.ReadDir(".")
			fmt.Print("ls:")
			for _, e := range entries {
				fmt.Print(" ", e.Name())
			}
			fmt.Println()
		default:
			fmt.Println(a)
		}
	}
}
`

// TestDirectMatchesTestscript runs cases both ways, straight from memory and through testscript,
// and checks that every field of every case comes out the same: passing and failing at each kind
// of line, with quoting, input files, stdout and stderr patterns, and cases that only testscript
// can run.
func TestDirectMatchesTestscript(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "main.go"), []byte(echoProgram), 0o644)
	prog, err := Build(context.Background(), src, Limits{RunTime: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	scripts := []string{
		"run a b\nexpect want\n-- want --\na\nb\n",
		"run a b\nexpect want\n-- want --\na\nc\n",
		"run 'a b' 'it''s' ''\nexpect want\n-- want --\na b\nit's\n\n",
		"run crlf\nexpect want\n-- want --\ncrlf\n",
		"run x\nexpect want\n-- want.bg --\nx\n-- want.ru --\nx\n",
		"run x\nexpect want\n-- want.ru --\nx\n",
		"run x\nexpect other\n-- want --\nx\n",
		"expect want\n-- want --\n",
		"status 0\n",
		"run file=in.txt\nexpect want\n-- in.txt --\nfrom the file\n-- want --\nfrom the file\n",
		"run file=sub/in.txt\nexpect want\n-- sub/in.txt --\nnested\n-- want --\nnested\n",
		"run file=want\nexpect want\n-- want --\nsecret\n",
		"run file=absent.txt\n",
		"! run err=bad exit=2\nstatus 2\n! stdout .\nstderr bad\n",
		"! run err=bad exit=2\nstatus 3\n",
		"! run a exit=2\n! stdout .\n",
		"! run exit=2\nstderr .\n",
		"! run err=bad exit=2\n! stderr '^bad$'\n",
		"run a\nstdout 'b'\n",
		"run a\n! run exit=1\n",
		"! run a\n",
		"run exit=4\nexpect want\n-- want --\n",
		"run storm '[-rule'\nstdout 'storm \\[-rule'\n",
		"# a comment\n\nrun a # and one here\nstdout ^a$\n",
		"stdout .\n",
		"! stdout .\nrun a\n",
		// Only testscript runs these: both ways go through it, and must still agree.
		"run a\nstdout -count=1 a\n",
		"run a\nexists want\n-- want --\n",
		"[!exec:sh] skip\nrun a\n",
		"env X=y\nrun a $X\nstdout ^y$\n",
		"bogus\n",
	}
	var cases []Case
	for i, s := range scripts {
		cases = append(cases, Case{Name: fmt.Sprintf("c%02d", i), Script: []byte(s), Titles: map[string]string{}})
	}
	for _, par := range []int{1, 3} {
		opt := Options{Lang: "bg", Parallel: par}
		direct := prog.runCases(context.Background(), cases, opt, true)
		scripted := prog.runCases(context.Background(), cases, opt, false)
		for i := range cases {
			compareCases(t, fmt.Sprintf("parallel %d, %q", par, scripts[i]), direct[i], scripted[i], prog)
		}
	}
	got := prog.RunCases(context.Background(), cases[:1], Options{})
	if got[0].Status != Pass {
		t.Errorf("the first case: %+v", got[0])
	}
}

// TestRunFolderFresh checks that every run starts in an empty folder, or one holding just the
// input files its arguments name, whatever the runs before it left, and that the folder runs
// without input files are handed where the runs have a private /tmp (emptyDir) stays empty.
func TestRunFolderFresh(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "main.go"), []byte(echoProgram), 0o644)
	for _, lc := range testLevels(t) {
		t.Run(lc.name, func(t *testing.T) {
			defer lc.use()()
			prog, err := Build(context.Background(), src, Limits{RunTime: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer prog.Close()
			runFolderFresh(t, prog)
		})
	}
}

func runFolderFresh(t *testing.T, prog *Program) {
	cases := []Case{
		{Name: "writes", Script: []byte("run write=x ls\nstdout '^ls: x$'\n")},
		{Name: "input", Script: []byte("run file=in.txt write=y ls\nstdout '^ls: in.txt y$'\n-- in.txt --\ninput\n")},
		{Name: "clean", Script: []byte("run ls\nstdout '^ls:$'\n")},
		{Name: "clean again", Script: []byte("run ls write=z\nstdout '^ls:$'\n")},
	}
	for round := 0; round < 3; round++ {
		for _, par := range []int{1, 4} {
			for _, r := range prog.RunCases(context.Background(), append(cases, cases...), Options{Parallel: par}) {
				if r.Status != Pass {
					t.Errorf("round %d, parallel %d, case %s: %s %s %q %q", round, par, r.Name, r.Status, r.Message, r.Got, r.Stderr)
				}
			}
		}
	}
	if empty := prog.emptyDir(); empty != "" {
		if entries, err := os.ReadDir(empty); err != nil || len(entries) != 0 {
			t.Errorf("the empty folder: %v, %v", entries, err)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(prog.scratch, "runs")); len(entries) != 0 {
		t.Errorf("%d run folders left", len(entries))
	}
}

// compareCases reports how a case's result straight from memory (d) differs from its result
// through testscript (s). A failed stdout or stderr line is a code in the one and testscript's
// words in the other, and times differ.
func compareCases(t *testing.T, label string, d, s CaseResult, progs ...*Program) {
	t.Helper()
	if d.Pattern != "" {
		stream := strings.TrimSuffix(strings.TrimSuffix(d.Message, "_no_match"), "_match")
		words := fmt.Sprintf("match for %#q found in %s", d.Pattern, stream)
		if !strings.Contains(s.Message, words) {
			t.Errorf("%s: message %s %q, through testscript %q", label, d.Message, d.Pattern, s.Message)
		}
		d.Message, s.Message, d.Pattern = "", "", ""
	}
	d.Duration, s.Duration = 0, 0
	for _, p := range progs {
		d.Stderr = strings.ReplaceAll(d.Stderr, filepath.Clean(p.Path), "PROG")
		s.Stderr = strings.ReplaceAll(s.Stderr, filepath.Clean(p.Path), "PROG")
	}
	d.Stderr, s.Stderr = traceAddr.ReplaceAllString(d.Stderr, "0x…"), traceAddr.ReplaceAllString(s.Stderr, "0x…")
	if d.Status == MemoryLimit && s.Status == MemoryLimit {
		// How a run dies at its memory limit (the Go runtime's own out-of-memory trace, from wherever
		// it was allocating, or the watchdog's kill) depends on timing, not on the way it was run.
		d.Stderr, s.Stderr = "", ""
	}
	if !reflect.DeepEqual(d, s) {
		t.Errorf("%s:\n  direct     %+v\n  testscript %+v", label, d, s)
	}
}

// TestDirectCourse checks that every case of the course runs without testscript. That each comes
// out as it does through testscript, against every program of the course, TestBatchMatchesAlone checks.
func TestDirectCourse(t *testing.T) {
	seen := map[string]bool{}
	for _, cp := range coursePrograms(t) {
		for _, c := range cp.cases {
			if seen[c.Source] {
				continue
			}
			seen[c.Source] = true
			if _, ok := parseDirect(c.Script); !ok {
				t.Errorf("%s: case %s needs testscript", cp.name, c.Name)
			}
		}
	}
	if len(seen) < 100 {
		t.Errorf("only %d cases in the course", len(seen))
	}
}
