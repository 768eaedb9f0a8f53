//go:build linux

// Command sandboxinit is the checker's sandbox init on Linux: the small program that runs between
// the checker and a learner's program. The checker builds it from this file (the standard library
// only, so offline) into its cache, starts it in fresh namespaces, and tells it what to do in a
// JSON configuration in the environment variable WORKBOOK_SANDBOX_INIT. It sets up what must be
// done between fork and exec: a private /tmp, resource limits, no supplementary groups, another
// user where asked, no capabilities, no_new_privs and a Landlock ruleset; then it execs the
// learner's program, which takes its place as the first process of the PID namespace.
//
// Its descriptors: 3 is the status pipe, on which it writes what failed before it exits 127 (it is
// closed by a successful exec, so the checker reads nothing); 4 is the work folder and 5 the
// program, both opened by the checker. In probe mode it sets everything up, execs nothing and exits
// 0. It is a program of its own rather than a mode of the workbook binary so that it starts in a
// few milliseconds: the package initialisation of a large binary costs a tenth of a second or more,
// on every run.
//
// In serve mode (only as the first process of a PID namespace) it does not exec a program but
// runs programs many times, one run per request, so that runs share one start of the init and one
// set of namespaces. Descriptor 3 is then a SOCK_SEQPACKET socket and there is no descriptor 5.
// After the shared set-up (private /tmp, resource limits, groups, user, and the one CPU it is bound
// to) it sends {"ready":true}; each request is a JSON message {"args":[...]} carrying five
// descriptors: the run's work folder (O_PATH), stdin, stdout, stderr and the program (O_PATH). For
// each, a new thread takes a session keyring and (run_ipc) an IPC namespace of its own, drops every
// capability, sets no_new_privs and restricts itself with Landlock to the shared files plus that
// program and that work folder, forks and execs the program from there, and ends; the init waits
// for the program, kills every other process of the namespace, empties /tmp, takes out of the
// user's keyrings the keys the run added, and answers {"status":WAITSTATUS,"cpu_ns":N}. A request may
// carry the run's limits, {"cpu_ns":N,"wall_ns":N}: the init reads the program's CPU clock while it
// runs and kills the run at either, answering "limit":"cpu" or "limit":"wall"; with "idle_ns":N too
// (and a /proc of the namespace's own) it adds up the time the run's threads spent neither on a CPU
// nor waiting for one and kills the run past N, answering "limit":"blocked". So nothing
// of one run is there for the next, which may be another learner's program. A closed socket ends it.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/workbook-course/workbook/checker/internal/waits"
)

const (
	fdStatus, fdWork, fdProg, fdInit = 3, 4, 5, 6

	// prctl options; the same on every Linux architecture.
	prSetPdeathsig    = 1
	prCapbsetDrop     = 24
	prSetNoNewPrivs   = 38
	prCapAmbient      = 47
	prCapAmbientClear = 4

	// Landlock system calls; the same number on every architecture.
	sysLandlockCreateRuleset = 444
	sysLandlockAddRule       = 445
	sysLandlockRestrictSelf  = 446
	landlockRulePathBeneath  = 1
	landlockExecute          = 1 << 0
	runProgram               = landlockExecute | 1<<2 // LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE

	// keyctl(2), for the keyrings a run could leave something in.
	sysKeyctl                 = 250
	keyctlJoinSessionKeyring  = 1
	keyctlClear               = 7
	keyctlUnlink              = 9
	keyctlRead                = 11
	keySpecUserKeyring        = -4
	keySpecUserSessionKeyring = -5
)

// config mirrors the checker's initConfig.
type config struct {
	Probe     bool  `json:"probe"`
	Serve     bool  `json:"serve"`
	RetireCPU int64 `json:"retire_cpu_ns"` // in serve mode, the CPU time after which the init ends
	CPU       *int  `json:"cpu"`           // in serve mode, the one CPU the init and its programs run on
	RunIPC    bool  `json:"run_ipc"`       // in serve mode, an IPC namespace of its own for each run

	Args        []string  `json:"args"`
	Env         []string  `json:"env"`
	Mount       bool      `json:"mount"`
	TmpfsSize   string    `json:"tmpfs_size"`
	SetID       int       `json:"set_id"`
	ClearGroups bool      `json:"clear_groups"`
	Rlimits     []rlimit  `json:"rlimits"`
	Landlock    *landlock `json:"landlock"`
	OPath       int       `json:"o_path"`
	// Proc mounts a /proc of the PID namespace's own (with Mount), which the memory watchdog reads.
	Proc bool `json:"proc"`
	// RunMemory, in serve mode with Proc, is what all the processes of a run may hold together
	// (resident private memory): a run past it is killed and answered with "memory":true.
	RunMemory int64 `json:"run_memory"`
	// Seccomp refuses the system calls listed in tables to what the init execs.
	Seccomp bool `json:"seccomp"`

	keys map[int]map[int32]bool // in serve mode, the keys in the user's keyrings before any run
}

type rlimit struct {
	Res int    `json:"res"`
	Cur uint64 `json:"cur"`
	Max uint64 `json:"max"`
}

type landlock struct {
	HandledFS  uint64 `json:"handled_fs"`
	HandledNet uint64 `json:"handled_net"`
	Scoped     uint64 `json:"scoped"`
	AttrSize   int    `json:"attr_size"`
	FileRights uint64 `json:"file_rights"` // the rights a rule on a file (not a folder) may hold
	Rules      []rule `json:"rules"`
}

// rule grants Access beneath descriptor FD, or beneath Path when FD is 0 (Path then only names it).
type rule struct {
	Path   string `json:"path,omitempty"`
	FD     int    `json:"fd,omitempty"`
	Access uint64 `json:"access"`
}

func main() {
	// prctl, capabilities and Landlock apply to one thread: the one that calls execve.
	runtime.LockOSThread()
	status := os.NewFile(fdStatus, "status")
	fail := func(step string, err error) {
		fmt.Fprintf(status, "%s: %v", step, err)
		os.Exit(127)
	}
	var cfg config
	if err := json.Unmarshal([]byte(os.Getenv("WORKBOOK_SANDBOX_INIT")), &cfg); err != nil {
		fail("config", err)
	}
	for fd := fdStatus; fd <= 6; fd++ {
		syscall.CloseOnExec(fd)
	}
	if cfg.Mount {
		if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
			fail("private mounts", err)
		}
		if err := syscall.Mount("tmpfs", "/tmp", "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC,
			"size="+cfg.TmpfsSize+",nr_inodes="+tmpfsInodes+",mode=1777"); err != nil {
			fail("private /tmp", err)
		}
		if err := os.Mkdir("/tmp/home", 0o755); err != nil {
			fail("home", err)
		}
		if cfg.SetID > 0 {
			if err := os.Chown("/tmp/home", cfg.SetID, cfg.SetID); err != nil {
				fail("home", err)
			}
		}
		if cfg.Proc {
			if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
				fail("private /proc", err)
			}
		}
	}
	if !cfg.Probe && !cfg.Serve {
		if cfg.Mount {
			// The program works in a copy of its folder inside the size-limited private /tmp.
			if err := workCopy(fdWork, cfg.SetID); err != nil {
				fail("work folder", err)
			}
			if err := syscall.Chdir(workDir); err != nil {
				fail("work folder", err)
			}
		} else if err := syscall.Fchdir(fdWork); err != nil {
			fail("work folder", err)
		}
	}
	if cfg.ClearGroups {
		if err := syscall.Setgroups(nil); err != nil {
			fail("groups", err)
		}
	}
	for _, rl := range cfg.Rlimits {
		if err := syscall.Setrlimit(rl.Res, &syscall.Rlimit{Cur: rl.Cur, Max: rl.Max}); err != nil {
			fail(fmt.Sprintf("rlimit %d", rl.Res), err)
		}
	}
	if cfg.SetID > 0 {
		if err := syscall.Setresgid(cfg.SetID, cfg.SetID, cfg.SetID); err != nil {
			fail("setgid", err)
		}
		if err := syscall.Setresuid(cfg.SetID, cfg.SetID, cfg.SetID); err != nil {
			fail("setuid", err)
		}
		// A change of user clears the parent-death signal.
		prctl(prSetPdeathsig, uintptr(syscall.SIGKILL))
	}
	if cfg.Serve {
		if os.Getpid() != 1 {
			fail("serve", fmt.Errorf("not the first process of a PID namespace"))
		}
		serve(&cfg)
		os.Exit(0)
	}
	// Keys the program adds go to a session keyring of its own, not to the checker's.
	syscall.RawSyscall(sysKeyctl, keyctlJoinSessionKeyring, 0, 0)
	if err := restrictThread(&cfg, -1); err != nil {
		fmt.Fprint(status, err)
		os.Exit(127)
	}
	secret, err := newSecret()
	if err == nil && cfg.Seccomp {
		// The init execs the program, which keeps its process ID: the first process of a PID
		// namespace has nothing outside it to name, any other process the whole machine.
		self := uint32(os.Getpid())
		if self == 1 {
			self = 0
		}
		err = installSeccomp(secret, self)
	}
	if err != nil {
		fail("seccomp", err)
	}
	if cfg.Probe {
		os.Exit(0)
	}
	// The process keeps its CPU clock across the exec: what the init has used so far (its Go
	// runtime's start, the set-up above; tens of milliseconds on a loaded machine) goes to the
	// checker first, which charges the program only what comes after (execCPURecord).
	if cpu, ok := processCPU(os.Getpid()); ok {
		fmt.Fprintf(status, "%s%d\n", execCPURecord, cpu.Nanoseconds())
	}
	fail("exec", execWith(fmt.Sprintf("/proc/self/fd/%d", fdProg), cfg.Args, cfg.Env, secret))
}

