//go:build linux

package checker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sessionProgram leaves traces for the next run and reports those it finds.
const sessionProgram = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	switch os.Args[1] {
	case "leave":
		// A file in /tmp and in HOME, one in the work folder, and a process that keeps writing.
		os.WriteFile("/tmp/left", []byte("x"), 0o644)
		os.WriteFile(os.Getenv("HOME")+"/left", []byte("x"), 0o644)
		os.WriteFile("mine", []byte("x"), 0o644)
		cmd := exec.Command("/proc/self/exe", "linger")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			fmt.Println("start:", err)
			os.Exit(1)
		}
		fmt.Println("left")
	case "linger":
		for {
			os.WriteFile("/tmp/alive", []byte("x"), 0o644)
			time.Sleep(5 * time.Millisecond)
		}
	case "look":
		time.Sleep(50 * time.Millisecond)
		for _, p := range []string{"/tmp/left", os.Getenv("HOME") + "/left", "/tmp/alive", "mine"} {
			if _, err := os.Stat(p); err == nil {
				fmt.Println("found", p)
			}
		}
		// The folder of the run before, beside this one: its own Landlock domain keeps it out.
		if len(os.Args) > 2 && os.Args[2] != "a" {
			if _, err := os.ReadFile("../a/mine"); err == nil {
				fmt.Println("read ../a/mine")
			}
			if err := os.WriteFile("../a/theirs", []byte("x"), 0o644); err == nil {
				fmt.Println("wrote ../a/theirs")
			}
		}
		fmt.Println("looked")
	case "hang":
		for {
		}
	case "signal":
		for _, s := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT,
			syscall.SIGILL, syscall.SIGSEGV, syscall.SIGUSR1, syscall.SIGABRT, syscall.SIGKILL, syscall.SIGSTOP} {
			syscall.Kill(1, s)
		}
		fmt.Println("signalled")
	case "stdin":
		b := make([]byte, 100)
		n, _ := os.Stdin.Read(b)
		fmt.Printf("%q\n", b[:n])
	}
}
`

// TestSessionRuns checks that the runs a session serves are as separate as runs of their own: no
// file in /tmp or HOME, no process and no work folder carries over; a run stopped at its time limit
// or a program that signals the init does not spoil the runs after it.
func TestSessionRuns(t *testing.T) {
	if l := currentLevel(); !l.namespaces {
		t.Skipf("sessions need PID namespaces; this system's level is %s", l.name)
	} else if l.seccomp {
		// Where the filter holds, a run that starts a process is stopped at its fork
		// (TestSessionOneProcess); the session's cleaning up after a run that left one behind is
		// tested without the filter, as it is where the filter is missing.
		l.seccomp = false
		defer testLevelCase{l: &l}.use()()
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(sessionProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	prog, err := Build(ctx, src, Limits{RunTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	drainPools(t)
	keepSessions(t)
	// Open to others, so that as root, where the program runs as nobody, only the sandbox keeps it
	// out of the folder of another run (as an ordinary user the folder is the program's anyway).
	os.Chmod(prog.scratch, 0o711)
	dirs := map[string]string{}
	run := func(step, dir string, args ...string) RunOutput {
		t.Helper()
		if dir != "" {
			if dirs[dir] == "" {
				dirs[dir] = filepath.Join(prog.scratch, dir)
				os.MkdirAll(dirs[dir], 0o755)
			}
			dir = dirs[dir]
		}
		out := prog.Run(ctx, dir, args, "")
		t.Logf("%s: %s %q %q", step, out.Status, out.Stdout, out.Stderr)
		return out
	}
	initPid := func() int { return idleInit(t, prog) }

	if out := run("leave", "a", "leave"); out.Status != Pass || out.Stdout != "left\n" {
		t.Fatalf("leave: %+v", out)
	}
	first := initPid()
	// A run works in a copy of its folder inside the session's tmpfs: what it wrote there is gone
	// for the next run even in the same folder, and the folder itself is untouched.
	if out := run("look", "a", "look", "a"); out.Stdout != "looked\n" {
		t.Errorf("the second run in the same folder found %q, want nothing", out.Stdout)
	}
	if _, err := os.Stat(filepath.Join(dirs["a"], "mine")); err == nil {
		t.Errorf("the run wrote into the folder it was handed, not into its copy")
	}
	if out := run("look elsewhere", "b", "look", "b"); out.Stdout != "looked\n" {
		t.Errorf("a run in another folder found %q, want nothing", out.Stdout)
	}
	if got := initPid(); got != first {
		t.Errorf("the runs did not share the session: init %d, then %d", first, got)
	}
	if _, err := os.Stat(filepath.Join(dirs["a"], "theirs")); err == nil {
		t.Errorf("a run wrote into the folder of another run")
	}
	if out := run("signal", "", "signal"); out.Status != Pass || out.Stdout != "signalled\n" {
		t.Errorf("signal: %+v", out)
	}
	if out := run("after signals", "", "stdin"); out.Status != Pass {
		t.Errorf("the run after the signals: %+v", out)
	}
	if got := initPid(); got != first {
		t.Errorf("signals from the program ended the init (%d, now %d)", first, got)
	}
	if out := prog.Run(ctx, "", []string{"stdin"}, "привет"); out.Stdout != "\"привет\"\n" {
		t.Errorf("stdin: %+v", out)
	}
	if out := run("hang", "", "hang"); out.Status != Timeout {
		t.Errorf("hang: %s, want timeout", out.Status)
	}
	if out := run("after the timeout", "b", "look", "b"); out.Status != Pass || out.Stdout != "looked\n" {
		t.Errorf("the run after a timeout: %+v", out)
	}
	// The init stopped the run at its time limit itself, killed what it left and emptied /tmp, as
	// after any run: the session goes on.
	if got := initPid(); got != first {
		t.Errorf("the session of the run that timed out was not kept (init %d, now %d)", first, got)
	}
}

// TestSessionOneProcess checks, where runs are one process, that a run that tries to leave a process
// behind is stopped at its fork with message process, what it wrote before is gone for the next
// run, and the session goes on.
func TestSessionOneProcess(t *testing.T) {
	if l := currentLevel(); !l.namespaces || !l.seccomp {
		t.Skipf("needs sessions and the seccomp filter; this system's level is %s (filter %v)", l.name, l.seccomp)
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(sessionProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	prog, err := Build(ctx, src, Limits{RunTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	drainPools(t)
	keepSessions(t)
	if out := prog.Run(ctx, "", []string{"leave"}, ""); out.Status != Crash || out.Reason != ReasonProcess || out.Stdout != "" {
		t.Fatalf("leave: %s %q, stdout %q, stderr %q; want crash %q", out.Status, out.Reason, out.Stdout, out.Stderr, ReasonProcess)
	}
	first := idleInit(t, prog)
	if out := prog.Run(ctx, "", []string{"look"}, ""); out.Status != Pass || out.Stdout != "looked\n" {
		t.Errorf("the run after: %s %q %q, want only looked", out.Status, out.Stdout, out.Stderr)
	}
	if got := idleInit(t, prog); got != first {
		t.Errorf("the session did not go on after a run the filter stopped (init %d, now %d)", first, got)
	}
}

// TestSessionRetires checks that an init that has used its share of CPU time answers the run and
// is replaced for the next one.
func TestSessionRetires(t *testing.T) {
	if l := currentLevel(); !l.namespaces {
		t.Skipf("sessions need PID namespaces; this system's level is %s", l.name)
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() { println(\"hi\") }\n"), 0o644)
	ctx := context.Background()
	prog, err := Build(ctx, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	testRetireCPU = time.Nanosecond
	defer func() { testRetireCPU = 0 }()
	drainPools(t)
	pool := poolFor(prog, currentLevel())
	for i := 0; i < 3; i++ {
		if out := prog.Run(ctx, "", nil, ""); out.Status != Pass || out.Stderr != "hi\n" {
			t.Fatalf("run %d: %+v", i, out)
		}
		pool.mu.Lock()
		idle := len(pool.idle)
		pool.mu.Unlock()
		if idle != 0 {
			t.Fatalf("run %d: a retired session was kept", i)
		}
	}
}

// drainPools ends every idle session, so that a test starts with none and leaves none.
func drainPools(t testing.TB) {
	endIdleSessions()
	t.Cleanup(endIdleSessions)
}

// endIdleSessions ends every idle session, as the end of a workbook process does.
func endIdleSessions() {
	pools.mu.Lock()
	var idle []*session
	for _, sp := range pools.m {
		sp.mu.Lock()
		idle = append(idle, sp.idle...)
		sp.idle = nil
		sp.mu.Unlock()
	}
	pools.mu.Unlock()
	for _, s := range idle {
		s.kill()
	}
}

// idleInit returns the process ID of the one idle session that can run prog.
// keepSessions keeps a session's init from retiring for the rest of the test, which compares the
// init of one run with the next's: the init's CPU time, which retires it, is what a loaded machine
// inflates (a virtual machine's stolen time is charged to whatever runs), and retiring is tested on
// its own (TestSessionRetires).
func keepSessions(t *testing.T) {
	testRetireCPU = time.Hour
	t.Cleanup(func() { testRetireCPU = 0 })
}

func idleInit(t *testing.T, prog *Program) int {
	t.Helper()
	sp := poolFor(prog, currentLevel())
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if len(sp.idle) != 1 {
		t.Fatalf("%d idle sessions, want 1", len(sp.idle))
	}
	return sp.idle[0].cmd.Process.Pid
}

// ipcProgram leaves SysV IPC objects and keys behind, or looks for those another run left.
const ipcProgram = `package main

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

