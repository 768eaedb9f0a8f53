//go:build linux

package checker

import (
	"bufio"
	"context"
	"crypto/sha256"
	"embed" // the sandbox init's source
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux a run does not exec the learner's program directly. It starts the sandbox init (the
// program in internal/sandboxinit, built once from its embedded source into the user's cache) in
// fresh namespaces; the init sets up what must be done between fork and exec (private /tmp, resource
// limits, no capabilities, no_new_privs, Landlock), reports a failure on a status pipe, and then
// execs the learner's program, which becomes the first process of its PID namespace: when it ends,
// or is killed, the kernel kills everything it started.
const (
	initEnv = "WORKBOOK_SANDBOX_INIT"
	// sandboxID is the user and group a learner's program runs as when the checker runs as root in
	// a user namespace: nobody, never root. Without a user namespace it runs as a user of its own
	// (see runID), so that RLIMIT_NPROC counts its processes alone.
	sandboxID = 65534
	// Descriptors of the init: the status pipe, the work folder and the program (both O_PATH), and
	// the init itself, which the child execs as /proc/self/fd/6 so that no folder on its path needs
	// to be open to the sandbox's user.
	fdStatus, fdWork, fdProg, fdInit = 3, 4, 5, 6
	tmpfsSize                        = "64m"
	// openFiles is a run's RLIMIT_NOFILE: a Go program needs six or so (its standard streams, the
	// network poller), and every pipe and socket it could fill is one of them (the sandbox init's
	// seccomp filter keeps their buffers at their defaults).
	openFiles     = 64
	fileSizeLimit = 64 << 20
	// stackLimit is a run's RLIMIT_STACK: the main thread's stack, which a Go program hardly uses
	// (goroutines' stacks are on its heap), as Linux gives it by default.
	stackLimit = 8 << 20
)

//go:embed internal/sandboxinit/main.go
var initSource []byte

// initFork is the init's fork in assembly (vfork_linux_*.s) and its declarations, built beside
// main.go.
//
//go:embed internal/sandboxinit/vfork_linux*
var initFork embed.FS

// waitsSource is package waits, which the init imports to tell a sleeper from a waiter: it is built
// beside the init's source, under the same import path.
//
//go:embed internal/waits/waits.go
var waitsSource []byte

// level is one way of sandboxing a run, from the strongest the system may allow down to none.
type level struct {
	name       string // namespaces, landlock, rlimits or basic
	reexec     bool   // run through the sandbox init
	namespaces bool   // new PID, network, mount, IPC and UTS namespaces
	userns     bool   // inside a new user namespace
	landlock   int    // Landlock ABI used (0: none)
	setID      bool   // root without a user namespace: the init becomes sandboxID before exec
	mapID      bool   // root in a user namespace: the namespace's root is sandboxID outside
	nproc      bool   // RLIMIT_NPROC counts only this run's processes (or those of sandboxID)
	proc       bool   // with namespaces: a /proc of the run's own, read by the memory watchdog
	seccomp    bool   // a seccomp filter refuses the system calls the init's table lists
}

// Without a user namespace RLIMIT_NPROC counts the processes of a user on the whole machine: had
// every run been nobody, one program's fork bomb would starve every other run (another student's in
// a grading, another checker's). So as root each session or run of such a level gets a user of its
// own from a range no account uses, never root; its files are given to it, and nothing of it
// outlives the run.
const (
	runIDBase  = 0x7f000000
	runIDSlots = 1 << 10
)

var runIDNext atomic.Uint32

// runID is the user a session or a run of level l runs as when the checker is root.
func runID(l level) int {
	if !l.setID {
		return sandboxID
	}
	n := runIDNext.Add(1) % runIDSlots
	return runIDBase + (os.Getpid()%(1<<14))*runIDSlots + int(n)
}

// candidates lists the levels to try, strongest first.
func candidates() []level {
	abi := landlockABI()
	root := os.Geteuid() == 0
	var ls []level
	ls = append(ls, level{name: "namespaces", reexec: true, namespaces: true, userns: true, landlock: abi, mapID: root, nproc: true})
	if root {
		ls = append(ls, level{name: "namespaces", reexec: true, namespaces: true, landlock: abi, setID: true, nproc: true})
	}
	name := "landlock"
	if abi == 0 {
		name = "rlimits"
	}
	ls = append(ls, level{name: name, reexec: true, landlock: abi, setID: root, nproc: root})
	ls = append(ls, level{name: "basic"})
	return ls
}

var (
	levelOnce sync.Once
	theLevel  level
	testLevel *level // set by tests to force a level
)

// currentLevel is the strongest level that works here, found once by trying each in turn.
func currentLevel() level {
	// The cgroups first: setting them up may move the checker's process, which it must do before
	// it starts any child.
	cgroups()
	guardOnce.Do(guardMemory)
	if testLevel != nil {
		return *testLevel
	}
	levelOnce.Do(func() {
		if _, err := initPath(); err != nil {
			probeLog = append(probeLog, "sandbox init: "+err.Error())
		}
		for _, l := range candidates() {
			if !l.reexec {
				theLevel = l
				return
			}
			if err := probe(l); err != nil {
				probeLog = append(probeLog, fmt.Sprintf("%s (user namespace %v): %v", l.name, l.userns, err))
				continue
			}
			l = withExtras(l)
			theLevel = l
			checkCgroups(l)
			return
		}
	})
	return theLevel
}

var guardOnce sync.Once

// guardMemory makes the checker's process not dumpable before it starts any run, so that no process
// of its user but root can open its /proc/PID/mem, exe, environ, maps or fd (the kernel asks for
// CAP_SYS_PTRACE to reach a process that is not dumpable): at the levels without Landlock (rlimits,
// and basic), a program that runs as the checker's user could otherwise read the checker's memory,
// where the expected outputs of every case are, and its executable, which embeds the course's
// cases. The programs the checker starts are dumpable again once they exec; only the checker's
// own core dump is lost.
func guardMemory() {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		probeLog = append(probeLog, "not dumpable: "+err.Error())
	}
}