// execCPURecord starts the status pipe's record of the init's own CPU time in nanoseconds, written
// just before it execs what it runs; anything after the record's line is a failure, as anything
// without one. A message of the init's never holds a NUL. (The checker reads it: checker/sandbox_linux.go.)
const execCPURecord = "\x00exec-cpu "

// execWith is execve(path, argv, envv) with secret as its fourth argument, which execve does not
// read and the seccomp filter does.
func execWith(path string, argv, envv []string, secret uint64) error {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	a, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return err
	}
	e, err := syscall.SlicePtrFromStrings(envv)
	if err != nil {
		return err
	}
	_, _, errno := syscall.Syscall6(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&a[0])),
		uintptr(unsafe.Pointer(&e[0])), uintptr(secret), 0, 0)
	return errno
}

// stepError names the step of restrictThread that failed.
type stepError struct {
	step string
	err  error
}

func (e *stepError) Error() string { return e.step + ": " + e.err.Error() }

// restrictThread takes from the calling thread, and so from what it execs, every capability and the
// means to gain one, and applies the Landlock ruleset, with a rule for the work folder workFD (every
// right but running a file) and one for each program of progFDs (reading and running it) when they
// are not -1. The seccomp filter comes after it, in the process that execs the program.
func restrictThread(cfg *config, workFD int, progFDs ...int) error {
	// No capability survives the exec, even for the root of a user namespace. Without
	// CAP_SETPCAP (an ordinary user without namespaces) there are none to drop.
	for c := 0; c <= 63; c++ {
		prctl(prCapbsetDrop, uintptr(c))
	}
	prctl(prCapAmbient, prCapAmbientClear)
	if err := prctl(prSetNoNewPrivs, 1); err != nil {
		return &stepError{"no_new_privs", err}
	}
	if cfg.Landlock != nil {
		ll := *cfg.Landlock
		ll.Rules = append([]rule{}, ll.Rules...)
		if workFD >= 0 {
			ll.Rules = append(ll.Rules, rule{FD: workFD, Access: ll.HandledFS &^ landlockExecute})
		}
		for _, fd := range progFDs {
			if fd >= 0 {
				ll.Rules = append(ll.Rules, rule{FD: fd, Access: runProgram})
			}
		}
		if err := restrict(&ll, cfg.OPath); err != nil {
			return &stepError{"landlock", err}
		}
	}
	return nil
}

// tmpfsInodes bounds the files and folders of the private /tmp: its size bounds their contents, and
// this the kernel memory of the inodes themselves (about a kibibyte each), which the size does not.
const tmpfsInodes = "4096"

// workDir is where a run works when the init has a private /tmp: a copy of the folder the checker
// handed over, inside the tmpfs, so that all the run writes (its folder, /tmp, its home) is bounded
// by the tmpfs's size together.
const workDir = "/tmp/work"

// workCopy copies the folder open as fd (the case's input files) into workDir, owned by id when it
// is not 0.
func workCopy(fd, id int) error {
	if err := os.CopyFS(workDir, os.DirFS(fmt.Sprintf("/proc/self/fd/%d", fd))); err != nil {
		return err
	}
	if id > 0 {
		return filepath.WalkDir(workDir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, id, id)
		})
	}
	return nil
}

// started is a program started for a run, or why it could not be; base is the CPU time its process
// had used when it exec'd the program (its child's few system calls before the exec), which is not
// the program's.
type started struct {
	pid  int
	base time.Duration
	err  error
}

// request is one run asked for in serve mode; reply is the init's answer.
type request struct {
	Args []string `json:"args"`
	CPU  int64    `json:"cpu_ns"`  // the run's CPU-time limit (0: none)
	Idle int64    `json:"idle_ns"` // the run's limit of time neither on a CPU nor waiting for one (0: wall_ns)
	Wall int64    `json:"wall_ns"` // the run's wall-clock limit (0: none)
	// Own is the wall-clock time with no thread running or waiting for a CPU after which the run
	// is stopped (0: four times wall_ns); Stop, when the wall clock alone stops it (0: as Own).
	Own  int64 `json:"own_ns"`
	Stop int64 `json:"stop_ns"`
	// Feeding says that the checker still writes the run's standard input after the start (it
	// is larger than what it writes before): a read of it then waits for the checker. Otherwise
	// the checker has written it whole and closed its end, and a read that blocks there waits
	// for a writer the program made itself (see waits.OnStdio).
	Feeding bool `json:"feeding,omitempty"`
}

type reply struct {
	Memory bool   `json:"memory,omitempty"`
	Ready  bool   `json:"ready,omitempty"`
	Error  string `json:"error,omitempty"`
	Status uint32 `json:"status"`
	CPU    int64  `json:"cpu_ns"`
	Retire bool   `json:"retire,omitempty"`
	Limit  string `json:"limit,omitempty"` // "cpu", "blocked" or "wall": the run was stopped at that limit
	// Idle is how long the run spent neither on a CPU nor waiting for one (sleeping, blocked), as
	// last added up (every 50 ms), where the namespace has a /proc of its own; 0 elsewhere.
	Idle int64 `json:"idle_ns,omitempty"`
	// Wait says what the run's threads were blocked in when it was stopped at its idle or
	// wall-clock limit: "slept" (with a timeout) or "waited" (with none), or "" when not known (see
	// package waits).
	Wait string `json:"wait,omitempty"`
}

// serve answers requests on the socket until it is closed.
func serve(cfg *config) {
	// The program shares the init's user inside the namespace and may signal it; the init takes
	// every signal it can and does nothing with it (handlers, unlike ignored signals, are not
	// inherited through exec).
	signal.Notify(make(chan os.Signal, 1))
	if cfg.Landlock != nil {
		// The shared rules' files are opened once, not for every run's ruleset.
		var rules []rule
		for _, r := range cfg.Landlock.Rules {
			if r.Path != "" && r.FD == 0 {
				fd, err := syscall.Open(r.Path, cfg.OPath|syscall.O_CLOEXEC, 0)
				if err == syscall.ENOENT || err == syscall.EACCES {
					continue
				}
				if err != nil {
					send(reply{Error: fmt.Sprintf("%s: %v", r.Path, err)})
					return
				}
				r.FD = fd
			}
			rules = append(rules, r)
		}
		cfg.Landlock.Rules = rules
	}
	if cfg.CPU != nil {
		// One CPU: a second P would only have the runtime's idle threads spin for work on the
		// CPU the program runs on.
		runtime.GOMAXPROCS(1)
		// Every thread there is now; those the runtime starts later are cloned from them.
		if tasks, err := os.ReadDir("/proc/self/task"); err == nil {
			for _, t := range tasks {
				var tid int
				if _, err := fmt.Sscan(t.Name(), &tid); err == nil {
					bindCPU(tid, *cfg.CPU)
				}
			}
		}
	}
	cfg.keys = ringKeys()
	dropNewKeys(cfg)
	warmThreads(8)
	send(reply{Ready: true})
	buf := make([]byte, 1<<20)
	oob := make([]byte, syscall.CmsgSpace(5*4))
	for {
		n, oobn, flags, _, err := syscall.Recvmsg(fdStatus, buf, oob, syscall.MSG_CMSG_CLOEXEC)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return
		}
		var fds []int
		if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil {
			for _, m := range msgs {
				if rights, err := syscall.ParseUnixRights(&m); err == nil {
					fds = append(fds, rights...)
				}
			}
		}
		var rep reply
		var req request
		switch {
		case flags&(syscall.MSG_TRUNC|syscall.MSG_CTRUNC) != 0:
			rep.Error = "request too long"
		case len(fds) != 5:
			rep.Error = fmt.Sprintf("%d descriptors, want 5", len(fds))
		default:
			if err := json.Unmarshal(buf[:n], &req); err != nil {
				rep.Error = "request: " + err.Error()
			} else {
				rep = runOnce(cfg, &req, fds)
			}
		}
		for _, fd := range fds {
			syscall.Close(fd)
		}
		var ru syscall.Rusage
		if cfg.RetireCPU > 0 && syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil &&
			time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) > time.Duration(cfg.RetireCPU) {
			rep.Retire = true
		}
		if !send(rep) || rep.Retire {
			return
		}
	}
}

