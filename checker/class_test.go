package checker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// honestProgram is an honest learner's program: it prints its marker and its arguments, so that
// every case has one right answer, and its executable can be told from any other by the marker.
func honestProgram(k int) map[string]string {
	return map[string]string{"main.go": fmt.Sprintf(`package main

import (
	"fmt"
	"os"
	"strings"
)

func main() { fmt.Println("wbmark-honest-%d", strings.Join(os.Args[1:], " ")) }
`, k)}
}

// snoopProgram looks for another program's code where a program built into one executable with its
// classmates would find it: in its own executable (/proc/self/exe) and in its own memory
// (/proc/self/mem, region by region). The needle is kept XORed, so the program's own copy of it is
// not what it finds. It prints how many times it found the honest programs' marker.
const snoopProgram = `package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

var needle = []byte{0x22, 0x37, 0x38, 0x34, 0x27, 0x3e, 0x78, 0x3d, 0x3a, 0x3b, 0x30, 0x26, 0x21, 0x78} // "wbmark-honest-" ^ 0x55

func count(b []byte) int {
	n := 0
	for i := 0; i+len(needle) <= len(b); i++ {
		j := 0
		for j < len(needle) && b[i+j]^0x55 == needle[j] {
			j++
		}
		if j == len(needle) {
			n++
		}
	}
	return n
}

func main() {
	found := 0
	if exe, err := os.ReadFile("/proc/self/exe"); err == nil {
		found += count(exe)
	}
	if maps, err := os.Open("/proc/self/maps"); err == nil {
		mem, err := os.Open("/proc/self/mem")
		if err == nil {
			sc := bufio.NewScanner(maps)
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) < 2 || !strings.HasPrefix(f[1], "r") || strings.Contains(sc.Text(), "[vvar") {
					continue
				}
				lo, hi, _ := strings.Cut(f[0], "-")
				a, _ := strconv.ParseUint(lo, 16, 64)
				b, _ := strconv.ParseUint(hi, 16, 64)
				if b-a > 64<<20 {
					continue
				}
				buf := make([]byte, b-a)
				if n, _ := mem.ReadAt(buf, int64(a)); n > 0 {
					found += count(buf[:n])
				}
			}
		}
	}
	fmt.Println("found", found)
}
`

// forgerProgram does not compile, and its compiler messages name the other packages of a batch
// (learners/p000, p001/…), as a blame read from the text would take them: the blame must stay
// with the forger.
func forgerProgram() map[string]string {
	var b strings.Builder
	b.WriteString("package main\n\nvar msg int = \"\\n# learners/p000\\np000/main.go:1:1: x\\n# learners/p001\\n\"\n\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "var _ = p%03d.Main\n", i)
	}
	b.WriteString("\nfunc main() {}\n")
	return map[string]string{"main.go": b.String()}
}

// someHangProgram spins when its argument is "spin" and prints it otherwise.
const someHangProgram = `package main

import (
	"fmt"
	"os"
)

func main() {
	if os.Args[1] == "spin" {
		for {
		}
	}
	fmt.Println("wbmark-somehang", os.Args[1])
}
`

func bombProgram(n int) map[string]string {
	var b strings.Builder
	b.WriteString("package main\n\nimport \"fmt\"\n\ntype T0 bool\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "type T%d struct{ a, b T%d }\n", i, i-1)
	}
	fmt.Fprintf(&b, "\nfunc eq(x, y *T%d) bool { return *x == *y }\n\nfunc main() { fmt.Println(eq(new(T%d), new(T%d))) }\n", n, n, n)
	return map[string]string{"main.go": b.String()}
}

// honestCases are the cases of an honest program k.
func honestCases(k int) []Case {
	var cs []Case
	for i, args := range []string{"a", "b c", "deadline 3"} {
		cs = append(cs, Case{Name: fmt.Sprintf("c%d", i), Visible: true,
			Script: fmt.Appendf(nil, "run %s\nexpect want\n-- want --\nwbmark-honest-%d %s\n", args, k, args)})
	}
	return cs
}

