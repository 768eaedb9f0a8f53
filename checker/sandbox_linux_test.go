//go:build linux

package checker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileWeakerLevels runs the built programs under each level weaker than the best one that this
// system can set up, so that every protection a level claims is tested.
func hostileWeakerLevels(t *testing.T, hs []hostile, progs map[string]*Program) {
	defer func() { testLevel = nil }()
	for _, wl := range weakerLevels(t) {
		l := *wl.l
		// The idle sessions of the levels before run as nobody too, and as root without a user
		// namespace RLIMIT_NPROC counts every process of nobody's.
		endIdleSessions()
		testLevel = &l
		iso := l.isolation()
		t.Run(wl.name, func(t *testing.T) {
			t.Logf("user namespace %v, Landlock ABI %d; applied %v, missing %v", l.userns, l.landlock, iso.Applied, iso.Missing)
			for _, h := range hs {
				prog := progs[h.name]
				if prog == nil {
					continue
				}
				t.Run(h.name, func(t *testing.T) {
					t.Parallel() // testLevel stays set until every subtest of the level is done
					if miss := h.missingNeeds(iso); len(miss) > 0 {
						t.Skipf("this level lacks %v", miss)
					}
					runHostile(t, h, prog, newHostileEnv(t))
				})
			}
			if l.reexec {
				peerRuns(t, progs) // the basic level keeps nothing apart
			}
		})
		testLevel = nil
	}
	endIdleSessions()
}

// weakerLevels lists the levels weaker than the best one that this system can set up; and, where
// Landlock is there, the level without namespaces again without it (the rlimits level), and where
// its ABI has scopes (6, Linux 6.12), with ABI 4, as Ubuntu 24.04's kernel 6.8 gives it: there
// Landlock neither keeps a run's signals in nor its abstract sockets, and only the seccomp filter
// does.
func weakerLevels(t *testing.T) []testLevelCase {
	best := currentLevel()
	var out []testLevelCase
	for i, l := range candidates() {
		if l.reexec {
			if err := probe(l); err != nil {
				t.Logf("level %d (%s, user namespace %v) cannot be set up here: %v", i, l.name, l.userns, err)
				continue
			}
			l = withExtras(l)
		}
		if l != best {
			out = append(out, testLevelCase{name: fmt.Sprintf("%d-%s", i, l.name), l: &l})
		}
		if !l.namespaces && l.landlock > 0 {
			// A kernel without Landlock (Debian 12 enables none): the program runs as the
			// checker's user, and only the seccomp filter and the checker's not being dumpable
			// keep it from the checker.
			none := l
			none.landlock, none.name = 0, "rlimits"
			out = append(out, testLevelCase{name: fmt.Sprintf("%d-rlimits", i), l: &none})
		}
		if !l.namespaces && l.landlock >= 6 {
			old := l
			old.landlock = 4
			out = append(out, testLevelCase{name: fmt.Sprintf("%d-%s-abi4", i, l.name), l: &old})
		}
	}
	return out
}

// hostileAsNobody runs the built programs again from a copy of this test binary started as nobody
// with setpriv (see TestNobodyChild), in the sandbox an ordinary user gets.
func hostileAsNobody(t *testing.T, hs []hostile, progs map[string]*Program) {
	if os.Geteuid() != 0 {
		t.Skip("the test already runs as an ordinary user: the runs above are the unprivileged path")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv is not installed, so the test cannot become nobody")
	}
	dir, err := os.MkdirTemp("", "workbook-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	initBin, err := initPath()
	if err != nil {
		t.Fatal(err)
	}
	copies := map[string]string{filepath.Join(dir, "checker.test"): self, filepath.Join(dir, "sandbox-init"): initBin}
	for name, prog := range progs {
		copies[filepath.Join(dir, name)] = prog.Path
	}
	for to, from := range copies {
		if err := copyFile(from, to); err != nil {
			t.Fatal(err)
		}
		os.Chmod(to, 0o755)
	}
	os.Chmod(dir, 0o755)
	wd, _ := os.Getwd()
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--",
		filepath.Join(dir, "checker.test"), "-test.run=^TestNobodyChild$", "-test.v", "-test.timeout=10m")
	cmd.Dir = wd
	cmd.Env = []string{"WORKBOOK_TEST_NOBODY=" + dir, "PATH=" + os.Getenv("PATH"), "TMPDIR=/tmp", "HOME=/nonexistent"}
	out, err := cmd.CombinedOutput()
	t.Logf("as nobody:\n%s", out)
	if err != nil {
		t.Fatalf("the run as nobody failed: %v", err)
	}
	if !strings.Contains(string(out), "--- PASS: TestNobodyChild") {
		t.Fatalf("TestNobodyChild did not pass")
	}
}

