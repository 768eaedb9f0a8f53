//go:build linux

package vmtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// checkerDir is the checker package's folder, from this one's.
const checkerDir = "../.."

// TestCgroupsInVM runs the checker's sandbox tests (package checker) inside a virtual machine whose kernel has a
// cgroup2 hierarchy with every controller: the path that only a system delegating cgroup v2 takes,
// which a machine with cgroup v1 controllers (like the one this was written on) cannot show. The
// machine boots the kernel WORKBOOK_VM_KERNEL names (a vmlinuz, for example Debian's
// linux-image-cloud-amd64, which .ci/run downloads) with an initramfs made here: the init of
// checker/internal/vminit, this package's test binary and its testdata, and the Go toolchain. The
// init runs the tests in four scenarios (see vminit): as a delegated service, as a user in a
// delegated scope, in a scope shared with another process, where the checker must fall back, and
// in a session's scope beside a real `systemd --user` (this machine's Debian systemd, copied into
// the initramfs with the libraries it loads), whom the checker must ask for a delegated scope.
func TestCgroupsInVM(t *testing.T) {
	kernel := os.Getenv("WORKBOOK_VM_KERNEL")
	if kernel == "" {
		t.Skip("set WORKBOOK_VM_KERNEL to a Linux kernel image (vmlinuz) to run the cgroup v2 tests in a virtual machine; .ci/run does")
	}
	qemu, err := exec.LookPath("qemu-system-" + map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH])
	if err != nil {
		t.Fatalf("WORKBOOK_VM_KERNEL is set but qemu is missing: %v", err)
	}
	if testing.Short() {
		t.Skip("the virtual machine takes minutes")
	}
	dir := t.TempDir()
	build := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	build("test", "-c", "-o", filepath.Join(dir, "checker.test"), checkerDir)
	build("build", "-o", filepath.Join(dir, "init"), checkerDir+"/internal/vminit")
	run := os.Getenv("WORKBOOK_VM_RUN")
	if run == "" {
		run = "TestCgroup|TestHostile"
	}
	// The hostile programs that a limit on a run's whole tree of processes stops, and the hunt for a
	// way out of the cgroup (the others do not depend on cgroups, and TestHostile runs them here).
	// The machine is emulated: the whole test takes minutes, within go test's default timeout.
	hostile := "memkids,forkbomb,setsid,orphan,cgescape"
	if v := os.Getenv("WORKBOOK_VM_HOSTILE"); v != "" {
		hostile = v
	}
	// The emulated machine compiles many times slower: the standard packages its programs and the
	// sandbox init import are compiled here first, natively, into a build cache of their own that
	// the machine starts with, as the checker builds them (its environment; with -trimpath for the
	// init). The machine's GOROOT is at the same path as here, so the entries are the ones its
	// builds look for.
	cache := filepath.Join(dir, "cache")
	std := []string{"bufio", "bytes", "encoding/json", "fmt", "io/fs", "net", "os", "os/exec", "os/signal",
		"path/filepath", "runtime", "strconv", "strings", "sync/atomic", "syscall", "time", "unsafe"}
	goBin, err := checker.GoTool()
	if err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{nil, {"-trimpath"}} {
		cmd := exec.Command(goBin, append(append([]string{"build"}, flags...), std...)...)
		cmd.Dir = dir
		scratch := t.TempDir()
		// The settings of the checker's builds that take part in the cache's keys (checker's
		// buildEnv).
		cmd.Env = []string{"PATH=" + filepath.Dir(goBin), "HOME=" + scratch, "GOCACHE=" + cache,
			"GOPATH=" + filepath.Join(scratch, "gopath"), "TMPDIR=" + scratch, "GOTOOLCHAIN=local",
			"GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off", "GOENV=off", "CGO_ENABLED=0", "GOTELEMETRY=off"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("warming the machine's build cache: %v\n%s", err, out)
		}
	}
	goroot := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot = strings.TrimSpace(string(out))
	}
	systemd, err := systemdFiles()
	if err != nil {
		t.Fatalf("the systemd scenario needs this machine's systemd (Debian's systemd package; .ci/install-deps installs it): %v", err)
	}
	initrd := filepath.Join(dir, "initrd")
	if err := writeInitrd(initrd, dir, goroot, cache, systemd); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	// no_timer_check: on a busy host the emulated timer can look broken to the kernel's check at
	// boot ("IO-APIC + timer doesn't work"), which then panics.
	args := []string{"-m", "4096", "-smp", "2", "-display", "none", "-monitor", "none", "-serial", "stdio",
		"-no-reboot", "-kernel", kernel, "-initrd", initrd,
		"-append", "console=ttyS0 panic=-1 loglevel=4 no_timer_check wbgoroot=" + goroot + " wbhostile=" + hostile + " wbrun=" + run}
	// Software emulation by default: under another hypervisor (as on the machines this was written
	// on) KVM may be offered and still hang at boot. WORKBOOK_VM_ACCEL=kvm asks for it.
	if os.Getenv("WORKBOOK_VM_ACCEL") == "kvm" {
		args = append(args, "-enable-kvm", "-cpu", "host")
	} else {
		args = append(args, "-accel", "tcg,thread=multi", "-cpu", "max")
	}
	cmd := exec.CommandContext(ctx, qemu, args...)
	log, err := os.Create(filepath.Join(dir, "console.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = log
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exits := map[string]string{}
	var failures []string
	sc := bufio.NewScanner(io.TeeReader(out, log))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	exitLine := regexp.MustCompile(`WBVM-EXIT (\S+) (\S+)`)
	testLine := regexp.MustCompile(`^\s+\w+_test\.go:\d+: `) // what the tests said
	var tail, said []string
	said = append(said, "")
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if testLine.MatchString(line) || strings.HasPrefix(line, "WBVM-SCENARIO") {
			said = append(said, line)
		}
		tail = append(tail, line)
		if len(tail) > 400 {
			tail = tail[1:]
		}
		if m := exitLine.FindStringSubmatch(line); m != nil {
			exits[m[1]] = m[2]
		}
		if strings.HasPrefix(line, "WBVM-FAIL") || strings.HasPrefix(line, "--- FAIL") {
			failures = append(failures, line)
		}
		if trimmed := strings.TrimSpace(line); testing.Verbose() && (strings.HasPrefix(line, "WBVM-") ||
			strings.HasPrefix(trimmed, "--- ") || strings.HasPrefix(line, "ok") || strings.HasPrefix(line, "FAIL")) {
			t.Log(line)
		}
	}
	werr := cmd.Wait()
	t.Logf("the virtual machine ran for %v (console log: %s)", time.Since(start).Round(time.Second), log.Name())
	for _, sc := range []string{"service", "user", "shared", "systemd"} {
		if exits[sc] != "0" {
			failures = append(failures, fmt.Sprintf("scenario %s: exit %q", sc, exits[sc]))
		}
	}
	if len(failures) > 0 || werr != nil {
		stderr, _ := os.ReadFile(log.Name())
		t.Errorf("qemu: %v\n%s\n--- what the tests said:%s\n--- the console's last lines:\n%s\n--- qemu:\n%s", werr,
			strings.Join(failures, "\n"), strings.Join(said, "\n"), strings.Join(tail, "\n"), lastLines(string(stderr), 20))
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// systemdFiles lists systemd's manager and the shared libraries it loads (ldd's list, the dynamic
// loader included), at their paths on this machine, which are their paths in the virtual machine.
func systemdFiles() ([]string, error) {
	const systemd = "/usr/lib/systemd/systemd"
	if _, err := os.Stat(systemd); err != nil {
		return nil, err
	}
	out, err := exec.Command("ldd", systemd).Output()
	if err != nil {
		return nil, fmt.Errorf("ldd %s: %v", systemd, err)
	}
	files := []string{systemd}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[1] == "=>" && strings.HasPrefix(f[2], "/"):
			files = append(files, f[2])
		case len(f) >= 1 && strings.HasPrefix(f[0], "/"):
			files = append(files, f[0])
		}
	}
	return files, nil
}

