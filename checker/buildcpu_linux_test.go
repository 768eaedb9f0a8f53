package checker

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pausing is a context whose builds' go commands are each stopped (SIGSTOP) for d as they start,
// as a machine too busy to give them a CPU would hold them: wall time passes, and no CPU time.
func pausing(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, startedKey{}, func(pid int) {
		if syscall.Kill(pid, syscall.SIGSTOP) != nil {
			return
		}
		go func() {
			time.Sleep(d)
			syscall.Kill(pid, syscall.SIGCONT)
		}()
	})
}

// TestBuildJudgedByCPU: a build is judged like a run, by the CPU time of the go command's whole
// process tree, with the wall clock only a backstop. A build held off the CPU for longer than its
// limit (a busy machine) is no build_time; a compile-time bomb is, by its CPU time; a build stopped
// at the wall-clock backstop is the tool's error, never a verdict; and the course's own code
// (Limits.Trusted) is never failed by a limit meant for bombs.
func TestBuildJudgedByCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	withoutExeCache(t)
	ctx := context.Background()
	honest := writeProgram(t, honestProgram(7))
	// Warm: the standard library the program imports is compiled before its own build anyway
	// (warmStd); this only keeps the cases below from paying for it on a cold cache.
	if p, err := Build(ctx, honest, Limits{}); err != nil {
		t.Fatal(err)
	} else {
		p.Close()
	}
	bomb, err := os.ReadFile(filepath.Join("testdata", "hostile", "compilebomb.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	_, src, _ := strings.Cut(string(bomb), "-- main.go --\n")
	bombDir := writeProgram(t, map[string]string{"main.go": src})

	for _, tc := range []struct {
		name   string
		ctx    context.Context
		src    string
		lim    Limits
		reason string // the BuildFailure's Reason, "" for a program, "tool" for an error of the tool
	}{
		// Held off the CPU for 4 s with a limit of 3 s of CPU time: it compiles in well under a
		// second of CPU time, so the wall time is no concern of the limit's.
		{"busy machine", pausing(ctx, 4*time.Second), honest, Limits{BuildTime: 3 * time.Second}, ""},
		// The bomb gets its 3 s of CPU time however long a loaded machine takes to give them.
		{"bomb", ctx, bombDir, Limits{BuildTime: 3 * time.Second, BuildWall: time.Hour}, "build_time"},
		{"bomb on a busy machine", pausing(ctx, 2*time.Second), bombDir, Limits{BuildTime: 3 * time.Second, BuildWall: time.Hour}, "build_time"},
		// Held 3 s against a wall-clock backstop of 1 s: the machine's fault, not the program's.
		{"wall backstop", pausing(ctx, 3*time.Second), honest, Limits{BuildTime: 30 * time.Second, BuildWall: time.Second}, "tool"},
		// A limit no build can keep, for the course's own code: ignored.
		{"trusted", ctx, honest, Limits{Trusted: true, BuildTime: time.Millisecond, BuildWall: time.Millisecond}, ""},
		{"untrusted under the same limit", ctx, honest, Limits{BuildTime: time.Millisecond, BuildWall: time.Hour}, "build_time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Build(tc.ctx, tc.src, tc.lim)
			if p != nil {
				defer p.Close()
			}
			var bf *BuildFailure
			got := ""
			switch {
			case errors.As(err, &bf):
				got = bf.Reason
			case err != nil:
				got = "tool"
			}
			if got != tc.reason {
				t.Errorf("got %q (%v), want %q", got, err, tc.reason)
			}
		})
	}
}

// TestTreeCPU reads the CPU time of a process tree, both ways (down each thread's children files,
// and from every process's parent where a kernel has no such files): a shell whose grandchild spins
// is charged the grandchild's CPU time while it runs, and keeps it once it was waited for.
func TestTreeCPU(t *testing.T) {
	if !childrenFiles() {
		t.Log("this kernel has no /proc/PID/task/TID/children: treeCPU reads all of /proc")
	}
	for _, tc := range []struct {
		name string
		read func(int) (time.Duration, bool)
	}{{"treeCPU", treeCPU}, {"treeByScan", treeByScan}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, ok := tc.read(1 << 30); ok {
				t.Error("the CPU time of no process: ok")
			}
			// The loop spins in a grandchild: a shell started in the background by a shell.
			cmd := exec.Command("sh", "-c", `sh -c 'sh -c "i=0; while [ \$i -lt 400000 ]; do i=\$((i+1)); done" & wait' & wait; sleep 30`)
			if err := cmd.Start(); err != nil {
				t.Skip(err)
			}
			defer cmd.Wait()
			defer cmd.Process.Kill()
			// Whatever the machine's load, the loop costs a fraction of a second of CPU time, seen
			// while it runs and kept once the shells wait for it; the reading only has to get there,
			// and never goes back.
			deadline := time.Now().Add(2 * time.Minute)
			var last time.Duration
			for {
				cpu, ok := tc.read(cmd.Process.Pid)
				if !ok {
					t.Fatal("not readable")
				}
				if cpu+clockTick < last {
					t.Errorf("the tree's CPU time went back from %s to %s", last, cpu)
				}
				last = max(last, cpu)
				if _, own, _ := statOf(cmd.Process.Pid); cpu >= 100*time.Millisecond && own > 0 {
					return // the loop ran and was waited for: it is in the shell's cutime
				}
				if time.Now().After(deadline) {
					t.Fatalf("the tree's CPU time stayed at %s", cpu)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

func TestRanCompiler(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want bool
	}{
		{"WORK=/tmp/go-build1\nmkdir -p $WORK/b001/\n/usr/local/go/pkg/tool/linux_amd64/link -o $WORK/b001/exe/a.out -importcfg $WORK/b001/importcfg.link\n", false},
		{"mkdir -p $WORK/b045/\n/usr/local/go/pkg/tool/linux_amd64/compile -o $WORK/b045/_pkg_.a -trimpath \"$WORK/b045=>\" -p fmt -std\n", true},
		{"cd /tmp/x\n# learner compile -o ./x\n", false},
		{"", false},
	} {
		if got := ranCompiler(tc.out); got != tc.want {
			t.Errorf("ranCompiler(%q) = %t, want %t", tc.out, got, tc.want)
		}
	}
}

// TestCompileWatch: a warm-up tells its progress once, at the first line that runs the compiler,
// however the go command's output is cut into writes.
func TestCompileWatch(t *testing.T) {
	out := "mkdir -p $WORK/b001/\n/usr/local/go/pkg/tool/linux_amd64/compile -o $WORK/b045/_pkg_.a -p fmt\n/usr/local/go/pkg/tool/linux_amd64/compile -o $WORK/b046/_pkg_.a -p os\n"
	for _, size := range []int{1, 7, 64, len(out)} {
		n := 0
		w := &compileWatch{seen: func() { n++ }}
		for i := 0; i < len(out); i += size {
			w.Write([]byte(out[i:min(i+size, len(out))]))
		}
		if n != 1 {
			t.Errorf("writes of %d bytes: told %d times, want once", size, n)
		}
	}
	n := 0
	w := &compileWatch{seen: func() { n++ }}
	w.Write([]byte("mkdir -p $WORK/b001/\n/usr/local/go/pkg/tool/linux_amd64/link -o a.out\n"))
	if n != 0 {
		t.Errorf("a build from the cache alone: told %d times", n)
	}
}