// TestNobodyChild is the other half of TestHostile/nobody: it runs only there, as nobody, the
// programs built as root.
func TestNobodyChild(t *testing.T) {
	dir := os.Getenv("WORKBOOK_TEST_NOBODY")
	if dir == "" {
		t.Skip("runs only inside TestHostile/nobody")
	}
	if os.Geteuid() == 0 {
		t.Fatal("still root")
	}
	// The init the checker would build needs a Go build cache of nobody's own; use root's build.
	testInitBin = filepath.Join(dir, "sandbox-init")
	iso := SandboxIsolation()
	t.Logf("uid %d: level %s, applied %v, missing %v; refused: %v", os.Geteuid(), iso.Level, iso.Applied, iso.Missing, probeLog)
	hs := loadHostile(t)
	progs := map[string]*Program{}
	for _, h := range hs {
		if _, err := os.Stat(filepath.Join(dir, h.name)); err != nil {
			continue
		}
		scratch, err := os.MkdirTemp("", "workbook-")
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{"home", "tmp", "run"} {
			os.MkdirAll(filepath.Join(scratch, d), 0o755)
		}
		exe := filepath.Join(scratch, "prog")
		if err := copyFile(filepath.Join(dir, h.name), exe); err != nil {
			t.Fatal(err)
		}
		os.Chmod(exe, 0o755)
		progs[h.name] = &Program{Path: exe, scratch: scratch, limits: h.limits(t).withDefaults()}
	}
	t.Run("best", func(t *testing.T) {
		for _, h := range hs {
			prog := progs[h.name]
			if prog == nil {
				continue
			}
			t.Run(h.name, func(t *testing.T) {
				if miss := h.missingNeeds(iso); len(miss) > 0 {
					t.Skipf("this system lacks %v for an ordinary user", miss)
				}
				runHostile(t, h, prog, newHostileEnv(t))
			})
		}
	})
	// An ordinary user without user namespaces (Ubuntu 24.04, many containers) gets the levels
	// without namespaces, where the program runs as that user, beside the user's other processes.
	t.Run("weaker", func(t *testing.T) { hostileWeakerLevels(t, hs, progs) })
	for name, prog := range progs {
		if err := prog.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
	}
}

// execCopiesProgram writes a copy of its own executable in its work folder, /tmp and HOME and tries
// to start each: what a run wrote may not be run.
const execCopiesProgram = `package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Println("the copy runs")
		return
	}
	data, err := os.ReadFile("/proc/self/exe")
	if err != nil {
		fmt.Println("read:", err)
		return
	}
	home, _ := os.UserHomeDir()
	for _, dir := range []string{".", os.TempDir(), home} {
		p, _ := filepath.Abs(filepath.Join(dir, "copy"))
		if err := os.WriteFile(p, data, 0o755); err != nil {
			fmt.Println("write:", err)
			continue
		}
		proc, err := os.StartProcess(p, []string{p, "again"}, &os.ProcAttr{Files: []*os.File{nil, os.Stdout, os.Stderr}})
		if err != nil {
			fmt.Println("refused")
			continue
		}
		proc.Wait()
	}
}
`

