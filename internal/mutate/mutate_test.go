package mutate

import (
	"context"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

const prog = `package main

import (
	"fmt"
	"os"
)

func main() {
	n := len(os.Args) - 1
	if n > 2 {
		fmt.Fprintln(os.Stderr, "too many")
		os.Exit(2)
	}
	total := 0
	for i := 0; i < n; i++ {
		total += i
	}
	fmt.Println(max(total, n), "done")
}
`

func TestGenerate(t *testing.T) {
	ms, err := Generate("main.go", []byte(prog))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range ms {
		got[m.Key()] = true
		if !strings.Contains(string(m.Src), "package mutant") || !strings.Contains(string(m.Src), "func Main()") {
			t.Errorf("%s: the mutant is not a package mutant with func Main", m)
		}
	}
	for _, tc := range []struct {
		key  string
		want bool
	}{
		{"10: `n > 2` → `n >= 2`", true},
		{"10: `2` → `3`", true},
		{"10: `2` → `1`", true},
		{"10: negated `n > 2`", true},
		{"9: `len(os.Args) - 1` → `len(os.Args) + 1`", true},
		{"15: `i < n` → `i <= n`", true},
		{"15: `i++` → `i--`", true},
		{"16: `total += i` → `total -= i`", true},
		{"16: removed `total += i`", true},
		{"12: removed `os.Exit(2)`", true},
		// Not made: what only goes to stderr, the order of max's arguments, a removal that leaves an
		// unused variable (it would not build), a string.
		{"11: removed `fmt.Fprintln(os.Stderr, \"too many\")`", false},
		{"18: swapped `total` and `n` in `max`(…)", false},
		{"14: removed `total := 0`", false},
	} {
		if got[tc.key] != tc.want {
			t.Errorf("mutant %q: made = %v, want %v", tc.key, got[tc.key], tc.want)
		}
	}
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[string(m.Src)] {
			t.Errorf("%s: the same file twice", m)
		}
		seen[string(m.Src)] = true
	}
}

func TestBase(t *testing.T) {
	for _, tc := range []struct {
		name, src, want, err string
	}{
		{"renamed", "package main\n\nfunc main() {}\n", "package mutant\n\nfunc Main() {}\n", ""},
		{"not main", "package lib\n\nfunc main() {}\n", "", "not main"},
		{"no main", "package main\n\nfunc run() {}\n", "", "no func main"},
		{"Main in the way", "package main\n\nfunc main() {}\n\nfunc Main() {}\n", "", "in the way"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Base("main.go", []byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestSelectMutant(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"run -a 1\nexpect want\n", "run @7 -a 1\nexpect want\n"},
		{"! run x\nstatus 2\n", "! run @7 x\nstatus 2\n"},
		{"run\n", "run @7\n"},
		{"# run in a comment\nrunning\n", "# run in a comment\nrunning\n"},
	} {
		got := string(selectMutant(checker.Case{Script: []byte(tc.script)}, 7).Script)
		if got != tc.want {
			t.Errorf("selectMutant(%q) = %q, want %q", tc.script, got, tc.want)
		}
	}
}

// TestRun builds the mutants of a small program and runs two cases against them: a mutant the cases
// cannot tell from the program survives, the others are killed by the case that catches them.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	src := []byte(`package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Println("args")
		return
	}
	fmt.Println("none")
}
`)
	ms, err := Generate("main.go", src)
	if err != nil {
		t.Fatal(err)
	}
	base, err := Base("main.go", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	set, err := Build(ctx, base, ms, checker.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	var cases []checker.Case
	for _, s := range []string{"run\nstdout '^none$'\n", "run x\nstdout args\n! stdout none\n"} {
		c, err := checker.ParseCase("c.txtar", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	out, err := set.Run(ctx, cases[:1], checker.Options{Lang: "bg"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{ // survives the first case alone
		"9: `len(os.Args) > 1` → `len(os.Args) >= 1`": false,
		"9: `1` → `2`":         true, // two arguments are never given
		"11: removed `return`": true,
	}
	for _, o := range out {
		if w, ok := want[o.Mutant.Key()]; ok && (o.KilledBy == "") != w {
			t.Errorf("%s: survived = %v, want %v", o.Mutant, o.KilledBy == "", w)
		}
	}
	out, err = set.Run(ctx, cases, checker.Options{Lang: "bg"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if o.Mutant.Key() == "11: removed `return`" && o.KilledBy == "" {
			t.Errorf("%s survives the case that prints with an argument", o.Mutant)
		}
	}
}