// warmThreads makes the Go runtime start n threads now and keep them idle: a run's processes may
// use up RLIMIT_NPROC (a fork bomb), and the init, whose watchdogs then still read /proc and wait
// in system calls, must not need a new thread at that moment (the runtime cannot start one and the
// init would die). n stays within the initThreads the checker adds to the limit for the init.
func warmThreads(n int) {
	var locked, release sync.WaitGroup
	locked.Add(n)
	release.Add(1)
	var done sync.WaitGroup
	done.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer done.Done()
			runtime.LockOSThread()
			locked.Done()
			release.Wait()
			runtime.UnlockOSThread()
		}()
	}
	locked.Wait()
	release.Done()
	done.Wait()
}

// runOnce runs the program fds[4] in the work folder fds[0] with stdin, stdout and stderr fds[1:4],
// waits for it, and leaves nothing behind: no process, nothing in /tmp, no key, and with run_ipc no
// IPC object.
func runOnce(cfg *config, req *request, fds []int) reply {
	var in []string
	if req.Feeding {
		in = stdioPipes(fds[1:2])
	}
	out := stdioPipes(fds[2:4])
	dir := fmt.Sprintf("/proc/self/fd/%d", fds[0])
	workFD := fds[0]
	if cfg.Mount {
		if err := workCopy(fds[0], 0); err != nil {
			return reply{Error: "work folder: " + err.Error()}
		}
		dir, workFD = workDir, -1
	}
	ch := make(chan started, 1)
	go func() {
		// The thread is never unlocked: it ends with this goroutine, and its restrictions with it.
		runtime.LockOSThread()
		if cfg.CPU != nil {
			bindCPU(0, *cfg.CPU) // the program inherits it
		}
		// SysV IPC objects and POSIX message queues live as long as their namespace, and keys as
		// long as their keyring: the program gets a session keyring that ends with it, and an IPC
		// namespace too where the init may make one.
		if cfg.RunIPC {
			if err := syscall.Unshare(syscall.CLONE_NEWIPC); err != nil {
				ch <- started{err: &stepError{"IPC namespace", err}}
				return
			}
		}
		syscall.RawSyscall(sysKeyctl, keyctlJoinSessionKeyring, 0, 0)
		if !cfg.Seccomp {
			if err := restrictThread(cfg, workFD, fds[4]); err != nil {
				ch <- started{err: err}
				return
			}
			pid, err := syscall.ForkExec(fmt.Sprintf("/proc/self/fd/%d", fds[4]), req.Args, &syscall.ProcAttr{
				Dir:   dir,
				Env:   cfg.Env,
				Files: []uintptr{uintptr(fds[1]), uintptr(fds[2]), uintptr(fds[3])},
			})
			if err != nil {
				err = &stepError{"exec", err}
			}
			ch <- started{pid: pid, err: err}
			return
		}
		// With the filter, this thread installs it and forks the program by a clone only it may
		// make (forkExec): the filter is inherited by the child, which execs the program.
		ch <- startFiltered(cfg, req, fds, workFD, dir)
	}()
	s := <-ch
	if s.err != nil {
		return reply{Error: s.err.Error()}
	}
	w := &timeWatch{pid: s.pid, base: s.base, cpu: time.Duration(req.CPU), idleLimit: time.Duration(req.Idle), wall: time.Duration(req.Wall),
		ownLimit: time.Duration(req.Own), lastStop: time.Duration(req.Stop), proc: cfg.Proc, done: make(chan struct{}), in: in, out: out}
	if cfg.Proc && cfg.RunMemory > 0 {
		w.memory = cfg.RunMemory
		if cfg.Seccomp {
			// Under the filter the run is one process, the program: its status alone is the run's
			// memory (a listing of /proc every few milliseconds cost the init more than its other
			// watching).
			w.memPIDs = []string{strconv.Itoa(s.pid)}
		}
	}
	if w.idleLimit <= 0 {
		w.idleLimit = w.wall
	}
	if w.ownLimit <= 0 {
		w.ownLimit = 4 * w.wall
	}
	if w.lastStop <= 0 {
		w.lastStop = w.ownLimit
	}
	w.ended.Add(1)
	go w.watch()
	ws, ru := reap(s.pid)
	limit, wait := w.stop()
	killAll()
	cleanTmp(cfg)
	dropNewKeys(cfg)
	cpu := max(ru.Utime.Nano()+ru.Stime.Nano()-int64(s.base), 0)
	return reply{Status: uint32(ws), CPU: cpu, Memory: w.over, Limit: limit, Idle: int64(w.idleTime()), Wait: wait}
}

// sysPidfdOpen is pidfd_open(2), the same number on every Linux architecture.
const sysPidfdOpen = 434

// reap waits for the process pid to end and reaps it. Where the kernel gives a pidfd (Linux 5.3),
// the wait is in the Go runtime's poller (a pidfd is readable once its process has exited), so that
// while a run is in flight the init is a few timers and a descriptor in epoll: no thread is held in
// a blocking wait4, which kept the runtime's sysmon waking every 20 µs to take its P back.
func reap(pid int) (syscall.WaitStatus, syscall.Rusage) {
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	if fd, _, e := syscall.RawSyscall(sysPidfdOpen, uintptr(pid), 0, 0); e == 0 {
		// A pidfd is close-on-exec from the start.
		if syscall.SetNonblock(int(fd), true) == nil {
			f := os.NewFile(fd, "pidfd")
			if rc, err := f.SyscallConn(); err == nil {
				done := false
				rc.Read(func(uintptr) bool {
					wpid, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, &ru)
					done = wpid == pid || (err != nil && err != syscall.EINTR)
					return done
				})
				f.Close()
				if done {
					return ws, ru
				}
			} else {
				f.Close()
			}
		} else {
			syscall.Close(int(fd))
		}
	}
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, &ru); err != syscall.EINTR {
			return ws, ru
		}
	}
}

// startFiltered starts the program of a run under the seccomp filter and waits until it has exec'd
// the program or failed to. The filter allows a process to be started and a program exec'd only by
// calls that carry a secret (see filterProgram); the calling thread, which is locked to its
// goroutine and ends with it (nothing else ever runs on it), installs it with a new secret and
// forks with that secret, and the child, which runs no Go code between the fork and the exec (Go
// cannot run code of its own there), execs the program with it. So the program, which inherits the
// filter but not the secret, can start no process and exec nothing, and no second program (the
// sandbox init exec'd once more to install the filter, as before) runs between the fork and the
// program's exec.
func startFiltered(cfg *config, req *request, fds []int, workFD int, dir string) started {
	if err := restrictThread(cfg, workFD, fds[4]); err != nil {
		return started{err: err}
	}
	for _, fd := range fds[1:4] {
		if fd < 3 {
			// forkExec moves the run's stdin, stdout and stderr to 0, 1 and 2 in order.
			return started{err: &stepError{"exec", fmt.Errorf("descriptor %d", fd)}}
		}
	}
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return started{err: &stepError{"exec", err}}
	}
	defer syscall.Close(p[0])
	c, err := newForkArgs(fmt.Sprintf("/proc/self/fd/%d", fds[4]), dir, req.Args, cfg.Env)
	if err == nil {
		c.fds = [3]int{fds[1], fds[2], fds[3]}
		c.status = p[1]
		c.secret, err = newSecret()
	}
	if err == nil {
		// A session's init is the first process of its PID namespace: its runs can name no
		// process outside.
		err = installSeccomp(c.secret, 0)
	}
	if err != nil {
		syscall.Close(p[1])
		return started{err: &stepError{"seccomp", err}}
	}
	pid, errno := forkExec(c)
	syscall.Close(p[1])
	if errno != 0 {
		return started{err: &stepError{"fork", errno}}
	}
	// The pipe ends at the program's exec (close-on-exec), or carries the errno of what failed.
	var buf [4]byte
	n := 0
	for n < len(buf) {
		k, err := syscall.Read(p[0], buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if k <= 0 {
			break
		}
		n += k
	}
	if n > 0 {
		var ws syscall.WaitStatus
		for {
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
				break
			}
		}
		what := fmt.Errorf("%d bytes", n)
		if n == len(buf) {
			what = syscall.Errno(*(*uint32)(unsafe.Pointer(&buf[0])))
		}
		return started{err: &stepError{"exec", what}}
	}
	// The program runs: what the process used before its exec (a few system calls of the child)
	// was not the program's (read a moment after the exec, it may spare the program a few
	// microseconds of its own, never charge it the init's).
	base, _ := processCPU(pid)
	return started{pid: pid, base: base}
}