// TestClassBesideAttacks builds a class of honest programs in one BuildMany beside every attack a
// classmate can make at the checker's level (reading its own executable and memory for another's
// code, ballast, a compile-time bomb, compiler messages that name the others, a program that hangs
// in some cases, a sleeper), and checks that every honest program gets exactly the verdict it gets
// built and run alone; that each honest program was built in the batch (the blame did not move);
// that every executable holds its own program's marker and no other's; that the attacks get their
// own verdicts; and that the class waited about one build limit, not one per attack.
func TestClassBesideAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a class of programs")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the snooping program reads /proc")
	}
	t.Parallel() // with the other tests that build without the cache, after the tests that switch sandbox levels
	withoutExeCache(t)
	const honest = 5
	var srcs []string
	for k := 0; k < honest; k++ {
		srcs = append(srcs, writeProgram(t, honestProgram(k)))
	}
	attack := map[string]int{}
	add := func(name string, files map[string]string) {
		attack[name] = len(srcs)
		srcs = append(srcs, writeProgram(t, files))
	}
	add("snoop", map[string]string{"main.go": snoopProgram})
	add("ballast", map[string]string{"main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nvar ballast = [...]byte{700 << 20: 0}\n\nfunc main() { fmt.Println(\"wbmark-ballast\", ballast[len(os.Args)]) }\n"})
	add("bomb", bombProgram(28))
	add("forger", forgerProgram())
	add("somehang", map[string]string{"main.go": someHangProgram})
	add("sleeper", map[string]string{"main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nfunc main() {\n\tfmt.Println(\"wbmark-sleeper\")\n\ttime.Sleep(time.Hour)\n}\n"})
	// A build limit of 12 s: six without a new executable before the batch is stopped, six for the
	// bomb alone (which compiles for as long as it is let), well above the honest programs' links.
	lim := Limits{BuildTime: 12 * time.Second, RunTime: time.Second, WallTime: 4 * time.Second}
	ctx := context.Background()
	start := time.Now()
	progs, errs := BuildMany(ctx, srcs, lim)
	took := time.Since(start)
	defer closeAll(progs)
	t.Logf("the class of %d built in %s", len(srcs), took.Round(time.Millisecond))
	// How long the class waited is the machine's (builds are judged by their CPU time); what is the
	// checker's is that the bomb's build alone was stopped, and that the honest programs stayed in
	// the batch (below).
	for k := 0; k < honest; k++ {
		if errs[k] != nil {
			t.Fatalf("honest program %d: %v", k, errs[k])
		}
		if !progs[k].batched {
			t.Errorf("honest program %d was built alone: the batch blamed it for another's failure", k)
		}
	}
	// Every executable holds its own program and no other's.
	for i, p := range progs {
		if p == nil {
			continue
		}
		data, err := os.ReadFile(p.Path)
		if err != nil {
			t.Fatal(err)
		}
		if k := i; k < honest {
			if !bytes.Contains(data, fmt.Appendf(nil, "wbmark-honest-%d", k)) {
				t.Errorf("program %d: its executable lacks its own marker", i)
			}
		}
		for k := 0; k < honest; k++ {
			if k != i && bytes.Contains(data, fmt.Appendf(nil, "wbmark-honest-%d", k)) {
				t.Errorf("program %d: its executable holds honest program %d", i, k)
			}
		}
		for _, name := range []string{"somehang", "sleeper"} {
			if attack[name] != i && bytes.Contains(data, []byte("wbmark-"+name)) {
				t.Errorf("program %d: its executable holds the program %s", i, name)
			}
		}
	}
	// The attacks' own verdicts.
	var bf *BuildFailure
	if i := attack["ballast"]; !errors.As(errs[i], &bf) || bf.Reason != "static_data" {
		t.Errorf("ballast: %v, want a build error static_data", errs[i])
	}
	if i := attack["bomb"]; !errors.As(errs[i], &bf) || (bf.Reason != "build_time" && bf.Reason != "build_memory") {
		t.Errorf("bomb: %v, want a build error build_time or build_memory", errs[i])
	}
	if i := attack["forger"]; !errors.As(errs[i], &bf) || bf.Verdict != BuildError || !strings.Contains(bf.Log, "main.go") {
		t.Errorf("forger: %v, want its own build error", errs[i])
	}
	if i := attack["snoop"]; errs[i] != nil {
		t.Errorf("snoop: %v", errs[i])
	} else if out := progs[i].Run(ctx, "", nil, ""); out.Stdout != "found 0\n" {
		t.Errorf("snoop found another program's code: %q (%s, %s)", out.Stdout, out.Status, out.Stderr)
	}
	hangCases := []Case{}
	for i, a := range []string{"one", "spin", "two", "spin", "three", "four"} {
		hangCases = append(hangCases, Case{Name: fmt.Sprintf("h%d", i), Script: fmt.Appendf(nil, "run %s\nexpect want\n-- want --\nwbmark-somehang %s\n", a, a)})
	}
	if i := attack["somehang"]; errs[i] != nil {
		t.Errorf("somehang: %v", errs[i])
	} else {
		res := &Result{Cases: progs[i].RunCases(ctx, hangCases, Options{})}
		res.Summarize()
		if res.Passed != 4 || res.Verdict != Timeout {
			t.Errorf("somehang: %s, %d passed, want timeout with the 4 cases that finish passed", res.Verdict, res.Passed)
		}
	}
	if i := attack["sleeper"]; errs[i] != nil {
		t.Errorf("sleeper: %v", errs[i])
	} else if out := progs[i].Run(ctx, "", nil, ""); out.Status != Timeout || out.Reason != idleReason(ReasonSlept) {
		t.Errorf("sleeper: %s %q, want timeout, %s", out.Status, out.Reason, idleReason(ReasonSlept))
	}
	// Every honest verdict is the one the program gets alone.
	for k := 0; k < honest; k++ {
		alone, err := Build(ctx, srcs[k], lim)
		if err != nil {
			t.Fatalf("honest program %d alone: %v", k, err)
		}
		a := &Result{Cases: alone.RunCases(ctx, honestCases(k), Options{})}
		b := &Result{Cases: progs[k].RunCases(ctx, honestCases(k), Options{})}
		alone.Close()
		a.Summarize()
		b.Summarize()
		if a.Verdict != Pass || b.Verdict != a.Verdict || b.Passed != a.Passed {
			t.Errorf("honest program %d: %s (%d passed) in the class, %s (%d passed) alone", k, b.Verdict, b.Passed, a.Verdict, a.Passed)
		}
		for c := range a.Cases {
			if a.Cases[c].Got != b.Cases[c].Got || a.Cases[c].Status != b.Cases[c].Status {
				t.Errorf("honest program %d, case %s: %s %q in the class, %s %q alone", k, a.Cases[c].Name, b.Cases[c].Status, b.Cases[c].Got, a.Cases[c].Status, a.Cases[c].Got)
			}
		}
	}
}
