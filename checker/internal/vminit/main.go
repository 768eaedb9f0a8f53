//go:build linux

// Command vminit is the first process of the virtual machine in which the checker's cgroup v2 tests
// run (see checker/internal/vmtest): a Linux kernel of its own, with a cgroup2 hierarchy that has
// every controller, which the machine the tests are written on may not have. It mounts /proc, /sys,
// /dev, /tmp and the cgroup2 file system, then runs the checker's test binary once per scenario:
//
//   - service: as root, alone in a delegated cgroup, as a systemd service with Delegate=yes is;
//   - user: as the user 1000, alone in a scope delegated to it below a user cgroup with the memory
//     and pids controllers, as `systemd-run --user --scope -p Delegate=yes` makes;
//   - shared: as the user 1000 in a delegated scope that holds another process too, as a terminal's
//     scope does, where the checker must fall back to its watchdog and say why;
//   - systemd: as the user 1000 in a session's scope that is not the user's (root's, shared with
//     another process, as logind makes them), with the user's systemd manager (Debian's systemd,
//     started here as `systemd --user` in user@1000.service, its cgroup delegated to the user),
//     where the checker must ask that manager for a delegated scope of its own and use it.
//
// Each scenario's test binary gets WORKBOOK_VM_SCENARIO, so that its tests require what the
// scenario must give rather than skip, and WORKBOOK_TEST_TIMESCALE=20, since an emulated machine
// runs programs many times slower than the time limits of the tests expect. For each it prints "WBVM-EXIT NAME CODE" on the console,
// then it powers the machine off. The kernel command line gives the tests to run (wbrun=REGEXP).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

const (
	user   = 1000
	cgroup = "/sys/fs/cgroup"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "sleep" {
		time.Sleep(time.Hour)
		return
	}
	defer powerOff()
	if err := mountAll(); err != nil {
		fmt.Println("WBVM-FAIL mounts:", err)
		return
	}
	run, goroot, hostile := ".", "/usr/local/go", ""
	if data, err := os.ReadFile("/proc/cmdline"); err == nil {
		for _, f := range strings.Fields(string(data)) {
			if v, ok := strings.CutPrefix(f, "wbrun="); ok {
				run = v
			}
			if v, ok := strings.CutPrefix(f, "wbgoroot="); ok {
				goroot = v
			}
			if v, ok := strings.CutPrefix(f, "wbhostile="); ok {
				hostile = v
			}
		}
	}
	fmt.Println("WBVM-START", run)
	for _, sc := range []struct {
		name   string
		uid    int
		group  string
		shared bool
		run    string
	}{
		{"service", 0, "grader.service", false, run},
		{"user", user, "user-1000/wb.scope", false, run},
		{"shared", user, "user-1000/shared.scope", true, "TestCgroup"},
		{"systemd", user, "user-1000/session-1.scope", true, "TestCgroup|TestScope"},
	} {
		code, err := scenario(sc.name, sc.uid, sc.group, sc.shared, sc.run, goroot, hostile)
		if err != nil {
			fmt.Println("WBVM-FAIL", sc.name, err)
			continue
		}
		fmt.Println("WBVM-EXIT", sc.name, code)
	}
}

func mountAll() error {
	for _, m := range []struct{ fs, dir, data string }{
		{"proc", "/proc", ""},
		{"sysfs", "/sys", ""},
		{"devtmpfs", "/dev", ""},
		{"tmpfs", "/tmp", "size=80%,mode=1777"},
		{"cgroup2", cgroup, ""},
	} {
		if err := os.MkdirAll(m.dir, 0o755); err != nil {
			return err
		}
		if err := syscall.Mount(m.fs, m.dir, m.fs, 0, m.data); err != nil {
			return fmt.Errorf("mount %s: %w", m.dir, err)
		}
	}
	if err := os.MkdirAll("/etc", 0o755); err != nil {
		return err
	}
	// What the checker and the go command look up: a user for 1000, and a loopback device.
	passwd := "root:x:0:0:root:/tmp/home-0:/bin/sh\nlearner:x:1000:1000:learner:/tmp/home-1000:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n"
	if err := os.WriteFile("/etc/passwd", []byte(passwd), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile("/etc/group", []byte("root:x:0:\nlearner:x:1000:\nnogroup:x:65534:\n"), 0o644); err != nil {
		return err
	}
	return write(filepath.Join(cgroup, "cgroup.subtree_control"), "+memory +pids")
}

func write(file, s string) error { return os.WriteFile(file, []byte(s), 0) }

// delegate makes the cgroup dir and gives it to uid as systemd delegates a unit's cgroup: the folder
// and its cgroup.procs, cgroup.subtree_control and cgroup.threads.
func delegate(dir string, uid int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []string{"", "cgroup.procs", "cgroup.subtree_control", "cgroup.threads"} {
		if err := os.Chown(filepath.Join(dir, f), uid, uid); err != nil {
			return err
		}
	}
	return nil
}

func scenario(name string, uid int, group string, shared bool, run, goroot, hostile string) (int, error) {
	dir := filepath.Join(cgroup, group)
	if parent := filepath.Dir(dir); parent != cgroup {
		// The user's own cgroup, where the system enables the controllers for its scopes.
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return 0, err
		}
		if err := write(filepath.Join(parent, "cgroup.subtree_control"), "+memory +pids"); err != nil {
			return 0, err
		}
	}
	env := []string{"PATH=" + filepath.Join(goroot, "bin") + ":/bin", "TMPDIR=/tmp", "GOTOOLCHAIN=local",
		"GOFLAGS=-mod=mod", "GOPROXY=off", "CGO_ENABLED=0", "WORKBOOK_VM_SCENARIO=" + name,
		"WORKBOOK_HOSTILE=" + hostile, "WORKBOOK_TEST_TIMESCALE=20"}
	if name == "systemd" {
		// The session's scope is root's, as logind's are: the checker cannot use it.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 0, err
		}
		runtime, stop, err := userManager(uid)
		if err != nil {
			return 0, err
		}
		defer stop()
		env = append(env, "XDG_RUNTIME_DIR="+runtime)
	} else if err := delegate(dir, uid); err != nil {
		return 0, err
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	attr := func() *syscall.SysProcAttr {
		a := &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
		if uid != 0 {
			a.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), Groups: []uint32{}}
		}
		return a
	}
	if shared {
		sleeper := exec.Command("/init", "sleep")
		sleeper.SysProcAttr = attr()
		if err := sleeper.Start(); err != nil {
			return 0, err
		}
		defer sleeper.Process.Kill()
	}
	home := fmt.Sprintf("/tmp/home-%d", uid)
	if err := os.MkdirAll(home, 0o755); err != nil {
		return 0, err
	}
	// The build cache the tests filled before the machine started, the user's own.
	if err := copyTree("/cache", filepath.Join(home, ".cache", "go-build")); err != nil {
		return 0, err
	}
	if err := chownAll(home, uid); err != nil {
		return 0, err
	}
	cmd := exec.Command("/checker/checker.test", "-test.v", "-test.count=1", "-test.timeout=20m", "-test.run", run)
	cmd.Dir = "/checker"
	cmd.Env = append(env, "HOME="+home)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stdout
	cmd.SysProcAttr = attr()
	fmt.Println("WBVM-SCENARIO", name)
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 0, err
	}
	return 0, nil
}