// forkArgs is everything the child of forkExec needs, made before the fork: the child makes system
// calls only.
type forkArgs struct {
	path, dir  *byte
	argv, envv **byte
	fds        [3]int // the run's stdin, stdout and stderr, each 3 or above: they become 0, 1 and 2
	status     int    // a close-on-exec pipe, on which the child writes the errno of what failed
	secret     uint64 // what the filter lets the clone and the execve carry
	mask       uint64 // the signal mask the program starts with
}

func newForkArgs(path, dir string, argv, envv []string) (*forkArgs, error) {
	c := &forkArgs{}
	var err error
	if c.path, err = syscall.BytePtrFromString(path); err != nil {
		return nil, err
	}
	if c.dir, err = syscall.BytePtrFromString(dir); err != nil {
		return nil, err
	}
	a, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return nil, err
	}
	e, err := syscall.SlicePtrFromStrings(envv)
	if err != nil {
		return nil, err
	}
	c.argv, c.envv = &a[0], &e[0]
	return c, nil
}

// sigSetmask is SIG_SETMASK of rt_sigprocmask, the same on every Linux architecture.
const sigSetmask = 2

// forkExec starts the program c describes: a fork by a clone that carries c.secret (as the filter
// installed on this thread requires), and in the child, which runs nothing but system calls (no Go
// code can run safely between a fork and an exec), its stdin, stdout and stderr, its folder, the
// signals reset to their default and the thread's mask, and the execve, which carries the secret
// too. The clone shares the init's memory until the exec and this thread waits for it (vforkFlags,
// as Go's own ForkExec). Signals are blocked on this thread across the fork, as Go's own ForkExec
// does, so that none is handled by the Go runtime in the child (which, sharing the init's memory,
// would run it on the init's data); ForkLock keeps descriptors that are not yet close-on-exec out
// of it.
func forkExec(c *forkArgs) (pid int, errno syscall.Errno) {
	all := ^uint64(0)
	syscall.ForkLock.Lock()
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, sigSetmask, uintptr(unsafe.Pointer(&all)), uintptr(unsafe.Pointer(&c.mask)), 8, 0, 0)
	pid, errno = forkChild(c)
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, sigSetmask, uintptr(unsafe.Pointer(&c.mask)), 0, 8, 0, 0)
	syscall.ForkLock.Unlock()
	runtime.KeepAlive(c)
	return pid, errno
}

// forkChild is the fork of forkExec. In the child it never returns: it execs the program or exits
// 127 after writing the errno of the step that failed on c.status. It must not grow its stack or
// call anything but system calls (nosplit: the linker checks that the chain stays within the
// stack it has).
//
//go:nosplit
//go:norace
//go:noinline
func forkChild(c *forkArgs) (pid int, errno syscall.Errno) {
	var (
		r1  uintptr
		e   syscall.Errno
		i   int
		dfl [4]uint64 // a struct sigaction of SIG_DFL, no flags, an empty mask
	)
	var en uintptr
	r1, en = cloneVfork(uintptr(syscall.SIGCHLD)|vforkFlags, uintptr(c.secret))
	if en != 0 || r1 != 0 {
		// The parent, which returns at once: the child ran on this frame (CLONE_VM), so nothing of
		// it but cloneVfork's results, written after the child exec'd, is read here.
		return int(r1), syscall.Errno(en)
	}
	// The child, on the parent's memory and stack until it execs: it writes only this frame's
	// locals and its own system calls' frames, which the parent, waiting, never reads.
	for i = 0; i < 3; i++ {
		if _, _, e = syscall.RawSyscall(syscall.SYS_DUP3, uintptr(c.fds[i]), uintptr(i), 0); e != 0 {
			goto fail
		}
	}
	if _, _, e = syscall.RawSyscall(syscall.SYS_CHDIR, uintptr(unsafe.Pointer(c.dir)), 0, 0); e != 0 {
		goto fail
	}
	// The Go runtime's handlers would run in the child if a signal came before the exec, which
	// resets them anyway: they go first, then the mask the thread had.
	for i = 1; i < 65; i++ {
		if i != int(syscall.SIGKILL) && i != int(syscall.SIGSTOP) {
			syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(i), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
		}
	}
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, sigSetmask, uintptr(unsafe.Pointer(&c.mask)), 0, 8, 0, 0)
	_, _, e = syscall.RawSyscall6(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(c.path)), uintptr(unsafe.Pointer(c.argv)),
		uintptr(unsafe.Pointer(c.envv)), uintptr(c.secret), 0, 0)
fail:
	r1 = uintptr(e)
	syscall.RawSyscall(syscall.SYS_WRITE, uintptr(c.status), uintptr(unsafe.Pointer(&r1)), 4)
	for {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 127, 0, 0)
	}
}

// timeWatch stops a run at its limits: at cpu of the program's CPU time (its process's CPU clock,
// all its threads; the processes it starts each have RLIMIT_CPU), answering "cpu"; and, with a /proc
// of the namespace's own (proc), once the run has spent idleLimit neither on a CPU nor waiting for
// one (the schedstat of every thread of the run's processes), answering "blocked": a program that
// sleeps or waits, told from one that a busy machine keeps waiting for a CPU, which is never stopped
// for it. Without such a /proc at wall, with it once the run has spent ownLimit with no thread
// running or waiting for a CPU (asleep or in a disk wait), and in any case at lastStop, the wall clock
// stops it ("wall"). So a run's time is judged by what the program did, whatever else the machine
// is doing.
type timeWatch struct {
	pid                  int
	base                 time.Duration // the process's CPU time before the program (started.base)
	cpu, idleLimit, wall time.Duration
	ownLimit, lastStop   time.Duration
	proc                 bool
	// memory is the run's memory limit (0: none), read every watchInterval: of the processes
	// memPIDs names, or of every process of the namespace when it names none. over is set when the
	// run was killed past it.
	memory   int64
	memPIDs  []string
	over     bool
	memBuf   []byte
	lastMem  time.Time
	last     time.Time     // when the run's processes were last added up
	done     chan struct{} // closed by stop
	mu       sync.Mutex
	finished bool            // the program has been reaped: nothing more may be killed
	limit    string          // the limit it was stopped at
	wait     string          // what its threads were blocked in then (package waits)
	times    waits.Stretches // its idle and own time, at the last adding up
	tasks    tally           // the times of every thread seen, for the adding up
	// out are the run's standard output and error as /proc names them ("pipe:[INODE]"), and in its
	// standard input while the checker still feeds it (request.Feeding): a thread blocked writing
	// to the former or reading the latter waits for the checker, not by its own choice
	// (waits.OnStdio).
	in, out []string
	// lastElapsed and lastRun are the run's wall-clock time and its threads' time on a CPU or
	// waiting for one at the last adding up.
	lastElapsed, lastRun time.Duration
	ended                sync.WaitGroup
}

// ownTime is the run's wall-clock time with no thread running or waiting for a CPU, as last added
// up.
func (w *timeWatch) ownTime() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.times.Own
}

// idleTime is the run's time neither on a CPU nor waiting for one, as last added up.
func (w *timeWatch) idleTime() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.times.Idle
}

func (w *timeWatch) watch() {
	defer w.ended.Done()
	start := time.Now()
	wait := time.Millisecond
	for {
		t := time.NewTimer(wait)
		select {
		case <-w.done:
			t.Stop()
			return
		case <-t.C:
		}
		if w.memory > 0 && time.Since(w.lastMem) >= watchInterval {
			w.lastMem = time.Now()
			if w.memBuf == nil {
				w.memBuf = make([]byte, 4096)
			}
			if runMemory(w.memBuf, w.memPIDs) > w.memory {
				w.mu.Lock()
				if !w.finished {
					w.over = true
					syscall.Kill(-1, syscall.SIGKILL)
				}
				w.mu.Unlock()
				return
			}
		}
		limit := ""
		cpu, ok := processCPU(w.pid)
		cpu -= w.base
		elapsed := time.Since(start)
		// Past its first 50 ms a run's processes are added up as a whole, every 50 ms (a quarter
		// of the idle limit when that is shorter, at least every 10 ms): the CPU time of the
		// children it waits for counts too, and the time it spent runnable.
		every := min(max(w.idleLimit/4, 10*time.Millisecond), 50*time.Millisecond)
		tree := w.proc && elapsed >= every && time.Since(w.last) >= every
		var treeCPU, run time.Duration
		treeOK, busy := false, false
		if tree {
			w.last = time.Now()
			treeCPU, run, treeOK = w.tasks.runnable()
			if treeOK {
				// The time since the last adding up is idle as far as no thread spent it on a CPU or
				// waiting for one. A thread's waiting is added to its schedstat only once it gets a
				// CPU: a thread runnable (state R) at either end of the stretch may have waited all
				// along (on a machine busy with other groups of processes, hundreds of
				// milliseconds; or it ended, runnable, at the stretch's end), so such a stretch is
				// never idle. A sleeper is idle from one adding up to the next.
				// The threads' states are read only when the stretch is not all accounted for: a
				// run that was runnable throughout is taken to be so still (the init's own CPU time
				// is part of its budget, RetireCPU).
				throughout := elapsed-w.lastElapsed-(run-w.lastRun) <= 5*time.Millisecond
				w.lastElapsed, w.lastRun = elapsed, run
				var queued bool
				busy, queued = throughout, throughout
				if !throughout {
					busy, queued = w.tasks.anyRunnable(w.in, w.out)
				}
				w.mu.Lock()
				// Once the program has exited (a zombie, or reaped), the time until the init reaps
				// it is the init's, not the program's.
				w.times.Add(elapsed, run, busy, queued, ended(w.pid))
				w.mu.Unlock()
			}
		}
		switch {
		case ok && w.cpu > 0 && cpu >= w.cpu, treeOK && w.cpu > 0 && treeCPU-w.base >= w.cpu:
			limit = "cpu"
		case treeOK && w.idleLimit > 0 && w.idleTime() >= w.idleLimit:
			limit = "blocked"
		case w.wall <= 0 || elapsed < w.wall:
		case !w.proc || elapsed >= w.lastStop || w.ownTime() >= w.ownLimit:
			limit = "wall"
		case tree && !treeOK:
			limit = "blocked"
		}
		if limit != "" {
			wait := ""
			if limit != "cpu" && w.proc {
				// Read before the kill, from the threads of the last adding up.
				wait = waits.Read(w.tasks.now)
			}
			w.mu.Lock()
			if !w.finished {
				w.limit, w.wait = limit, wait
				syscall.Kill(-1, syscall.SIGKILL)
			}
			w.mu.Unlock()
			return
		}
		// The session runs on one CPU: the program cannot use more CPU time than the time to the
		// next reading.
		wait = 10 * time.Millisecond
		if w.cpu > 0 {
			wait = min(max((w.cpu-cpu)/2, time.Millisecond), wait)
		}
		if w.memory > 0 {
			wait = min(wait, watchInterval)
		}

	}
}