// withExtras adds to a level that works here what it may add where the kernel allows it, each tried
// on its own so that a system without one keeps the rest: a /proc of the run's own (with
// namespaces) and the seccomp filter.
func withExtras(l level) level {
	// Most kernels allow both: one probe says so. Only where it fails is each tried alone.
	both := l
	both.proc, both.seccomp = l.namespaces, seccompArches[runtime.GOARCH]
	if probe(both) == nil && both.seccomp {
		return both
	}
	if l.namespaces {
		l.proc = true
		if err := probe(l); err != nil {
			probeLog = append(probeLog, "a /proc of the run's own: "+err.Error())
			l.proc = false
		}
	}
	if !seccompArches[runtime.GOARCH] {
		probeLog = append(probeLog, "seccomp: no filter for "+runtime.GOARCH)
		return l
	}
	l.seccomp = true
	if err := probe(l); err != nil {
		probeLog = append(probeLog, "seccomp: "+err.Error())
		l.seccomp = false
	}
	return l
}

// seccompArches are the architectures the sandbox init has a seccomp filter for (its tables).
var seccompArches = map[string]bool{"amd64": true, "arm64": true}

// isolation lists the protections of a level.
func (l level) isolation() *Isolation {
	var ps []string
	if l.namespaces {
		ps = append(ps, ProtectProcessTree, ProtectNetwork, ProtectPrivateTmp)
	}
	if l.landlock > 0 {
		ps = append(ps, ProtectFiles)
	}
	if l.reexec {
		ps = append(ps, ProtectMemory, ProtectCPU)
	}
	if l.reexec && (l.nproc || l.seccomp) {
		// Without RLIMIT_NPROC of the run's own, the filter makes the run one process and the
		// checker's watcher counts its threads (taskLimit).
		ps = append(ps, ProtectProcesses)
	}
	if l.namespaces {
		// Sessions (every run at this level) work in a copy of their folder inside the tmpfs.
		ps = append(ps, ProtectRunDisk)
	}
	if l.namespaces && l.proc {
		ps = append(ps, ProtectRunMemory)
	}
	if l.seccomp {
		// The filter also makes a run one process: no fork, no clone but of a thread, no execve
		// after the program's own (see internal/sandboxinit).
		ps = append(ps, ProtectSyscalls, ProtectOneProcess)
	}
	t := cgroups()
	if l.reexec && t != nil && (l.landlock > 0 || l.setID || l.mapID) {
		// Every tree of processes starts in a cgroup of its own: memory and tasks bounded for all
		// of them together, and all of them killed at once. That holds only where the program
		// cannot write to the cgroup file system, as the checker's own user could, to move itself
		// out: Landlock keeps it out, or the program runs as another user.
		ps = append(ps, ProtectRunMemory, ProtectProcesses, ProtectProcessTree)
	}
	iso := newIsolation(l.name, ps...)
	if l.reexec && t != nil {
		iso.Cgroup, iso.CgroupFrom = t.dir, t.from
	}
	return iso
}