// sharedMemoryProgram holds 800 MiB of shared anonymous memory, which RLIMIT_DATA does not count.
const sharedMemoryProgram = `package main

import (
	"fmt"
	"syscall"
	"time"
)

func main() {
	b, err := syscall.Mmap(-1, 0, 800<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED|syscall.MAP_ANON)
	if err != nil {
		fmt.Println("shared mapping refused")
		return
	}
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	time.Sleep(3 * time.Second)
	fmt.Println("held", len(b)>>20, "MiB")
}
`

// TestRunWithoutFilter checks what holds where the seccomp filter cannot be installed (an
// architecture without one, a kernel that refuses it), at every level with Landlock that works
// here, the filter left out: an executable a run wrote in its work folder, /tmp or HOME cannot be
// run (Landlock gives those folders no right to run a file, and the private /tmp is mounted
// noexec); and where the memory watchdog runs, shared anonymous memory counts against the run's
// memory limit.
func TestRunWithoutFilter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs at every level")
	}
	if _, err := GoTool(); err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	for _, tl := range testLevels(t) {
		l := currentLevel()
		if tl.l != nil {
			l = *tl.l
		}
		if l.landlock == 0 {
			continue
		}
		l.seccomp = false
		t.Run(tl.name, func(t *testing.T) {
			restore := testLevelCase{l: &l}.use()
			defer restore()
			tests := []struct {
				name, src  string
				want       Verdict
				wantOut    string
				needsWatch bool
			}{
				{"exec copies", execCopiesProgram, Pass, "refused\nrefused\nrefused\n", false},
				{"shared memory", sharedMemoryProgram, MemoryLimit, "", true},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if tt.needsWatch && !(l.namespaces && l.proc) {
						t.Skip("no memory watchdog at this level")
					}
					p, err := Build(ctx, writeProgram(t, map[string]string{"main.go": tt.src}), Limits{RunTime: 5 * time.Second})
					if err != nil {
						t.Fatal(err)
					}
					defer p.Close()
					out := p.Run(ctx, "", nil, "")
					if out.Status != tt.want || tt.wantOut != "" && out.Stdout != tt.wantOut {
						t.Errorf("status %s (%s), stdout %q, stderr %.300q; want %s, %q", out.Status, out.Reason, out.Stdout, out.Stderr, tt.want, tt.wantOut)
					}
				})
			}
		})
	}
}

// TestSeccompArches checks that the architectures the checker claims the filter for are those the
// sandbox init has a table of: elsewhere the init installs none, and syscalls and
// no_child_processes must be listed as missing.
func TestSeccompArches(t *testing.T) {
	src := string(initSource)
	if got := strings.Count(src, "{arch: audit"); got != len(seccompArches) {
		t.Errorf("the init has %d tables, the checker names %d architectures", got, len(seccompArches))
	}
	for arch := range seccompArches {
		if !strings.Contains(src, fmt.Sprintf("%q: {arch: audit", arch)) {
			t.Errorf("the init has no filter for %s", arch)
		}
	}
}

// cpuAtStart prints the CPU time of its own process when main starts, which includes what the
// process used before its exec (the sandbox init's, where an init execs the program).
const cpuAtStart = `package main

import (
	"fmt"
	"syscall"
	"unsafe"
)

func main() {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 2, uintptr(unsafe.Pointer(&ts)), 0) // CLOCK_PROCESS_CPUTIME_ID
	fmt.Println(ts.Nano())
}
`