// tally is the last reading of every thread a run's adding up has seen, by "PID/TID": a thread
// that has ended since (a child the program waited for, a thread the runtime let go), or that could
// not be read this time (a process between its exit and its reaping), still counts with the time it
// had, so the run's time on a CPU or waiting for one never shrinks, and a run is never taken for
// idle because part of it left /proc.
type tally struct {
	seen   map[string]taskTime
	gone   taskTime // threads whose PID/TID a new thread has taken since
	now    []string // the /proc/PID/task/TID folders of the last adding up
	states []byte   // their states, each read just before its schedstat
}

type taskTime struct{ on, waiting int64 }

// runnable adds up the time every thread of every process of the namespace but the init has spent
// on a CPU (cpu) and on a CPU or waiting for one (run), from the first two fields of
// /proc/PID/task/TID/schedstat, with the last reading of the threads seen before and gone now. ok is
// false when no thread was ever read.
func (t *tally) runnable() (cpu, run time.Duration, ok bool) {
	if t.seen == nil {
		t.seen = map[string]taskTime{}
	}
	t.now, t.states = t.now[:0], t.states[:0]
	if procs, err := os.ReadDir("/proc"); err == nil {
		for _, p := range procs {
			pid := p.Name()
			if pid == "1" || pid[0] < '0' || pid[0] > '9' {
				continue
			}
			tasks, err := os.ReadDir("/proc/" + pid + "/task")
			if err != nil {
				continue
			}
			for _, task := range tasks {
				dir := "/proc/" + pid + "/task/" + task.Name()
				// The state first: a thread that waits for a CPU when its schedstat is read (its
				// waiting is added only once it gets one) and then runs and sleeps would otherwise
				// be read asleep, and the stretch it waited in taken for idle.
				st := taskState(dir + "/stat")
				data, err := os.ReadFile(dir + "/schedstat")
				if err != nil {
					continue
				}
				t.now, t.states = append(t.now, dir), append(t.states, st)
				var tt taskTime
				if _, err := fmt.Sscan(string(data), &tt.on, &tt.waiting); err == nil {
					key := pid + "/" + task.Name()
					if old, seen := t.seen[key]; seen && tt.on+tt.waiting < old.on+old.waiting {
						// Less than before: another thread under the same ids.
						t.gone.on, t.gone.waiting = t.gone.on+old.on, t.gone.waiting+old.waiting
					}
					t.seen[key] = tt
				}
			}
		}
	}
	cpu, run = time.Duration(t.gone.on), time.Duration(t.gone.on+t.gone.waiting)
	for _, tt := range t.seen {
		cpu += time.Duration(tt.on)
		run += time.Duration(tt.on + tt.waiting)
		ok = true
	}
	return cpu, run, ok
}

// anyRunnable reports whether a thread of the last adding up was running or runnable when it was
// read, or in an uninterruptible wait (busy: state R or D in /proc/PID/task/TID/stat; D is a page fault or a disk
// read, which a loaded or thrashing machine makes long, not a sleep the program chose), and whether
// one is running or runnable (queued: R).
//
// A thread asleep writing to the run's own standard output or error (out), or reading its
// standard input while the checker still feeds it (in), is busy too (see waits.OnStdio): it waits for the checker to feed or drain the pipe, which on a busy
// machine may wait for a CPU itself, and a program that prints much would otherwise be stopped as
// idle there and not on an idle machine.
func (t *tally) anyRunnable(in, out []string) (busy, queued bool) {
	for i, dir := range t.now {
		switch t.states[i] {
		case 'R':
			return true, true
		case 'D':
			busy = true
		case 'S':
			busy = busy || waits.OnStdio(dir, in, out)
		}
	}
	return busy, false
}

// stdioPipes are those of fds (the run's standard input, output and error) that are pipes, as
// /proc names them ("pipe:[INODE]").
func stdioPipes(fds []int) []string {
	var pipes []string
	for _, fd := range fds {
		if link, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); err == nil && strings.HasPrefix(link, "pipe:") {
			pipes = append(pipes, link)
		}
	}
	return pipes
}

// ended reports whether the process pid has exited: it is a zombie, or gone.
func ended(pid int) bool {
	st := taskState(fmt.Sprintf("/proc/%d/stat", pid))
	return st == 0 || st == 'Z' || st == 'X'
}

// taskState is the state letter of the stat file at path (0 when it cannot be read): the field
// after the command's closing parenthesis.
func taskState(path string) byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	if i := bytes.LastIndexByte(data, ')'); i >= 0 && i+2 < len(data) {
		return data[i+2]
	}
	return 0
}

// stop ends the watch once the program is reaped and returns the limit it was stopped at, or "",
// and what its threads were blocked in then (see package waits).
func (w *timeWatch) stop() (limit, wait string) {
	w.mu.Lock()
	w.finished = true
	w.mu.Unlock()
	close(w.done)
	w.ended.Wait()
	return w.limit, w.wait
}

