package checker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// traceAddr finds the addresses a stack trace shows as arguments.
var traceAddr = regexp.MustCompile(`0x[0-9a-f]{6,}`)

// inOneExe reports whether p runs from one executable (its path goes through its selector).
func inOneExe(p *Program) bool {
	return p != nil && strings.Contains(p.Path, string(filepath.Separator)+".."+string(filepath.Separator))
}

// TestOneExeHostile builds a batch in which some programs share one executable and some must not,
// and checks that no program can reach another: a program whose package initialisation prints is
// built alone and prints into no one else's run; a program that panics shows a separate build's
// trace, with no other package's name or path; os.Args, flag's name and os.Executable read as a
// separate build's; the executable runs nothing without a program's own token.
func TestOneExeHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	defer func(old bool) { testNoCache = old }(testNoCache)
	testNoCache = true
	srcs := []string{
		// 0: its name and flags, as a separate build would see them.
		writeProgram(t, map[string]string{"main.go": `package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	n := flag.Int("n", 1, "how many")
	flag.Parse()
	exe, _ := os.Executable()
	fmt.Println(os.Args[0], flag.CommandLine.Name(), exe, *n, flag.Args())
}
`}),
		// 1: prints from a package-level initialiser: never in one executable.
		writeProgram(t, map[string]string{"main.go": "package main\n\nimport \"fmt\"\n\nvar _, _ = fmt.Println(\"SPILLED\")\n\nfunc main() { fmt.Println(\"one\") }\n"}),
		// 2: prints from init: never in one executable.
		writeProgram(t, map[string]string{"main.go": "package main\n\nimport \"os\"\n\nfunc init() { os.Stdout.WriteString(\"SPILLED\\n\") }\n\nfunc main() { os.Stdout.WriteString(\"two\\n\") }\n"}),
		// 3: panics in a method called from a goroutine's function, with a value of its own type.
		writeProgram(t, map[string]string{"main.go": `package main

import (
	"fmt"
	"os"
)

type level string

type box struct{ n int }

func (b *box) open() {
	fmt.Fprintf(os.Stderr, "%d\n", level("x"))
	panic(fmt.Sprint("boom ", b.n))
}

func main() {
	b := &box{n: 3}
	b.open()
}
`}),
		// 4: a plain program beside them.
		writeProgram(t, map[string]string{"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"four\") }\n"}),
	}
	progs, errs := BuildMany(context.Background(), srcs, Limits{})
	defer func() {
		for _, p := range progs {
			p.Close()
		}
	}()
	for i, want := range []bool{true, false, false, true, true} {
		if errs[i] != nil {
			t.Fatalf("program %d: %v", i, errs[i])
		}
		if got := inOneExe(progs[i]); got != want {
			t.Errorf("program %d in one executable: %v, want %v", i, got, want)
		}
	}
	ctx := context.Background()
	for i, p := range progs {
		out := p.Run(ctx, "", []string{"-n", "2", "a"}, "")
		if strings.Contains(out.Stdout+out.Stderr, "SPILLED") && i != 1 && i != 2 {
			t.Errorf("program %d shows another's initialisation: %q %q", i, out.Stdout, out.Stderr)
		}
		if strings.Contains(out.Stderr, "learners") || strings.Contains(out.Stderr, dispatchFile) || strings.Contains(out.Stderr, oneExePackage) ||
			strings.Contains(out.Stderr, "p00") {
			t.Errorf("program %d names the batch: %q", i, out.Stderr)
		}
	}
	self := filepath.Clean(progs[0].Path)
	out := progs[0].Run(ctx, "", []string{"-n", "2", "a"}, "")
	if want := self + " " + self + " " + self + " 2 [a]\n"; out.Stdout != want || out.Status != Pass {
		t.Errorf("program 0 printed %q (%s), want %q", out.Stdout, out.Status, want)
	}
	usage := progs[0].Run(ctx, "", []string{"-x"}, "")
	if want := "flag provided but not defined: -x\nUsage of " + self + ":\n"; !strings.HasPrefix(usage.Stderr, want) || usage.ExitCode != 2 {
		t.Errorf("usage: %q (exit %d), want it to start %q", usage.Stderr, usage.ExitCode, want)
	}

	// The same programs built alone print the same, but for their own paths.
	for _, i := range []int{0, 3} {
		alone, err := Build(ctx, srcs[i], Limits{})
		if err != nil {
			t.Fatal(err)
		}
		defer alone.Close()
		for _, args := range [][]string{{"-n", "2", "a"}, {"-x"}} {
			a, b := alone.Run(ctx, "", args, ""), progs[i].Run(ctx, "", args, "")
			a.Stdout = strings.ReplaceAll(a.Stdout, alone.Path, self)
			a.Stderr = strings.ReplaceAll(a.Stderr, alone.Path, self)
			// A pointer argument in a trace is an address, another in every run.
			a.Stderr, b.Stderr = traceAddr.ReplaceAllString(a.Stderr, "0x…"), traceAddr.ReplaceAllString(b.Stderr, "0x…")
			if a.Stdout != b.Stdout || a.Stderr != b.Stderr || a.ExitCode != b.ExitCode || a.Status != b.Status {
				t.Errorf("program %d %q: alone %q %q %d %s, in one executable %q %q %d %s", i, args,
					a.Stdout, a.Stderr, a.ExitCode, a.Status, b.Stdout, b.Stderr, b.ExitCode, b.Status)
			}
		}
	}
	trace := progs[3].Run(ctx, "", nil, "")
	if !strings.Contains(trace.Stderr, "%!d(main.level=x)\npanic: boom 3\n\ngoroutine 1 [running]:\nmain.(*box).open(") ||
		!strings.Contains(trace.Stderr, "\nmain.main()\n\tmain.go:19 ") || trace.Status != Crash {
		t.Errorf("program 3's trace:\n%s", trace.Stderr)
	}

	// Without its token, or with a wrong one, the executable runs no one's program.
	exe := self
	sep := string(filepath.Separator)
	for _, arg0 := range []string{exe, filepath.Dir(exe) + sep + "0123456789abcdef0123456789abcdef" + sep + ".." + sep + filepath.Base(exe)} {
		cmd := exec.Command(exe)
		cmd.Args = []string{arg0}
		got, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || strings.Contains(string(got), "four") {
			t.Errorf("argv[0] %s: %v %q", arg0, err, got)
		}
	}
	if _, err := os.Stat(exe); err != nil {
		t.Error(err)
	}
}