func platformIsolation() *Isolation { return currentLevel().isolation() }

// The sandbox init, built from initSource on first use.
var (
	initOnce    sync.Once
	initBinary  string
	initErr     error
	testInitBin string // set by tests to use an init built elsewhere
)

// initPath returns the sandbox init's executable, building it when the cache does not hold the one
// of this source: workbook/sandbox-init-HASH beside the Go build cache or in the user's cache
// folder, else in a folder of the user's own under the system's temporary directory.
func initPath() (string, error) {
	if testInitBin != "" {
		return testInitBin, nil
	}
	initOnce.Do(func() { initBinary, initErr = buildInit() })
	return initBinary, initErr
}

func buildInit() (string, error) {
	src := append(append([]byte{}, initSource...), waitsSource...)
	for _, name := range initForkFiles() {
		data, _ := initFork.ReadFile(name)
		src = append(append(src, name...), data...)
	}
	sum := sha256.Sum256(append(src, runtime.GOARCH...))
	name := "sandbox-init-" + hex.EncodeToString(sum[:8])
	var dirs []string
	// Beside the Go build cache when it has the usual name (~/.cache/go-build), so that runs with
	// another HOME but the same GOCACHE, such as the CLI's test scripts, share the init too.
	if gc := GoCache(); filepath.Base(gc) == "go-build" {
		dirs = append(dirs, filepath.Join(filepath.Dir(gc), "workbook"))
	}
	if c, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(c, "workbook"))
	}
	dirs = append(dirs, filepath.Join(os.TempDir(), fmt.Sprintf("workbook-sandbox-%d", os.Geteuid())))
	var errs []error
	for _, dir := range dirs {
		p := filepath.Join(dir, name)
		if err := trustedFile(p); err == nil {
			return p, nil
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := trustedDir(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := compileInit(dir, p); err != nil {
			errs = append(errs, err)
			continue
		}
		return p, nil
	}
	return "", errors.Join(errs...)
}

// trustedDir refuses a folder that another user could write in, since the init runs before every
// learner's program, as root when the checker is root.
func trustedDir(dir string) error {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return err
	}
	if int(st.Uid) != os.Geteuid() || st.Mode&0o022 != 0 {
		return fmt.Errorf("%s is not a folder of this user's alone", dir)
	}
	return nil
}

func trustedFile(p string) error {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Geteuid() || st.Mode&0o022 != 0 {
		return fmt.Errorf("%s is not a file of this user's alone", p)
	}
	return trustedDir(filepath.Dir(p))
}