// processCPU is the CPU time so far of the process pid, all its threads together: the kernel's
// per-process CPU clock (MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)). ok is false once it is gone.
func processCPU(pid int) (time.Duration, bool) {
	var ts syscall.Timespec
	clock := int32(^pid)<<3 | 2
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// watchInterval is how often the watchdog adds up a run's memory.
const watchInterval = 5 * time.Millisecond

// runMemory returns, in bytes, the resident anonymous memory of the namespace's processes other
// than the init (RssAnon in /proc/PID/status), and their resident shared memory (RssShmem: shared
// anonymous mappings, SysV or memfd memory, mapped files of a tmpfs) less what the files of the
// private /tmp hold: those are bounded by the tmpfs's own size, and a program that maps its own
// file is not charged for it twice. So the run's private and shared memory and its files together
// stay under limit plus the tmpfs's size (where the seccomp filter refuses shared mappings; without
// it, under limit plus twice that).
func runMemory(buf []byte, names []string) int64 {
	if names == nil {
		d, err := os.Open("/proc")
		if err != nil {
			return 0
		}
		names, _ = d.Readdirnames(-1)
		d.Close()
	}
	var anon, shmem int64
	for _, n := range names {
		if n == "1" || n[0] < '0' || n[0] > '9' {
			continue
		}
		fd, err := syscall.Open("/proc/"+n+"/status", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		k, _ := syscall.Read(fd, buf)
		syscall.Close(fd)
		if k > 0 {
			anon += statusKB(buf[:k], "RssAnon:") << 10
			shmem += statusKB(buf[:k], "RssShmem:") << 10
		}
	}
	var st syscall.Statfs_t
	if syscall.Statfs("/tmp", &st) == nil && st.Type == tmpfsMagic {
		shmem -= int64(st.Blocks-st.Bfree) * st.Bsize
	}
	return anon + max(shmem, 0)
}

// tmpfsMagic is the file-system type of a tmpfs in statfs.
const tmpfsMagic = 0x01021994

// statusKB is the number of kibibytes on the line of /proc/PID/status that starts with key, or 0.
func statusKB(status []byte, key string) int64 {
	i := bytes.Index(status, []byte("\n"+key))
	if i < 0 {
		return 0
	}
	var n int64
	for _, c := range bytes.TrimLeft(status[i+1+len(key):], " \t") {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// userRings are the keyrings of the init's user, which outlive a run: those of the user namespace,
// shared by every run of the session, or without one (and on kernels before 5.3) those of the user
// the program runs as.
var userRings = []int{keySpecUserKeyring, keySpecUserSessionKeyring}

// ringKeys returns the keys linked in each of userRings.
func ringKeys() map[int]map[int32]bool {
	keys := map[int]map[int32]bool{}
	for _, ring := range userRings {
		keys[ring] = map[int32]bool{}
		buf := make([]int32, 256)
		n, _, errno := syscall.RawSyscall6(sysKeyctl, keyctlRead, uintptr(ring), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)*4), 0, 0)
		if errno != 0 {
			continue
		}
		for _, k := range buf[:min(int(n)/4, len(buf))] {
			keys[ring][k] = true
		}
	}
	return keys
}

// dropNewKeys unlinks from userRings every key that was not there when the init started (cfg.keys):
// what runs added, and never a key of the user's own. When the init has become the system's nobody
// (cfg.SetID, no user namespace), whose keyrings only sandboxed programs use and in which a run killed
// with its session may have left keys, they are emptied instead.
func dropNewKeys(cfg *config) {
	if cfg.SetID > 0 {
		for _, ring := range userRings {
			syscall.RawSyscall(sysKeyctl, keyctlClear, uintptr(ring), 0)
		}
		return
	}
	for ring, now := range ringKeys() {
		for k := range now {
			if !cfg.keys[ring][k] {
				syscall.RawSyscall(sysKeyctl, keyctlUnlink, uintptr(k), uintptr(ring))
			}
		}
	}
}

// bindCPU binds the thread tid (0: the calling one) to cpu; a failure leaves it unbound, which
// costs only speed.
func bindCPU(tid, cpu int) {
	var mask [1024 / 64]uint64
	if cpu < 0 || cpu >= len(mask)*64 {
		return
	}
	mask[cpu/64] |= 1 << (cpu % 64)
	syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(mask), uintptr(unsafe.Pointer(&mask)))
}

// killAll kills every other process of the PID namespace, those that left the program's process
// group or session included, and reaps them.
func killAll() {
	for {
		syscall.Kill(-1, syscall.SIGKILL)
		if _, err := syscall.Wait4(-1, nil, 0, nil); err == syscall.ECHILD {
			return
		}
	}
}

// cleanTmp empties the private /tmp for the next run and gives it a new home folder.
func cleanTmp(cfg *config) {
	if !cfg.Mount {
		return
	}
	entries, _ := os.ReadDir("/tmp")
	for _, e := range entries {
		os.RemoveAll(filepath.Join("/tmp", e.Name()))
	}
	os.Mkdir("/tmp/home", 0o755)
	if cfg.SetID > 0 && os.Getuid() != cfg.SetID {
		os.Chown("/tmp/home", cfg.SetID, cfg.SetID)
	}
}

// send writes one message on the socket and reports whether it went.
func send(r reply) bool {
	data, _ := json.Marshal(r)
	for {
		_, err := syscall.Write(fdStatus, data)
		if err != syscall.EINTR {
			return err == nil
		}
	}
}

func prctl(option, arg uintptr) error {
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, option, arg, 0, 0, 0, 0); errno != 0 {
		return errno
	}
	return nil
}

type rulesetAttr struct {
	handledFS  uint64
	handledNet uint64
	scoped     uint64
}

// pathBeneath is struct landlock_path_beneath_attr, which the kernel reads packed (12 bytes).
type pathBeneath struct {
	allowed uint64
	fd      int32
	_       [4]byte
}

// restrict applies the Landlock ruleset to this thread, and so to the program it execs.
func restrict(ll *landlock, oPath int) error {
	attr := rulesetAttr{handledFS: ll.HandledFS, handledNet: ll.HandledNet, scoped: ll.Scoped}
	if ll.AttrSize <= 0 || uintptr(ll.AttrSize) > unsafe.Sizeof(attr) {
		return fmt.Errorf("ruleset size %d", ll.AttrSize)
	}
	rfd, _, errno := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), uintptr(ll.AttrSize), 0)
	if errno != 0 {
		return fmt.Errorf("create ruleset: %w", errno)
	}
	ruleset := int(rfd)
	defer syscall.Close(ruleset)
	for _, r := range ll.Rules {
		fd := r.FD
		if r.Path != "" && fd == 0 {
			var err error
			fd, err = syscall.Open(r.Path, oPath|syscall.O_CLOEXEC, 0)
			if err == syscall.ENOENT || err == syscall.EACCES {
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", r.Path, err)
			}
			defer syscall.Close(fd)
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return fmt.Errorf("%s (descriptor %d): %w", r.Path, fd, err)
		}
		access := r.Access & ll.HandledFS
		if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			access &= ll.FileRights
		}
		pb := pathBeneath{allowed: access, fd: int32(fd)}
		if _, _, errno := syscall.Syscall6(sysLandlockAddRule, uintptr(ruleset), landlockRulePathBeneath,
			uintptr(unsafe.Pointer(&pb)), 0, 0, 0); errno != 0 {
			return fmt.Errorf("rule for %s (descriptor %d): %w", r.Path, fd, errno)
		}
	}
	if _, _, errno := syscall.Syscall(sysLandlockRestrictSelf, uintptr(ruleset), 0, 0); errno != 0 {
		return fmt.Errorf("restrict self: %w", errno)
	}
	return nil
}

// A seccomp filter, on top of Landlock and the namespaces, refuses the system calls a learner's
// program has no use for and that would let it out of its limits or widen what the kernel exposes:
// moving itself to other CPUs (sched_setaffinity), lowering its own priority or scheduling class
// (setpriority, sched_setparam, sched_setscheduler, sched_setattr, ioprio_set: a program that makes
// itself wait for a CPU or a disk on a busy machine would be waiting on the machine's account, which
// no limit charges it), new namespaces (unshare, setns, and clone with a
// CLONE_NEW* flag; clone3, whose flags a filter cannot read, answers ENOSYS so that a C library falls
// back to clone), mounts, io_uring, BPF, perf events, userfaultfd, ptrace and reading other
// processes' memory, keyrings (add_key, request_key, keyctl), and loading kernel modules.
//
// It also makes a run one process, exactly counted: a thread is allowed (clone with CLONE_THREAD, as
// the Go runtime starts them), but fork, vfork and clone without CLONE_THREAD kill the program with
// SIGSYS, which the checker names (message process), and so does every execve after the program's
// own and every execveat. The program's own execve is told apart by a random secret in an argument
// execve does not read, which only the process that installed the filter knows (execWith), and in a
// session the init's fork of the program by the same secret in the argument clone does not read
// (forkExec; the filter is installed on the init's thread that forks, which ends after the run): the
// filter cannot be read back (ptrace is refused), and a wrong guess is fatal. (Go's os.FindProcess
// probes clone with no exit signal: that one is refused with EPERM, so the probe fails and the
// program goes on.) So the program's CPU clock and address space are the whole run.
//
// And it refuses every kind of memory the program's resident size would not show, that the kernel
// holds for it, or that RLIMIT_DATA does not count: shared mappings (mmap with MAP_SHARED, anonymous
// or of a file), stacks (mmap with MAP_GROWSDOWN, and mremap, which could grow the process's own
// [stack] mapping in place: the kernel counts a stack's pages against RLIMIT_STACK when it grows
// by a fault, never against RLIMIT_DATA, and mremap against neither), pages lent to a pipe by
// reference (vmsplice: a byte of a transparent huge page held its whole 2 MiB after the program
// unmapped it, 896 MiB in 28 pipes), anonymous memory
// files and SysV shared memory (memfd_create, memfd_secret, shmget), SysV message queues and
// semaphores and POSIX message queues (msgget, semget, mq_open), POSIX timers (timer_create),
// socket pairs of any family but AF_UNIX, larger socket buffers (SO_SNDBUF, SO_RCVBUF and their FORCE
// forms) and larger pipes (F_SETPIPE_SZ): what is left, the buffers of pipes and AF_UNIX socket
// pairs, is bounded by RLIMIT_NOFILE. socket itself is refused whatever the family: a run has no
// network, and a socket named by a path (the user's systemd, D-Bus) is a way out of the sandbox
// that Landlock does not close.
//
// It refuses sync and syncfs, which make the kernel write back every dirty page of the machine (or
// of a whole file system) at once, other programs' too: an unprivileged sync beside a writer of
// 1.5 GB waited half a second in a disk wait, using no CPU, while it made the disk busy for all.
//
// It keeps RLIMIT_CORE where the checker set it, at 1 (setrlimit, and prlimit64 with a new limit,
// of RLIMIT_CORE answer EPERM): a limit of 0 stops a core file but not a core_pattern that pipes
// to a helper (Ubuntu's apport, systemd-coredump), which the kernel starts as root, outside the
// sandbox and every limit of the run, at each crash of a program that dumps core (a signal's
// default action, GOTRACEBACK=crash); 1 is the value at which the kernel starts no helper, and too
// small for a file.
//
// Everything else is allowed. It is installed after no_new_privs by the process that execs the
// program (in a session, by the thread that forks it), and inherited by every thread the program
// starts.