// writeInitrd writes the machine's initramfs, an uncompressed cpio archive (the "newc" format the
// kernel unpacks): /init, /checker with the test binary and testdata, the parts of GOROOT that
// building a program of the standard library needs (at goroot), the build cache as /cache, and the
// files of extra at their own paths (their contents, symbolic links followed).
func writeInitrd(path, built, goroot, cache string, extra []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := &cpioWriter{w: bufio.NewWriterSize(f, 1<<20)}
	for _, d := range []string{"bin", "checker", "dev", "etc", "proc", "sys", "tmp"} {
		w.dir(d)
	}
	if err := w.file("init", filepath.Join(built, "init"), 0o755); err != nil {
		return err
	}
	if err := w.file("checker/checker.test", filepath.Join(built, "checker.test"), 0o755); err != nil {
		return err
	}
	if err := w.tree("checker/testdata", filepath.Join(checkerDir, "testdata"), func(string, fs.DirEntry) bool { return true }); err != nil {
		return err
	}
	tools := filepath.Join("pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH)
	keep := func(rel string, d fs.DirEntry) bool {
		top := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		switch {
		case rel == ".":
			return true
		case top == "bin" || top == "lib" || rel == "go.env" || rel == "VERSION":
			return true
		case top == "pkg":
			return rel == "pkg" || rel == filepath.Join("pkg", "tool") || strings.HasPrefix(rel, tools) ||
				strings.HasPrefix(rel, filepath.Join("pkg", "include"))
		case top == "src":
			// The standard library without its tests and the commands' sources.
			return d.Name() != "testdata" && !strings.HasSuffix(d.Name(), "_test.go") &&
				!strings.HasPrefix(rel, filepath.Join("src", "cmd")+string(filepath.Separator))
		}
		return false
	}
	target := strings.TrimPrefix(filepath.ToSlash(goroot), "/")
	parts := strings.Split(target, "/")
	for i := 1; i < len(parts); i++ {
		w.dir(strings.Join(parts[:i], "/"))
	}
	if err := w.tree(target, goroot, keep); err != nil {
		return err
	}
	if err := w.tree("cache", cache, func(string, fs.DirEntry) bool { return true }); err != nil {
		return err
	}
	made := map[string]bool{"bin": true, "checker": true, "dev": true, "etc": true, "proc": true, "sys": true, "tmp": true}
	for _, p := range extra {
		rel := strings.TrimPrefix(filepath.Clean(p), "/")
		parts := strings.Split(rel, "/")
		for i := 1; i < len(parts); i++ {
			if d := strings.Join(parts[:i], "/"); !made[d] {
				made[d] = true
				w.dir(d)
			}
		}
		if err := w.file(rel, p, 0o755); err != nil {
			return err
		}
	}
	w.trailer()
	if w.err != nil {
		return w.err
	}
	if err := w.w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// cpioWriter writes a cpio archive in the "newc" format.
type cpioWriter struct {
	w   *bufio.Writer
	ino int
	err error
}

func (c *cpioWriter) header(name string, mode uint32, size int64) {
	c.ino++
	if c.err != nil {
		return
	}
	_, c.err = fmt.Fprintf(c.w, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		c.ino, mode, 0, 0, 1, 0, size, 0, 0, 0, 0, len(name)+1, 0)
	if c.err == nil {
		_, c.err = c.w.WriteString(name + "\x00")
	}
	c.pad(110 + len(name) + 1)
}

func (c *cpioWriter) pad(n int) {
	if c.err == nil && n%4 != 0 {
		_, c.err = c.w.Write(make([]byte, 4-n%4))
	}
}

func (c *cpioWriter) dir(name string) { c.header(name, 0o040755, 0) }

func (c *cpioWriter) file(name, src string, perm uint32) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	c.header(name, 0o100000|perm, int64(len(data)))
	if c.err == nil {
		_, c.err = c.w.Write(data)
	}
	c.pad(len(data))
	return c.err
}

// tree adds the regular files and folders under src that keep accepts, as name/….
func (c *cpioWriter) tree(name, src string, keep func(rel string, d fs.DirEntry) bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if !keep(rel, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.ToSlash(filepath.Join(name, rel))
		switch {
		case d.IsDir():
			c.dir(target)
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			return c.file(target, p, uint32(info.Mode().Perm()))
		}
		return c.err
	})
}

func (c *cpioWriter) trailer() { c.header("TRAILER!!!", 0, 0) }