const (
	key       = 0x5742
	ipcCreat  = 0o1000
	keyName   = "workbook-left"
	keyctlSearch = 10
)

// keyrings: the session, user and user-session keyrings.
var keyrings = []int{-3, -4, -5}

func str(s string) uintptr {
	p, _ := syscall.BytePtrFromString(s)
	return uintptr(unsafe.Pointer(p))
}

func main() {
	switch os.Args[1] {
	case "leave":
		if _, _, e := syscall.Syscall(syscall.SYS_SHMGET, key, 4096, ipcCreat|0o600); e != 0 {
			fmt.Println("shm:", e)
		} else {
			fmt.Println("left shm")
		}
		if _, _, e := syscall.Syscall(syscall.SYS_MSGGET, key, ipcCreat|0o600, 0); e != 0 {
			fmt.Println("msg:", e)
		} else {
			fmt.Println("left msg")
		}
		for _, ring := range keyrings {
			data := []byte("x")
			if _, _, e := syscall.Syscall6(syscall.SYS_ADD_KEY, str("user"), str(keyName), uintptr(unsafe.Pointer(&data[0])), 1, uintptr(ring), 0); e != 0 {
				fmt.Println("key", ring, e)
			} else {
				fmt.Println("left key", ring)
			}
		}
	case "look":
		if _, _, e := syscall.Syscall(syscall.SYS_SHMGET, key, 0, 0); e == 0 {
			fmt.Println("found shm")
		}
		if _, _, e := syscall.Syscall(syscall.SYS_MSGGET, key, 0, 0); e == 0 {
			fmt.Println("found msg")
		}
		for _, ring := range keyrings {
			if _, _, e := syscall.Syscall6(syscall.SYS_KEYCTL, keyctlSearch, uintptr(ring), str("user"), str(keyName), 0, 0); e == 0 {
				fmt.Println("found key", ring)
			}
		}
		fmt.Println("looked")
	}
}
`

// TestSessionSharedByPrograms checks, at every level with PID namespaces that this system can set
// up, that programs built apart, with the same limits, share a session, and that what one leaves in
// IPC objects or keyrings is gone for the next run, whether of the same program or of another. Where
// runs cannot have IPC namespaces of their own (no user namespace), programs must not share sessions
// at all, and closing a program ends its sessions.
func TestSessionSharedByPrograms(t *testing.T) {
	defer func() { testLevel = nil }()
	tried := 0
	for i, l := range candidates() {
		if !l.namespaces || !l.reexec {
			continue
		}
		if err := probe(l); err != nil {
			t.Logf("level %d (%s, user namespace %v) cannot be set up here: %v", i, l.name, l.userns, err)
			continue
		}
		tried++
		testLevel = &l
		t.Run(fmt.Sprintf("%d-%s-userns-%v", i, l.name, l.userns), func(t *testing.T) { sessionsOfTwoPrograms(t, l) })
		testLevel = nil
	}
	if tried == 0 {
		t.Skip("no level with PID namespaces here: no sessions")
	}
}

func sessionsOfTwoPrograms(t *testing.T, l level) {
	ctx := context.Background()
	var progs []*Program
	for range 2 {
		src := filepath.Join(t.TempDir(), "src")
		os.MkdirAll(src, 0o755)
		if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(ipcProgram), 0o644); err != nil {
			t.Fatal(err)
		}
		prog, err := Build(ctx, src, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		defer prog.Close()
		progs = append(progs, prog)
	}
	drainPools(t)
	keepSessions(t)
	a, b := progs[0], progs[1]
	left := a.Run(ctx, "", []string{"leave"}, "")
	t.Logf("leave: %s %q %q", left.Status, left.Stdout, left.Stderr)
	if left.Status != Pass || !strings.Contains(left.Stdout, "left shm") || !strings.Contains(left.Stdout, "left msg") {
		t.Fatalf("the program could not leave IPC objects to look for: %+v", left)
	}
	first := idleInit(t, a)
	shared := poolFor(a, l) == poolFor(b, l)
	if shared != l.userns {
		t.Errorf("programs share sessions: %v; they should where runs have IPC namespaces of their own (%v)", shared, l.userns)
	}
	type look struct {
		name string
		prog *Program
	}
	looks := []look{{"another program", b}}
	if l.userns {
		// Where a program's runs share an IPC namespace they may find their own objects.
		looks = append(looks, look{"the same program", a})
	}
	for _, look := range looks {
		out := look.prog.Run(ctx, "", []string{"look"}, "")
		if out.Status != Pass || out.Stdout != "looked\n" {
			t.Errorf("%s found what the run before left: %+v", look.name, out)
		}
	}
	if shared {
		if got := idleInit(t, b); got != first {
			t.Errorf("the second program did not run in the session of the first: init %d, then %d", first, got)
		}
		return
	}
	// Sessions of one program alone end with it.
	pool := poolFor(a, l)
	a.Close()
	pool.mu.Lock()
	idle := len(pool.idle)
	pool.mu.Unlock()
	if idle != 0 {
		t.Errorf("%d sessions of a closed program are still idle", idle)
	}
	if err := syscall.Kill(first, 0); err == nil {
		time.Sleep(100 * time.Millisecond)
		if syscall.Kill(first, 0) == nil {
			t.Errorf("the init %d of a closed program's session is still alive", first)
		}
	}
}

// affinityProgram prints the CPUs it may run on, as a bit mask, after a pause long enough for another
// run to start beside it.
const affinityProgram = `package main