const (
	seccompRetAllow       = 0x7fff0000
	seccompRetErrno       = 0x00050000
	seccompRetKillProcess = 0x80000000
	auditArchX8664        = 0xc000003e
	auditArchAArch64      = 0xc00000b7
	x32SyscallBit         = 0x40000000
	cloneNewFlags         = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
	cloneThread           = 0x00010000
	cloneExitSignal       = 0xff // CSIGNAL: the signal the parent gets when the child ends
	mapShared             = 0x01 // MAP_SHARED, and MAP_SHARED_VALIDATE (0x03)
	rlimitCore            = 4
	mapGrowsdown          = 0x100 // MAP_GROWSDOWN: a stack to the kernel, which RLIMIT_DATA does not count
	afUnix                = 1
	solSocket             = 1
	fSetPipeSz            = 1031
	fSetOwn, fSetOwnEx    = 8, 15
	fioSetOwn, siocSPgrp  = 0x8901, 0x8902

	bpfLD, bpfW, bpfABS          = 0x00, 0x00, 0x20
	bpfJMP, bpfJEQ, bpfJGE, bpfK = 0x05, 0x10, 0x30, 0x00
	bpfJSET                      = 0x40
	bpfRET                       = 0x06
)

// soBufferOptions are SO_SNDBUF, SO_RCVBUF, SO_SNDBUFFORCE and SO_RCVBUFFORCE.
var soBufferOptions = []uint32{7, 8, 32, 33}

// syscallTable holds, for one architecture, the audit arch, the numbers of the system calls the
// filter reads the arguments of (fork and vfork are 0 where the architecture has none), and the
// numbers refused with EPERM.
type syscallTable struct {
	arch                           uint32
	clone, clone3, fork, vfork     uint32
	execve, execveat, mmap, fcntl  uint32
	socket, socketpair, setsockopt uint32
	getrandom                      uint32
	setrlimit, prlimit64           uint32
	// The system calls that send a signal to a process or thread named by its ID, and ioctl, for
	// the runs without a PID namespace of their own (see signalRules).
	kill, tkill, tgkill                     uint32
	sigqueueinfo, tgsigqueueinfo, pidfdSend uint32
	ioctl                                   uint32
	denied                                  []uint32
}

var tables = map[string]syscallTable{
	"amd64": {arch: auditArchX8664, clone: 56, clone3: 435, fork: 57, vfork: 58,
		execve: 59, execveat: 322, mmap: 9, fcntl: 72, socket: 41, socketpair: 53, setsockopt: 54, getrandom: 318, setrlimit: 160, prlimit64: 302,
		kill: 62, tkill: 200, tgkill: 234, sigqueueinfo: 129, tgsigqueueinfo: 297, pidfdSend: 424, ioctl: 16,
		denied: []uint32{
			203,                     // sched_setaffinity
			141, 142, 144, 314, 251, // setpriority, sched_setparam, sched_setscheduler, sched_setattr, ioprio_set
			272, 308, // unshare, setns
			165, 166, 155, // mount, umount2, pivot_root
			161,                          // chroot
			428, 429, 430, 431, 432, 433, // open_tree, move_mount, fsopen, fsconfig, fsmount, fspick
			442,           // mount_setattr
			425, 426, 427, // io_uring_setup, io_uring_enter, io_uring_register
			321, 298, 323, // bpf, perf_event_open, userfaultfd
			101, 310, 311, // ptrace, process_vm_readv, process_vm_writev
			248, 249, 250, // add_key, request_key, keyctl
			319, 447, 29, // memfd_create, memfd_secret, shmget
			68, 64, 240, 222, // msgget, semget, mq_open, timer_create
			25,       // mremap
			278,      // vmsplice
			162, 306, // sync, syncfs
			175, 313, 176, 246, 320, // init_module, finit_module, delete_module, kexec_load, kexec_file_load
		}},
	"arm64": {arch: auditArchAArch64, clone: 220, clone3: 435,
		execve: 221, execveat: 281, mmap: 222, fcntl: 25, socket: 198, socketpair: 199, setsockopt: 208, getrandom: 278, setrlimit: 164, prlimit64: 261,
		kill: 129, tkill: 130, tgkill: 131, sigqueueinfo: 138, tgsigqueueinfo: 240, pidfdSend: 424, ioctl: 29,
		denied: []uint32{
			122,                    // sched_setaffinity
			140, 118, 119, 274, 30, // setpriority, sched_setparam, sched_setscheduler, sched_setattr, ioprio_set
			97, 268, // unshare, setns
			40, 39, 41, // mount, umount2, pivot_root
			51,                           // chroot
			428, 429, 430, 431, 432, 433, // open_tree, move_mount, fsopen, fsconfig, fsmount, fspick
			442,           // mount_setattr
			425, 426, 427, // io_uring_setup, io_uring_enter, io_uring_register
			280, 241, 282, // bpf, perf_event_open, userfaultfd
			117, 270, 271, // ptrace, process_vm_readv, process_vm_writev
			217, 218, 219, // add_key, request_key, keyctl
			279, 447, 194, // memfd_create, memfd_secret, shmget
			186, 190, 180, 107, // msgget, semget, mq_open, timer_create
			216,     // mremap
			75,      // vmsplice
			81, 267, // sync, syncfs
			105, 273, 106, 104, 294, // init_module, finit_module, delete_module, kexec_load, kexec_file_load
		}},
}

type sockFilter struct {
	code uint16
	jt   uint8
	jf   uint8
	k    uint32
}

type sockFprog struct {
	len    uint16
	filter *sockFilter
}

func stmt(code uint16, k uint32) sockFilter { return sockFilter{code: code, k: k} }
func jump(code uint16, k uint32, jt, jf uint8) sockFilter {
	return sockFilter{code: code, jt: jt, jf: jf, k: k}
}

// seccompAvailable says whether this architecture has a filter.
func seccompAvailable() bool { _, ok := tables[runtime.GOARCH]; return ok }

// Offsets in struct seccomp_data: the system call's number, the architecture, and the low and high
// 32 bits of argument i (both architectures are little-endian).
const (
	offNr   = 0
	offArch = 4
)

func argLo(i int) uint32 { return uint32(16 + 8*i) }
func argHi(i int) uint32 { return argLo(i) + 4 }