// userManager starts the user's systemd manager, as user@UID.service does: `systemd --user` as the
// user, in a cgroup delegated to the user, with a runtime folder of the user's, and waits for its
// private socket. The user's own cgroup's cgroup.procs is the user's too: on a real system the
// user's manager, which may not move a process out of a session's scope, asks the system's manager
// to (AttachProcessesToUnit); this machine has no system manager, so the user's moves it itself.
func userManager(uid int) (runtime string, stop func(), err error) {
	const systemd = "/usr/lib/systemd/systemd"
	if _, err := os.Stat(systemd); err != nil {
		return "", nil, fmt.Errorf("no systemd in the machine: %v", err)
	}
	userGroup := filepath.Join(cgroup, fmt.Sprintf("user-%d", uid))
	if err := os.Chown(filepath.Join(userGroup, "cgroup.procs"), uid, uid); err != nil {
		return "", nil, err
	}
	service := filepath.Join(userGroup, fmt.Sprintf("user@%d.service", uid))
	if err := delegate(service, uid); err != nil {
		return "", nil, err
	}
	runtime = fmt.Sprintf("/tmp/run-%d", uid)
	if err := os.MkdirAll(runtime, 0o700); err != nil {
		return "", nil, err
	}
	if err := os.Chown(runtime, uid, uid); err != nil {
		return "", nil, err
	}
	// systemd --user runs only where systemd booted the system, which it tells by this folder
	// (sd_booted); the machine has no system manager, and no root process here asks it for one.
	if err := os.MkdirAll("/run/systemd/system", 0o755); err != nil {
		return "", nil, err
	}
	// A default target of nothing: the manager starts no unit of its own.
	if err := os.MkdirAll("/etc/systemd/user", 0o755); err != nil {
		return "", nil, err
	}
	if err := os.WriteFile("/etc/systemd/user/default.target", []byte("[Unit]\nDescription=Nothing\n"), 0o644); err != nil {
		return "", nil, err
	}
	fd, err := syscall.Open(service, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", nil, err
	}
	defer syscall.Close(fd)
	home := fmt.Sprintf("/tmp/home-%d", uid)
	cmd := exec.Command(systemd, "--user")
	cmd.Env = []string{"HOME=" + home, "USER=learner", "LOGNAME=learner", "XDG_RUNTIME_DIR=" + runtime,
		"PATH=/bin", "SYSTEMD_LOG_TARGET=console", "SYSTEMD_LOG_LEVEL=notice"}
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stdout
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd,
		Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), Groups: []uint32{}}}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return "", nil, err
	}
	if err := os.Chown(home, uid, uid); err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// SIGKILL: on SIGTERM a user manager starts exit.target, which this machine does not have, and
	// stays.
	stop = func() { cmd.Process.Kill(); <-done }
	private := filepath.Join(runtime, "systemd", "private")
	for i := 0; ; i++ {
		if _, err := os.Stat(private); err == nil {
			return runtime, stop, nil
		}
		select {
		case err := <-done:
			return "", nil, fmt.Errorf("systemd --user ended before it made %s: %v", private, err)
		default:
		}
		if i == 1200 {
			stop()
			return "", nil, fmt.Errorf("systemd --user made no %s in two minutes", private)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// copyTree copies the regular files and folders under src to dst.
func copyTree(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, info.Mode().Perm())
	})
}

func chownAll(dir string, uid int) error {
	return filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
}

func powerOff() {
	syscall.Sync()
	syscall.Reboot(syscall.LINUX_REBOOT_CMD_POWER_OFF)
}