// compileInit builds the init, offline, into a temporary name beside p and renames it into place.
func compileInit(dir, p string) error {
	goBin, err := GoTool()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	// The init and package waits, under the import paths they have in this module.
	src := filepath.Join(work, "src")
	for _, d := range []string{filepath.Join(src, "checker/internal/sandboxinit"), filepath.Join(src, "checker/internal/waits"),
		filepath.Join(work, "home"), filepath.Join(work, "tmp"), filepath.Join(work, "gopath")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	files := map[string][]byte{
		"go.mod":                               []byte("module github.com/workbook-course/workbook\n\ngo 1.22\n"),
		"checker/internal/sandboxinit/main.go": initSource,
		"checker/internal/waits/waits.go":      waitsSource,
	}
	for _, name := range initForkFiles() {
		data, err := initFork.ReadFile(name)
		if err != nil {
			return err
		}
		files["checker/"+name] = data
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(src, name), data, 0o644); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tmp := filepath.Join(work, "init")
	cmd, out := goCommand(ctx, goBin, src, buildEnv(goBin, work), 1<<20, "build", "-trimpath", "-ldflags=-s -w", "-o", tmp, "./checker/internal/sandboxinit")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the sandbox init: %v: %s", err, out.String())
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// initConfig is what the sandbox init is told, as JSON in initEnv (see internal/sandboxinit).
type initConfig struct {
	Probe       bool      `json:"probe,omitempty"`
	Serve       bool      `json:"serve,omitempty"`
	RetireCPU   int64     `json:"retire_cpu_ns,omitempty"`
	CPU         *int      `json:"cpu,omitempty"`
	RunIPC      bool      `json:"run_ipc,omitempty"`
	Args        []string  `json:"args"`
	Env         []string  `json:"env"`
	Mount       bool      `json:"mount,omitempty"`
	TmpfsSize   string    `json:"tmpfs_size,omitempty"`
	SetID       int       `json:"set_id,omitempty"`
	ClearGroups bool      `json:"clear_groups,omitempty"`
	Rlimits     []rlimitV `json:"rlimits"`
	Landlock    *llConfig `json:"landlock,omitempty"`
	OPath       int       `json:"o_path"`
	Proc        bool      `json:"proc,omitempty"`
	RunMemory   int64     `json:"run_memory,omitempty"`
	Seccomp     bool      `json:"seccomp,omitempty"`
}

type rlimitV struct {
	Res int    `json:"res"`
	Cur uint64 `json:"cur"`
	Max uint64 `json:"max"`
}

type llConfig struct {
	HandledFS  uint64   `json:"handled_fs"`
	HandledNet uint64   `json:"handled_net"`
	Scoped     uint64   `json:"scoped"`
	AttrSize   int      `json:"attr_size"`
	FileRights uint64   `json:"file_rights"`
	Rules      []llRule `json:"rules"`
}

type llRule struct {
	Path   string `json:"path,omitempty"`
	FD     int    `json:"fd,omitempty"`
	Access uint64 `json:"access"`
}

// config is the init configuration of a level under lim; rw are the folders the program may write
// in beside its work folder when it has no private /tmp.
func (l level) config(lim Limits, probe bool, rw []string) initConfig {
	lim = lim.withDefaults()
	cpu := uint64((lim.CPUTime + time.Second - 1) / time.Second)
	// A Go program reserves about 700 MiB of address space before it allocates anything: the
	// memory limit is on private writable memory (RLIMIT_DATA), the address space only a backstop.
	as := uint64(lim.Memory) + 2<<30
	cfg := initConfig{
		Probe:     probe,
		Mount:     l.namespaces,
		TmpfsSize: tmpfsSize,
		Rlimits: []rlimitV{
			{unix.RLIMIT_CPU, cpu, cpu},
			{unix.RLIMIT_DATA, uint64(lim.Memory), uint64(lim.Memory)},
			{unix.RLIMIT_AS, as, as},
			{unix.RLIMIT_FSIZE, fileSizeLimit, fileSizeLimit},
			// 1, not 0: the kernel writes no core file under a page, and starts no helper that a
			// core_pattern pipes to (apport, systemd-coredump) at 1 alone, whatever 0 says; the
			// seccomp filter keeps the program from changing it.
			{unix.RLIMIT_CORE, 1, 1},
			{unix.RLIMIT_NOFILE, openFiles, openFiles},
			// The stack grows by faults below it, charged to RLIMIT_STACK, never to RLIMIT_DATA: a
			// program that raised it to an unlimited hard limit held 1 GiB of stack (stackgrow).
			{unix.RLIMIT_STACK, stackLimit, stackLimit},
		},
		ClearGroups: os.Geteuid() == 0,
		OPath:       unix.O_PATH,
		Proc:        l.namespaces && l.proc,
		Seccomp:     l.seccomp,
	}
	if l.nproc {
		cfg.Rlimits = append(cfg.Rlimits, rlimitV{unix.RLIMIT_NPROC, uint64(lim.Processes), uint64(lim.Processes)})
	}
	if l.setID {
		cfg.SetID = sandboxID
	}
	if l.landlock > 0 {
		cfg.Landlock = landlockConfig(l.landlock, probe, l.namespaces, rw)
	}
	return cfg
}

// landlockConfig lets the learner's program read, write and run only: its work folder and its
// private /tmp (or the folders rw) with every right, its own executable, the time-zone data and a
// few devices; and, from ABI 4 on, use no TCP at all, and from ABI 6 on, signal or reach through
// abstract sockets no process outside the sandbox.
func landlockConfig(abi int, probe, privateTmp bool, rw []string) *llConfig {
	const fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	const read = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	all := uint64(1<<13 - 1) // ABI 1: execute … make_sym
	// A run may write in its folders but run nothing from them: whatever it wrote there is not
	// executable (its program is, by a rule of its own); the build gets EXECUTE back (sandboxBuild).
	if abi >= 2 {
		all |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		all |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		all |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	ll := &llConfig{HandledFS: all, FileRights: fileRights, AttrSize: 8}
	if abi >= 4 {
		ll.HandledNet = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		ll.AttrSize = 16
	}
	if abi >= 6 {
		ll.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		ll.AttrSize = 24
	}
	writable := all &^ unix.LANDLOCK_ACCESS_FS_EXECUTE
	if !probe {
		ll.Rules = append(ll.Rules, llRule{FD: fdWork, Access: writable},
			llRule{FD: fdProg, Access: unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_EXECUTE})
	}
	if privateTmp {
		rw = append(rw, "/tmp")
	}
	for _, p := range rw {
		ll.Rules = append(ll.Rules, llRule{Path: p, Access: writable})
	}
	for _, p := range []string{"/usr/share/zoneinfo", "/etc/localtime", "/dev/urandom", "/dev/random", "/dev/zero"} {
		ll.Rules = append(ll.Rules, llRule{Path: p, Access: read})
	}
	ll.Rules = append(ll.Rules, llRule{Path: "/dev/null", Access: read | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE})
	return ll
}

// sysProcAttr starts the init in the level's namespaces.
func (l level) sysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if l.namespaces {
		attr.Cloneflags = syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWNS |
			syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	}
	if l.userns {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		uid, gid := os.Getuid(), os.Getgid()
		if l.mapID {
			uid, gid = sandboxID, sandboxID
		}
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}}
		attr.GidMappingsEnableSetgroups = os.Geteuid() == 0
		if l.mapID {
			// The child keeps root's IDs, which the namespace does not map; it must become the
			// namespace's root (nobody outside) before it execs, or it has no capabilities inside.
			attr.Credential = &syscall.Credential{Uid: 0, Gid: 0, Groups: []uint32{}}
		}
	}
	return attr
}