import (
	"fmt"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	time.Sleep(300 * time.Millisecond)
	var mask [16]uint64
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(mask), uintptr(unsafe.Pointer(&mask))); e != 0 {
		fmt.Println("error", e)
		return
	}
	fmt.Println(mask)
}
`

// TestSessionBinding checks that two runs at the same time run on one CPU each, and not the same.
func TestSessionBinding(t *testing.T) {
	l := currentLevel()
	if !l.namespaces {
		t.Skipf("sessions need PID namespaces; this system's level is %s", l.name)
	}
	if len(sessionCPUs().cpus) < 2 {
		t.Skip("sessions are not bound here: one CPU, or GOMAXPROCS below the CPUs the process can run on")
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(affinityProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	prog, err := Build(ctx, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	drainPools(t)
	outs := make([]RunOutput, 2)
	done := make(chan int)
	for i := range outs {
		go func() { outs[i] = prog.Run(ctx, "", nil, ""); done <- i }()
	}
	<-done
	<-done
	seen := map[string]bool{}
	for _, out := range outs {
		mask := strings.TrimSpace(out.Stdout)
		t.Logf("%s %q %q", out.Status, mask, out.Stderr)
		bits := 0
		for _, f := range strings.Fields(strings.Trim(mask, "[]")) {
			var w uint64
			fmt.Sscan(f, &w)
			bits += bits64(w)
		}
		if out.Status != Pass || bits != 1 {
			t.Errorf("a run may use %d CPUs (%q), want 1", bits, mask)
		}
		seen[mask] = true
	}
	if len(seen) != 2 {
		t.Errorf("the two runs were bound to the same CPU: %v", seen)
	}
}

func bits64(w uint64) int {
	n := 0
	for ; w != 0; w &= w - 1 {
		n++
	}
	return n
}
