//go:build linux

package checker

import (
	"context"
	"os"
	"path/filepath"
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
	initPid := func() int {
		prog.sessions.mu.Lock()
		defer prog.sessions.mu.Unlock()
		if len(prog.sessions.idle) != 1 {
			t.Fatalf("%d idle sessions, want 1", len(prog.sessions.idle))
		}
		return prog.sessions.idle[0].cmd.Process.Pid
	}

	if out := run("leave", "a", "leave"); out.Status != Pass || out.Stdout != "left\n" {
		t.Fatalf("leave: %+v", out)
	}
	first := initPid()
	if out := run("look", "a", "look", "a"); out.Stdout != "found mine\nlooked\n" {
		t.Errorf("the second run in the same folder found %q, want only its folder's file", out.Stdout)
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
	if got := initPid(); got == first {
		t.Errorf("the session of the run that timed out was kept")
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
	for i := 0; i < 3; i++ {
		if out := prog.Run(ctx, "", nil, ""); out.Status != Pass || out.Stderr != "hi\n" {
			t.Fatalf("run %d: %+v", i, out)
		}
		prog.sessions.mu.Lock()
		idle := len(prog.sessions.idle)
		prog.sessions.mu.Unlock()
		if idle != 0 {
			t.Fatalf("run %d: a retired session was kept", i)
		}
	}
}