// initCmd makes cmd a start of the sandbox init with cfg and the descriptors files (work folder and
// program, or nil in a probe). It returns the read end of the status pipe and the descriptors the
// parent must close once the init has started.
func initCmd(cmd *exec.Cmd, l level, cfg initConfig, work, prog *os.File) (status *os.File, childEnds []*os.File, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	initFile, err := prepareInit(cmd, l, cfg, w, work, prog)
	if err != nil {
		r.Close()
		w.Close()
		return nil, nil, err
	}
	return r, []*os.File{w, initFile}, nil
}

// prepareInit makes cmd a start of the sandbox init with cfg, fd3 as its descriptor 3 (the status
// pipe, or the socket of a session), and work and prog as 4 and 5. It returns the init's executable,
// opened as 6, which the parent closes once the init has started.
func prepareInit(cmd *exec.Cmd, l level, cfg initConfig, fd3, work, prog *os.File) (*os.File, error) {
	initBin, err := initPath()
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	ifd, err := unix.Open(initBin, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: initBin, Err: err}
	}
	initFile := os.NewFile(uintptr(ifd), initBin)
	cmd.Path = fmt.Sprintf("/proc/self/fd/%d", fdInit)
	cmd.Args = []string{"workbook-sandbox-init"}
	cmd.Env = []string{initEnv + "=" + string(data)}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{fd3, work, prog, initFile}
	cmd.SysProcAttr = l.sysProcAttr()
	return initFile, nil
}

// probe starts the init of a level once, with nothing to exec, and reports whether it could set
// everything up.
func probe(l level) error { return probeIn(l, nil) }