// TestProgramChargedItsOwnCPU: at every level, the program is charged the CPU time it used, not the
// sandbox init's before its exec (the init's Go runtime start and the set-up: tens of milliseconds
// on a loaded machine, which against the short limit past a spent budget cut honest cases). The
// program's own reading of its process's clock at its start holds the init's part where an init
// execs it in its own process (the levels without sessions: no PID namespaces, as on Ubuntu 24.04)
// and its Go runtime's start; the CPU time a run reports stays below that, where without the
// init's part subtracted it could never be.
func TestProgramChargedItsOwnCPU(t *testing.T) {
	prog, err := Build(context.Background(), writeProgram(t, map[string]string{"main.go": cpuAtStart}), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	levels := append(testLevels(t), testLevelCase{name: "best-one-init-per-run"})
	for i, tl := range levels {
		t.Run(tl.name, func(t *testing.T) {
			defer tl.use()()
			if i == len(levels)-1 {
				sessionsOff = true
				defer func() { sessionsOff = false }()
			}
			if l := currentLevel(); !l.reexec || l.namespaces && !sessionsOff {
				// Without an init the process is the program's from the start; a session's init forks
				// the program, whose process starts its clock at zero (the session subtracts what
				// the fork used before the exec itself: started.base).
				t.Skip("no init execs the program in its own process at this level")
			}
			for range 3 {
				out := prog.Run(context.Background(), "", nil, "")
				var atStart time.Duration
				if _, err := fmt.Sscan(out.Stdout, &atStart); out.Status != Pass || err != nil {
					t.Fatalf("%s %q %q", out.Status, out.Stdout, out.Stderr)
				}
				if out.CPU >= atStart && atStart > 5*time.Millisecond {
					t.Errorf("charged %s, with %s on the process's clock when main started: the init's time is charged to the program", out.CPU, atStart)
				}
			}
		})
	}
}

// peerRuns runs peervictim and peerattack at the same time, under the level the caller set: the
// attack must find the victim's memory out of reach, and the victim print its own mark.
func peerRuns(t *testing.T, progs map[string]*Program) {
	victim, attack := progs["peervictim"], progs["peerattack"]
	if victim == nil || attack == nil {
		return
	}
	t.Run("peers", func(t *testing.T) {
		t.Parallel()
		ctx := context.Background()
		var got RunOutput
		done := make(chan struct{})
		go func() {
			defer close(done)
			got = victim.Run(ctx, "", []string{"wbpeer-victim"}, "")
		}()
		// The attack starts once the victim runs (its CPU second has begun), whatever the load.
		for deadline := time.Now().Add(20 * time.Second); len(processesWith("wbpeer-victim")) == 0 && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		a := attack.Run(ctx, "", nil, "")
		<-done
		t.Logf("attack: %s %q; victim: %s %q", a.Status, a.Stdout, got.Status, got.Stdout)
		if strings.Contains(a.Stdout, "wrote true") || strings.Contains(got.Stdout, "BBBB") {
			t.Errorf("a run rewrote another's memory: attack printed %q, the victim %q", a.Stdout, got.Stdout)
		}
	})
}

// levelHidesExe says whether the runs of the current level get their executables unreadable, and so
// are not dumpable (see hideExe): the checker cannot read what their threads wait in, and a program
// cannot read its own executable.
func levelHidesExe() bool { return currentLevel().hidesExe() }

// TestHideExeKeepsCacheLink checks that hideExe changes the mode of a program's own executable and
// never that of the executable cache's file it is a link to (cachedExe), which other programs and
// processes read; and that the last run gives the mode back.
func TestHideExeKeepsCacheLink(t *testing.T) {
	dir := t.TempDir()
	cached, exe := filepath.Join(dir, "cached"), filepath.Join(dir, "prog")
	if err := os.WriteFile(cached, []byte("an executable"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(cached, exe); err != nil {
		t.Skip("no hard links here:", err)
	}
	mode := func(p string) os.FileMode {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	unhide1, err := hideExe(exe)
	if err != nil {
		t.Fatal(err)
	}
	unhide2, err := hideExe(exe)
	if err != nil {
		t.Fatal(err)
	}
	if got := mode(exe); got != 0o111 {
		t.Errorf("the program's executable while it runs: %v, want 0111", got)
	}
	if got := mode(cached); got != 0o755 {
		t.Errorf("the cache's file: %v, want 0755", got)
	}
	unhide1()
	if got := mode(exe); got != 0o111 {
		t.Errorf("with one run still going: %v, want 0111", got)
	}
	unhide2()
	if got := mode(exe); got != 0o755 {
		t.Errorf("after the last run: %v, want 0755", got)
	}
	if data, err := os.ReadFile(exe); err != nil || string(data) != "an executable" {
		t.Errorf("the program's copy: %q, %v", data, err)
	}
}
