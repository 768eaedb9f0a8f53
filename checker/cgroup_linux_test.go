//go:build linux

package checker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCgroupOwnPath(t *testing.T) {
	const v2 = "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
	const hybrid = "25 24 0:22 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n" +
		"26 25 0:23 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:5 - cgroup2 cgroup2 rw\n" +
		"27 25 0:24 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n"
	tests := []struct {
		name, cgroup, mountinfo, want, err string
	}{
		{"unified", "0::/user.slice/user-1000.slice/user@1000.service/app.slice/wb.scope\n", v2,
			"/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/wb.scope", ""},
		{"root", "0::/\n", v2, "/sys/fs/cgroup", ""},
		{"hybrid", "4:memory:/x\n1:name=systemd:/x\n0::/x\n", hybrid, "/sys/fs/cgroup/unified/x", ""},
		// A container without a cgroup namespace sees its own part of the hierarchy mounted.
		{"mounted below the root", "0::/docker/abc\n",
			"40 30 0:26 /docker/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n", "/sys/fs/cgroup", ""},
		{"mounted elsewhere", "0::/docker/def\n",
			"40 30 0:26 /docker/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n", "", "no cgroup2 file system"},
		{"escaped mount point", "0::/a\n", `30 23 0:26 / /mnt/with\040space rw - cgroup2 cgroup2 rw` + "\n",
			"/mnt/with space/a", ""},
		{"optional fields", "0::/a\n", "30 23 0:26 / /cg rw shared:4 master:1 - cgroup2 none rw\n", "/cg/a", ""},
		{"cgroup v1 only", "4:memory:/x\n1:name=systemd:/x\n", hybrid, "", "no cgroup v2"},
		{"no cgroup2 mount", "0::/x\n", "25 24 0:22 / /sys/fs/cgroup ro - tmpfs tmpfs ro\n", "", "no cgroup2 file system"},
		{"deleted", "0::/x (deleted)\n", v2, "", "deleted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ownCgroup([]byte(tt.cgroup), []byte(tt.mountinfo))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ownCgroup = %q, %v; want an error with %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ownCgroup = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// vmScenario is the scenario of TestCgroupsInVM the test binary runs in, or "".
func vmScenario() string { return os.Getenv("WORKBOOK_VM_SCENARIO") }

// TestCgroupStatus checks what the checker says of cgroups: where it has them, every level reports
// the limits they give and where; where it has none, why. In the virtual machine the scenario says
// which of the two it must be.
func TestCgroupStatus(t *testing.T) {
	dir, why := CgroupStatus()
	t.Logf("cgroups: %q; %s", dir, why)
	from := SandboxIsolation().CgroupFrom
	switch vmScenario() {
	case "service", "user":
		if dir == "" {
			t.Fatalf("the scenario delegates a cgroup, but the checker uses none: %s", why)
		}
		if from != "" {
			t.Fatalf("the checker was started in a delegated cgroup, but says it got %s from %s", dir, from)
		}
	case "shared":
		// No systemd to ask there either.
		if dir != "" || !strings.Contains(why, "holds other processes") || !strings.Contains(why, "a scope of systemd's: no user manager") {
			t.Fatalf("in a scope shared with another process the checker must fall back and say why; got %q, %q", dir, why)
		}
	case "systemd":
		// The session's scope is root's; the user's manager gives a scope of the checker's own.
		if dir == "" || from != CgroupFromSystemdUser {
			t.Fatalf("the user's systemd manager runs, but the checker has no scope of its: %q from %q; %s", dir, from, why)
		}
		if !strings.HasPrefix(filepath.Base(dir), "workbook-") || !strings.HasSuffix(dir, ".scope") {
			t.Fatalf("the checker's cgroup %s is not the scope it asked for", dir)
		}
	}
	if dir == "" {
		if why == "" {
			t.Fatal("no cgroups, and no reason given")
		}
		// The cgroup the checker was started in was of no use, and systemd gave none either: both
		// reasons are told.
		if !strings.Contains(why, "; a scope of systemd's: ") && !strings.Contains(why, "starting a sandbox in a cgroup") {
			t.Fatalf("no word of systemd's scope in the reason: %s", why)
		}
		if iso := SandboxIsolation(); iso.Cgroup != "" {
			t.Fatalf("Isolation names the cgroup %q the checker does not use", iso.Cgroup)
		}
		return
	}
	for _, tl := range testLevels(t) {
		t.Run(tl.name, func(t *testing.T) {
			defer tl.use()()
			iso := SandboxIsolation()
			if iso.Level == "basic" {
				return
			}
			if iso.Cgroup != dir {
				t.Errorf("Isolation.Cgroup = %q, want %q", iso.Cgroup, dir)
			}
			l := currentLevel()
			if l.landlock == 0 && !l.setID && !l.mapID {
				// The program could write to the cgroup file system as the checker's user.
				if iso.Has(ProtectRunMemory) {
					t.Errorf("level %s claims run_memory without Landlock or a user of its own", iso.Level)
				}
				return
			}
			for _, p := range []string{ProtectRunMemory, ProtectProcesses, ProtectProcessTree} {
				if !iso.Has(p) {
					t.Errorf("level %s: %s not applied though every run has a cgroup: %v", iso.Level, p, iso.Applied)
				}
			}
		})
	}
}

// TestCgroupLimits runs, at every sandbox level, programs that only a limit on the whole tree of a
// run stops: children that together hold more than the run's memory, and a grandchild that leaves
// the process group with setsid and stays behind. Nothing of the runs' cgroups is left afterwards.
func TestCgroupLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	dir, why := CgroupStatus()
	if dir == "" {
		if s := vmScenario(); s == "service" || s == "user" {
			t.Fatalf("no cgroups in scenario %s: %s", s, why)
		}
		t.Skipf("this system gives the checker no cgroup v2 subtree (%s); TestCgroupsInVM runs this test where one is", why)
	}
	// A long time limit: under emulation (TestCgroupsInVM) the children start slowly.
	lim := Limits{Memory: 128 << 20, RunTime: 20 * time.Second, BuildTime: 30 * time.Second * testTimeScale()}
	src := filepath.Join(t.TempDir(), "src")
	writeFile(t, filepath.Join(src, "go.mod"), "module kids\n\ngo 1.22\n")
	writeFile(t, filepath.Join(src, "main.go"), `package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// kids: four children of 64 MiB each, 256 MiB together, each far under the per-process limit.
// stray: a grandchild in a session of its own that outlives the run by seconds, then writes.
func main() {
	switch os.Args[1] {
	case "child":
		b := make([]byte, 64<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		time.Sleep(4 * time.Second)
		fmt.Println(b[4096])
		return
	case "kids":
		var kids []*exec.Cmd
		for i := 0; i < 4; i++ {
			k := exec.Command("/proc/self/exe", "child")
			k.Stdout = os.Stdout
			if err := k.Start(); err != nil {
				fmt.Println(err)
				os.Exit(1)
			}
			kids = append(kids, k)
		}
		for _, k := range kids {
			k.Wait()
		}
		fmt.Println("all held")
	case "stray":
		k := exec.Command("/proc/self/exe", "late", os.Args[2])
		k.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := k.Start(); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println(k.Process.Pid)
	case "late":
		time.Sleep(2 * time.Second)
		os.WriteFile(os.Args[2], []byte("still here"), 0o666)
	}
}
`)
	prog, err := Build(context.Background(), src, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	for _, tl := range testLevels(t) {
		// Where a run is one process the filter refuses the children before the cgroup sees
		// them (TestHostile); the cgroup's bounds are for where the filter is missing.
		l := currentLevel()
		if tl.l != nil {
			l = *tl.l
		}
		l.seccomp = false
		tl := testLevelCase{name: tl.name, l: &l}
		t.Run(tl.name, func(t *testing.T) {
			restore := tl.use()
			defer restore()
			if SandboxIsolation().Level == "basic" {
				t.Skip("the basic level has no sandbox init, and no cgroup")
			}
			out := prog.Run(context.Background(), "", []string{"kids"}, "")
			if out.Status != MemoryLimit {
				t.Errorf("four children of 64 MiB under a 128 MiB limit: %s (%q, %q), want memory_limit", out.Status, out.Stdout, out.Stderr)
			}
			// The stray grandchild's mark goes where every level lets it write: its work folder.
			work := t.TempDir()
			os.Chmod(work, 0o777)
			out = prog.Run(context.Background(), work, []string{"stray", "mark"}, "")
			if out.Status != Pass {
				t.Fatalf("stray: %s %q %q", out.Status, out.Stdout, out.Stderr)
			}
			time.Sleep(3 * time.Second)
			if _, err := os.Stat(filepath.Join(work, "mark")); err == nil {
				t.Errorf("a grandchild in a session of its own outlived the run and wrote its mark")
			}
			restore()
			endIdleSessions()
			left, _ := filepath.Glob(filepath.Join(dir, "run-*"))
			for i := 0; len(left) > 0 && i < 50; i++ {
				time.Sleep(100 * time.Millisecond)
				left, _ = filepath.Glob(filepath.Join(dir, "run-*"))
			}
			if len(left) > 0 {
				t.Errorf("cgroups left behind: %v", left)
			}
		})
	}
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