// probeIn is probe with the init started in the cgroup g, when g is not nil.
func probeIn(l level, g *procGroup) error {
	var rw []string
	if !l.namespaces {
		rw = []string{os.TempDir()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/proc/self/exe")
	r, ends, err := initCmd(cmd, l, l.config(Limits{}, true, rw), nil, nil)
	if err != nil {
		return err
	}
	defer r.Close()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	g.attach(cmd.SysProcAttr)
	err = cmd.Start()
	for _, f := range ends {
		f.Close()
	}
	if err != nil {
		return err
	}
	err = cmd.Wait()
	r.SetReadDeadline(time.Now().Add(time.Second))
	msg, _ := io.ReadAll(r)
	if len(msg) > 0 {
		return errors.New(string(msg))
	}
	if err != nil {
		return fmt.Errorf("%v %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// runSandbox holds what a sandboxed run needs until it ends.
type runSandbox struct {
	status    *os.File   // read end of the init's status pipe
	childEnds []*os.File // the init's descriptors, closed in the parent once it has started
	group     *procGroup // the run's cgroup, where the system delegates cgroups
	// countTasks: nothing but the watcher bounds the run's threads (see taskLimit).
	countTasks bool
	// unhide gives the program's executable its mode back after the run (see hideExe).
	unhide func()

	// What the status pipe said, read from the start on (readStatus): the init's own CPU time at
	// its exec (execCPU, known once execKnown), then a failure's message.
	statusRead chan struct{} // closed at the pipe's end
	execKnown  atomic.Bool
	execCPU    atomic.Int64
	statusMsg  string
}

// execCPURecord starts the init's record of its own CPU time at the exec (see the sandbox init).
const execCPURecord = "\x00exec-cpu "

// readStatus reads the status pipe to its end: the record of the init's CPU time as soon as it
// comes, and the rest as the failure's message.
func (s *runSandbox) readStatus() {
	defer close(s.statusRead)
	br := bufio.NewReader(io.LimitReader(s.status, 64<<10))
	if head, err := br.Peek(len(execCPURecord)); err == nil && string(head) == execCPURecord {
		if line, err := br.ReadString('\n'); err == nil {
			if ns, err := strconv.ParseInt(strings.TrimSuffix(line[len(execCPURecord):], "\n"), 10, 64); err == nil {
				s.execCPU.Store(ns)
			}
			s.execKnown.Store(true)
		}
	}
	rest, _ := io.ReadAll(br)
	s.statusMsg = string(rest)
}

// programBase is the CPU time the run's process had used when the init exec'd the program, which
// is not the program's; known is false until the init has said it (the program not started yet).
func (s *runSandbox) programBase() (base time.Duration, known bool) {
	if s.status == nil {
		return 0, true // no init: the process is the program's from the start
	}
	return time.Duration(s.execCPU.Load()), s.execKnown.Load()
}

// privateTmp reports whether runs get a /tmp and home of their own (in their mount namespace), so
// that the program's scratch folder needs none for them.
func privateTmp() bool { return currentLevel().namespaces }

// sandboxCmd turns cmd, set up to run the learner's program in dir, into a run of the sandbox init
// that will exec that program.
func (p *Program) sandboxCmd(cmd *exec.Cmd, dir string) (*runSandbox, error) {
	l := currentLevel()
	if !l.reexec {
		setProcessGroup(cmd)
		return &runSandbox{}, nil
	}
	var rw []string
	env := cmd.Env
	if l.namespaces {
		env = setEnv(env, "HOME", "/tmp/home")
		env = setEnv(env, "TMPDIR", "/tmp")
	} else {
		rw = []string{filepath.Join(p.scratch, "home"), filepath.Join(p.scratch, "tmp")}
	}
	id := runID(l)
	if os.Geteuid() == 0 && (l.mapID || l.setID) {
		// The program runs as nobody (or a user of its own): it must be able to write in its work
		// folder, and without a private /tmp, in its own home and tmp.
		if dir != p.emptyDir() {
			if err := chownTree(dir, id); err != nil {
				return nil, err
			}
		}
		if !l.namespaces {
			for _, d := range rw {
				if err := chownTree(d, id); err != nil {
					return nil, err
				}
			}
			if err := os.Chmod(p.scratch, 0o711); err != nil {
				return nil, err
			}
		}
	}
	cfg := l.config(p.limits, false, rw)
	if cfg.SetID > 0 {
		cfg.SetID = id
	}
	cfg.Args = append([]string{cmd.Path}, cmd.Args[1:]...)
	cfg.Env = env
	unhide := func() {}
	if l.hidesExe() {
		var err error
		if unhide, err = hideExe(p.Path); err != nil {
			return nil, err
		}
	}
	sb, err := startWith(cmd, l, cfg, dir)
	if err != nil {
		unhide()
		return nil, err
	}
	sb.unhide = unhide
	// The run's processes together: its memory limit, plus the tmpfs its files are in at the
	// namespace levels (the disk limit, not the memory limit, is what a full tmpfs must meet), plus
	// what the kernel charges for the tree itself.
	lim := p.limits.withDefaults()
	memory := lim.Memory + groupSlack
	if l.namespaces {
		memory += tmpfsBytes
	}
	if sb.group, err = newGroup(memory, lim.Processes); err != nil {
		sb.close()
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	sb.group.attach(cmd.SysProcAttr)
	sb.countTasks = !l.nproc && sb.group == nil
	return sb, nil
}

// hidesExe says whether a program run at level l gets its executable unreadable (see hideExe): at
// the rlimits level of an ordinary user, where runs share the checker's user and nothing else keeps
// them apart.
func (l level) hidesExe() bool {
	return l.reexec && !l.namespaces && l.landlock == 0 && os.Geteuid() != 0
}

// hidden holds, for each executable hideExe made unreadable, its mode before and how many runs
// need it so.
var (
	hiddenMu sync.Mutex
	hidden   = map[string]*hiddenExe{}
)

type hiddenExe struct {
	mode os.FileMode
	runs int
}

// hideExe makes the executable path unreadable, execute-only (0111), until the last run that asked
// for it calls the function it returns, which gives it its mode back. Where a program runs as the
// checker's own user with neither a PID namespace nor Landlock (the rlimits level of an ordinary
// user: a kernel without Landlock, as Debian 12's), nothing else keeps one run from another's
// /proc/PID/mem, fd and environ: a program rewrote the memory of a run beside it (peerattack), as
// it could that of the reference solution making a drawn case's expected output. The kernel makes
// a process not dumpable when it execs a file it may not read, and then only a process with
// CAP_SYS_PTRACE reaches it there.
func hideExe(path string) (func(), error) {
	hiddenMu.Lock()
	defer hiddenMu.Unlock()
	h := hidden[path]
	if h == nil {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
			// A link to the executable cache (cachedExe), which other programs and processes
			// read: the mode changes on a copy of the program's own.
			if err := ownCopy(path); err != nil {
				return nil, err
			}
		}
		if err := os.Chmod(path, 0o111); err != nil {
			return nil, err
		}
		h = &hiddenExe{mode: fi.Mode().Perm()}
		hidden[path] = h
	}
	h.runs++
	return func() {
		hiddenMu.Lock()
		defer hiddenMu.Unlock()
		if h.runs--; h.runs == 0 {
			delete(hidden, path)
			os.Chmod(path, h.mode)
		}
	}, nil
}

// ownCopy replaces the file path, a link, with a copy of its own.
func ownCopy(path string) error {
	tmp := path + ".own"
	if err := copyFile(path, tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// taskLimit is how many threads the watcher lets the run's process have (runLimit.Tasks): none
// where RLIMIT_NPROC counts the run's alone (a user namespace, or a user of its own as root) or a
// cgroup bounds its tasks, and lim.Processes at the landlock and rlimits levels of an ordinary
// user, where RLIMIT_NPROC would count every process of the user and is left out: a program there
// parked 6,000 threads in blocking reads, each a kernel stack and task that no memory limit counts.
func (s *runSandbox) taskLimit(lim Limits) int {
	if !s.countTasks {
		return 0
	}
	return lim.withDefaults().Processes
}

// Beside a run's own memory limit, a cgroup holds the tmpfs of its files (tmpfsSize) and what the
// kernel charges for the processes themselves (page tables, pipes, sockets), and in a session the
// init.
const (
	tmpfsBytes = 64 << 20
	groupSlack = 32 << 20
)

// startWith makes cmd a start of the sandbox init with cfg that execs cmd.Path in dir, both handed
// over as O_PATH descriptors.
func startWith(cmd *exec.Cmd, l level, cfg initConfig, dir string) (*runSandbox, error) {
	wfd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	work := os.NewFile(uintptr(wfd), dir)
	pfd, err := unix.Open(cmd.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		work.Close()
		return nil, &os.PathError{Op: "open", Path: cmd.Path, Err: err}
	}
	prog := os.NewFile(uintptr(pfd), cmd.Path)
	r, ends, err := initCmd(cmd, l, cfg, work, prog)
	if err != nil {
		work.Close()
		prog.Close()
		return nil, err
	}
	return &runSandbox{status: r, childEnds: append(ends, work, prog)}, nil
}

// started closes the parent's copies of the init's descriptors, so that the status pipe reads EOF
// once the init has exec'd or died.
func (s *runSandbox) started() {
	for _, f := range s.childEnds {
		f.Close()
	}
	s.childEnds = nil
	if s.status != nil && s.statusRead == nil {
		s.statusRead = make(chan struct{})
		go s.readStatus()
	}
}

// setupError is what the init reported when it could not set the sandbox up, or "".
func (s *runSandbox) setupError() string {
	if s.status == nil {
		return ""
	}
	s.started()
	s.status.SetReadDeadline(time.Now().Add(time.Second))
	<-s.statusRead
	return s.statusMsg
}

func (s *runSandbox) close() {
	s.started()
	if s.unhide != nil {
		s.unhide()
		s.unhide = nil
	}
	if s.status != nil {
		s.status.Close()
	}
	s.group.close()
	s.group = nil
}

// kill kills every process of the run's cgroup, where it has one.
func (s *runSandbox) kill() { s.group.kill() }

// outOfMemory reports whether the kernel killed the run at its cgroup's memory limit.
func (s *runSandbox) outOfMemory() bool { return s.group.outOfMemory() }

// setEnv sets k=v in env.
func setEnv(env []string, k, v string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, k+"=") {
			out = append(out, kv)
		}
	}
	return append(out, k+"="+v)
}

// chownTree gives dir and everything in it to id.
func chownTree(dir string, id int) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, id, id)
	})
}

// landlockABI is the Landlock ABI version of the running kernel, 0 when Landlock is unavailable.
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// Limits of a sandboxed go build, beside Limits.BuildTime: the memory of each of its processes (the
// go command, the compiler, the linker), and the size of any file it writes, which bounds both the
// executable and every entry it adds to the build cache.
const (
	buildMemory   = 1 << 30
	buildFileSize = 64 << 20
)

// sandboxBuild turns cmd, a go build in scratch, into a start of the sandbox init that execs the go
// command in the same kind of sandbox as a run: new namespaces (no network), no capabilities, and
// Landlock rules that let it read only GOROOT, the build cache and the scratch folder, and write
// only the last two; with the memory and file-size limits above. The build runs as the checker's
// own user (never as root's stand-in nobody), since it writes into the user's build cache; what it
// compiles is the learner's code, but only trusted tools run.
func sandboxBuild(cmd *exec.Cmd, scratch string, lim Limits) (*runSandbox, error) {
	l := currentLevel()
	if !l.reexec {
		return &runSandbox{}, nil
	}
	l.mapID, l.setID, l.nproc, l.seccomp = false, false, false, false
	cache := GoCache()
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, err
	}
	cfg := l.config(lim, false, []string{scratch, cache})
	// No private /tmp: the scratch folder is usually under /tmp, and a tmpfs there would hide it.
	// The go command's temporary files go to the scratch folder (GOTMPDIR), and Landlock keeps it
	// from writing anywhere else.
	cfg.Mount = false
	// Each process's own CPU limit is a last resort: the build is judged by the CPU time of its
	// whole process tree, read while it runs (superviseBuild).
	cpu := uint64((2*lim.withDefaults().BuildTime + time.Second - 1) / time.Second)
	cfg.Rlimits = []rlimitV{
		{unix.RLIMIT_CPU, cpu, cpu},
		{unix.RLIMIT_DATA, buildMemory, buildMemory},
		{unix.RLIMIT_AS, buildMemory + 4<<30, buildMemory + 4<<30},
		{unix.RLIMIT_FSIZE, buildFileSize, buildFileSize},
		{unix.RLIMIT_CORE, 0, 0},
	}
	if cfg.Landlock != nil {
		const readRun = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_EXECUTE
		cfg.Landlock.Rules = append(cfg.Landlock.Rules, llRule{Path: goRoot(), Access: readRun})
		// The go command runs what it builds in its folders (tools, test binaries): they keep the
		// right to run files.
		for i, r := range cfg.Landlock.Rules {
			if r.Access&unix.LANDLOCK_ACCESS_FS_WRITE_FILE != 0 && (r.FD == fdWork || r.Path == scratch || r.Path == cache) {
				cfg.Landlock.Rules[i].Access |= unix.LANDLOCK_ACCESS_FS_EXECUTE
			}
		}
	}
	cfg.Args = cmd.Args
	// The init enters the folder by a descriptor opened outside its mount namespace, which getcwd
	// cannot name; the go command believes $PWD once it has checked it is the same folder.
	cfg.Env = setEnv(cmd.Env, "PWD", cmd.Dir)
	sb, err := startWith(cmd, l, cfg, cmd.Dir)
	if err != nil {
		return nil, err
	}
	// The go command is the first process of the namespace: killing it ends everything it started.
	cmd.Cancel = func() error { return killProcessTree(cmd) }
	return sb, nil
}

// initForkFiles is the names of initFork's files, in order.
func initForkFiles() []string {
	names, _ := fs.Glob(initFork, "internal/sandboxinit/*")
	return names
}