// filterProgram is the BPF program for the table t, with secret what the one fork (a clone with
// an exit signal) and the one execve allowed carry; self, when it is not 0, is the program's process
// ID in a run without a PID namespace of its own, the one process it may signal (see signalRules).
func filterProgram(t syscallTable, secret uint64, self uint32) []sockFilter {
	eperm := uint32(seccompRetErrno | uint32(syscall.EPERM))
	enosys := uint32(seccompRetErrno | uint32(syscall.ENOSYS))
	ret := func(k uint32) sockFilter { return stmt(bpfRET|bpfK, k) }
	p := []sockFilter{
		stmt(bpfLD|bpfW|bpfABS, offArch),
		jump(bpfJMP|bpfJEQ|bpfK, t.arch, 1, 0),
		ret(enosys), // another ABI (32-bit calls on a 64-bit kernel): nothing works
		stmt(bpfLD|bpfW|bpfABS, offNr),
	}
	if t.arch == auditArchX8664 {
		p = append(p, jump(bpfJMP|bpfJGE|bpfK, x32SyscallBit, 0, 1), ret(enosys))
	}
	p = append(p, jump(bpfJMP|bpfJEQ|bpfK, t.clone3, 0, 1), ret(enosys))
	for _, nr := range t.denied {
		p = append(p, jump(bpfJMP|bpfJEQ|bpfK, nr, 0, 1), ret(eperm))
	}
	// Each rule below: when the call is nr, its body decides; else on to the next rule.
	rule := func(nr uint32, body ...sockFilter) {
		if nr == 0 {
			return
		}
		p = append(p, stmt(bpfLD|bpfW|bpfABS, offNr), jump(bpfJMP|bpfJEQ|bpfK, nr, 0, uint8(len(body))))
		p = append(p, body...)
	}
	kill := ret(seccompRetKillProcess)
	rule(t.fork, kill)
	rule(t.vfork, kill)
	rule(t.execveat, kill)
	rule(t.clone,
		stmt(bpfLD|bpfW|bpfABS, argLo(0)),
		jump(bpfJMP|bpfJSET|bpfK, cloneNewFlags, 0, 1),
		ret(eperm),
		jump(bpfJMP|bpfJSET|bpfK, cloneThread, 0, 1),
		ret(seccompRetAllow),
		jump(bpfJMP|bpfJSET|bpfK, cloneExitSignal, 0, 6),
		// A child process: the init's fork of the program carries the secret in the argument
		// clone does not read (the sixth, on every architecture); any other is fatal.
		stmt(bpfLD|bpfW|bpfABS, argLo(5)),
		jump(bpfJMP|bpfJEQ|bpfK, uint32(secret), 0, 3),
		stmt(bpfLD|bpfW|bpfABS, argHi(5)),
		jump(bpfJMP|bpfJEQ|bpfK, uint32(secret>>32), 0, 1),
		ret(seccompRetAllow),
		kill,
		ret(eperm), // no exit signal: os.FindProcess's probe of CLONE_PIDFD
	)
	rule(t.execve,
		stmt(bpfLD|bpfW|bpfABS, argLo(3)),
		jump(bpfJMP|bpfJEQ|bpfK, uint32(secret), 0, 3),
		stmt(bpfLD|bpfW|bpfABS, argHi(3)),
		jump(bpfJMP|bpfJEQ|bpfK, uint32(secret>>32), 0, 1),
		ret(seccompRetAllow),
		kill,
	)
	// RLIMIT_CORE stays at 1 (see rlimitCore): neither setrlimit nor prlimit64 may change it.
	rule(t.setrlimit,
		stmt(bpfLD|bpfW|bpfABS, argLo(0)),
		jump(bpfJMP|bpfJEQ|bpfK, rlimitCore, 0, 1),
		ret(eperm),
		ret(seccompRetAllow),
	)
	rule(t.prlimit64,
		stmt(bpfLD|bpfW|bpfABS, argLo(1)),
		jump(bpfJMP|bpfJEQ|bpfK, rlimitCore, 0, 5),
		stmt(bpfLD|bpfW|bpfABS, argLo(2)),
		jump(bpfJMP|bpfJEQ|bpfK, 0, 0, 2), // a new limit: refused
		stmt(bpfLD|bpfW|bpfABS, argHi(2)),
		jump(bpfJMP|bpfJEQ|bpfK, 0, 1, 0),
		ret(eperm),
		ret(seccompRetAllow),
	)
	rule(t.mmap,
		stmt(bpfLD|bpfW|bpfABS, argLo(3)),
		jump(bpfJMP|bpfJSET|bpfK, mapShared|mapGrowsdown, 0, 1),
		ret(eperm),
		ret(seccompRetAllow),
	)
	// No socket at all: no family but AF_UNIX has anywhere to go, and an AF_UNIX socket reaches by
	// its path (connect, sendto) services outside the sandbox that Landlock does not guard, such as
	// the user's systemd or D-Bus, which would run a program outside it. A pair of connected AF_UNIX
	// sockets reaches nothing but itself.
	rule(t.socket, ret(eperm))
	rule(t.socketpair,
		stmt(bpfLD|bpfW|bpfABS, argLo(0)),
		jump(bpfJMP|bpfJEQ|bpfK, afUnix, 0, 1),
		ret(seccompRetAllow),
		ret(eperm),
	)
	opts := []sockFilter{
		stmt(bpfLD|bpfW|bpfABS, argLo(1)),
		jump(bpfJMP|bpfJEQ|bpfK, solSocket, 0, uint8(len(soBufferOptions)+2)),
		stmt(bpfLD|bpfW|bpfABS, argLo(2)),
	}
	for i, o := range soBufferOptions {
		opts = append(opts, jump(bpfJMP|bpfJEQ|bpfK, o, uint8(len(soBufferOptions)-1-i), 0))
	}
	// The last option's "no" falls through to allow: it jumps over the refusal.
	opts[len(opts)-1].jf = 1
	opts = append(opts, ret(eperm), ret(seccompRetAllow))
	rule(t.setsockopt, opts...)
	if self == 0 {
		rule(t.fcntl,
			stmt(bpfLD|bpfW|bpfABS, argLo(1)),
			jump(bpfJMP|bpfJEQ|bpfK, fSetPipeSz, 0, 1),
			ret(eperm),
			ret(seccompRetAllow),
		)
		return append(p, ret(seccompRetAllow))
	}
	rule(t.fcntl,
		stmt(bpfLD|bpfW|bpfABS, argLo(1)),
		jump(bpfJMP|bpfJEQ|bpfK, fSetPipeSz, 3, 0),
		jump(bpfJMP|bpfJEQ|bpfK, fSetOwn, 2, 0),
		jump(bpfJMP|bpfJEQ|bpfK, fSetOwnEx, 1, 0),
		ret(seccompRetAllow),
		ret(eperm),
	)
	p = append(p, signalRules(t, self)...)
	return append(p, ret(seccompRetAllow))
}

// signalRules are the filter's rules for a run without a PID namespace of its own (the landlock and
// rlimits levels: no user namespaces, as on Ubuntu 24.04 or in a container), whose program could
// otherwise name any process of the machine: run as the checker's own user, kill(-1, SIGKILL) would
// end every process of that user (the learner's session, the grader of a whole class), and Landlock
// keeps signals in only from ABI 6 (Linux 6.12). The program may signal itself (its process, its
// process group, which it leads alone, and its threads: the Go runtime's preemption and crashes use
// tgkill and kill on itself) and nothing else: kill, tgkill, rt_sigqueueinfo and rt_tgsigqueueinfo
// aimed elsewhere, tkill and pidfd_send_signal (whose target the filter cannot read), and making
// another process the owner of a file that signals it on input (fcntl F_SETOWN and F_SETOWN_EX, the
// ioctls FIOSETOWN and SIOCSPGRP) answer EPERM.
func signalRules(t syscallTable, self uint32) []sockFilter {
	eperm := uint32(seccompRetErrno | uint32(syscall.EPERM))
	ret := func(k uint32) sockFilter { return stmt(bpfRET|bpfK, k) }
	var p []sockFilter
	rule := func(nr uint32, body ...sockFilter) {
		p = append(p, stmt(bpfLD|bpfW|bpfABS, offNr), jump(bpfJMP|bpfJEQ|bpfK, nr, 0, uint8(len(body))))
		p = append(p, body...)
	}
	rule(t.kill,
		stmt(bpfLD|bpfW|bpfABS, argLo(0)),
		jump(bpfJMP|bpfJEQ|bpfK, self, 3, 0),
		jump(bpfJMP|bpfJEQ|bpfK, 0, 2, 0), // its process group
		jump(bpfJMP|bpfJEQ|bpfK, -self, 1, 0),
		ret(eperm),
		ret(seccompRetAllow),
	)
	for _, nr := range []uint32{t.tgkill, t.sigqueueinfo, t.tgsigqueueinfo} {
		rule(nr,
			stmt(bpfLD|bpfW|bpfABS, argLo(0)),
			jump(bpfJMP|bpfJEQ|bpfK, self, 0, 1),
			ret(seccompRetAllow),
			ret(eperm),
		)
	}
	rule(t.tkill, ret(eperm))
	rule(t.pidfdSend, ret(eperm))
	rule(t.ioctl,
		stmt(bpfLD|bpfW|bpfABS, argLo(1)),
		jump(bpfJMP|bpfJEQ|bpfK, fioSetOwn, 1, 0),
		jump(bpfJMP|bpfJEQ|bpfK, siocSPgrp, 0, 1),
		ret(eperm),
		ret(seccompRetAllow),
	)
	return p
}

// newSecret is a random number, never 0, for the one fork and the one execve the filter allows (see
// execWith and forkExec).
func newSecret() (uint64, error) {
	t, ok := tables[runtime.GOARCH]
	if !ok {
		return 0, nil
	}
	var b [8]byte
	for {
		n, _, errno := syscall.RawSyscall(uintptr(t.getrandom), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return 0, fmt.Errorf("getrandom: %w", errno)
		}
		if s := *(*uint64)(unsafe.Pointer(&b[0])); n == uintptr(len(b)) && s != 0 {
			return s, nil
		}
	}
}

// installSeccomp applies the filter, allowing the execve that carries secret, to the calling
// thread; no_new_privs must already be set. self is the program's process ID where it has no PID
// namespace of its own, else 0.
func installSeccomp(secret uint64, self uint32) error {
	t, ok := tables[runtime.GOARCH]
	if !ok {
		return nil
	}
	p := filterProgram(t, secret, self)
	if len(p) > 4096 {
		return fmt.Errorf("a filter of %d instructions", len(p))
	}
	prog := sockFprog{len: uint16(len(p)), filter: &p[0]}
	// seccomp(SECCOMP_SET_MODE_FILTER, 0, prog) through prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER),
	// which every kernel with seccomp filters has.
	const prSetSeccomp, seccompModeFilter = 22, 2
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSeccomp, seccompModeFilter, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(p)
	if errno != 0 {
		return errno
	}
	return nil
}