// TestOneExeUnreadable: one executable (the code of its whole batch) has oneExeMode, and where runs
// have a user of their own a program cannot read it, only run it.
func TestOneExeUnreadable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	defer func(old bool) { testNoCache = old }(testNoCache)
	testNoCache = true
	srcs := []string{
		writeProgram(t, map[string]string{"main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\t_, err := os.ReadFile(\"/proc/self/exe\")\n\tfi, _ := os.Stat(\"/proc/self/exe\")\n\tfmt.Println(err != nil, fi.Mode().Perm(), os.Getuid())\n}\n"}),
		writeProgram(t, map[string]string{"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"two\") }\n"}),
	}
	progs, errs := BuildMany(context.Background(), srcs, Limits{})
	defer closeAll(progs)
	for i := range progs {
		if errs[i] != nil || !inOneExe(progs[i]) {
			t.Fatalf("program %d: %v, in one executable %v", i, errs[i], inOneExe(progs[i]))
		}
	}
	fi, err := os.Stat(progs[0].Path)
	if err != nil || fi.Mode().Perm() != oneExeMode {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	out := progs[0].Run(context.Background(), "", nil, "")
	var denied bool
	var mode string
	var uid int
	if _, err := fmt.Sscan(out.Stdout, &denied, &mode, &uid); err != nil {
		t.Fatalf("the program printed %q %q", out.Stdout, out.Stderr)
	}
	// A checker run by root runs programs, at the namespaces level, as users of their own (mapped
	// or set): they may not read it. A run as the checker's own user may read what its owner may.
	if os.Getuid() == 0 && progs[0].Isolation().Level == "namespaces" && !denied {
		t.Errorf("a run (user %d in its view) read its executable (mode %s)", uid, mode)
	}
	t.Logf("level %s, run as %d in its view: read denied %v", progs[0].Isolation().Level, uid, denied)
}
