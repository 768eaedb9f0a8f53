//go:build linux

package checker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A session is one sandbox init in serve mode (see internal/sandboxinit): it runs programs many
// times in one set of namespaces, so that runs pay for the init's start once rather than once each.
// Every run still gets its own Landlock domain limited to its own program and work folder, its own
// empty private /tmp, its own IPC namespace and keyrings, and the same resource limits, and nothing
// it starts outlives it; so the runs of a session may be of different programs (the students of a
// class graded one after another). A session serves one run at a time; the sessions of the same
// limits share a pool, one per run in flight. When a run must be stopped (time, output cap,
// cancellation) its whole session is killed.
type session struct {
	cmd   *exec.Cmd
	conn  *net.UnixConn
	log   *limitedBuffer // the init's own stdout and stderr
	slot  int            // the session's place in sessionCPUs, -1 when it is not bound to a CPU
	uid   int            // the user its programs run as, when the checker is root
	group *procGroup     // the session's cgroup, where the system delegates cgroups
	once  sync.Once      // kill's work, done once
}

// sessionPool holds the idle sessions of one configuration.
type sessionPool struct {
	mu    sync.Mutex
	cfg   initConfig
	idle  []*session
	owner string // the one program the pool serves, or "" when it serves every program
}

// sessionIdle is how long an idle session is kept for the next run.
const sessionIdle = 10 * time.Second

// pools are the session pools by configuration: one per sandbox level and limits, and, where runs
// cannot have IPC namespaces of their own, one per program.
var pools struct {
	mu   sync.Mutex
	m    map[string]*sessionPool
	keys map[*Program]poolKey // by program, until it is closed
}

// sessionsOff turns sessions off, for tests and benchmarks of the run-per-init path;
// testRetireCPU, when set, replaces the CPU time after which an init retires.
var (
	sessionsOff   bool
	testRetireCPU time.Duration
)

// initThreads is what RLIMIT_NPROC allows on top of a run's processes for the init of a session,
// which stays in the namespace (its own threads count against the limit).
const initThreads = 16

// sessionReply is the init's answer to a request.
type sessionReply struct {
	Ready  bool   `json:"ready"`
	Error  string `json:"error"`
	Status uint32 `json:"status"`
	CPU    int64  `json:"cpu_ns"`
	Retire bool   `json:"retire"`
	Memory bool   `json:"memory"`
	// Limit is "cpu", "blocked" or "wall" when the init stopped the run at that limit of the request.
	Limit string `json:"limit"`
	Idle  int64  `json:"idle_ns"` // time neither on a CPU nor waiting for one (see RunOutput.Idle)
	// Wait is what the run's threads were blocked in when the init stopped it at its idle or
	// wall-clock limit: "slept", "waited" (see package waits) or "" when not known.
	Wait string `json:"wait"`
}

// runInSession runs the program as Run does, in a session, when this system's sandbox has PID
// namespaces; ok is false when the run must take the path of one init per run.
func (p *Program) runInSession(ctx context.Context, dir string, args []string, stdin string, rl runLimit) (out RunOutput, ok bool) {
	l := currentLevel()
	if sessionsOff || !l.reexec || !l.namespaces {
		return RunOutput{}, false
	}
	pool := poolFor(p, l)
	for attempt := 0; ; attempt++ {
		s, err := pool.get(l)
		if err != nil {
			return sandboxFailure(err.Error()), true
		}
		if os.Geteuid() == 0 && (l.mapID || l.setID) && dir != p.emptyDir() {
			// The program runs as nobody, or the session's own user: it must be able to write
			// in its work folder (the shared empty folder is only read, by the init).
			if err := chownTree(dir, s.uid); err != nil {
				pool.put(s)
				return sandboxFailure(err.Error()), true
			}
		}
		out, healthy, sent := s.run(ctx, p, dir, args, stdin, rl)
		if healthy {
			pool.put(s)
		} else {
			s.kill()
		}
		// A session that died while idle could not take the request: the run never started, and
		// is tried once more in a new one.
		if sent || attempt > 0 {
			return out, true
		}
	}
}

// poolFor returns the pool of the sessions that can run p at level l. What the pool is chosen by
// (the session's configuration) is worked out once per program and level and kept in pools.keys.
func poolFor(p *Program, l level) *sessionPool {
	pools.mu.Lock()
	pk, ok := pools.keys[p]
	pools.mu.Unlock()
	if !ok || pk.level != l {
		pk = newPoolKey(p, l) // outside the lock: it encodes the configuration as JSON
	}
	pools.mu.Lock()
	defer pools.mu.Unlock()
	if pools.keys == nil {
		pools.keys, pools.m = map[*Program]poolKey{}, map[string]*sessionPool{}
	}
	pools.keys[p] = pk
	sp := pools.m[pk.key]
	if sp == nil {
		sp = &sessionPool{cfg: pk.cfg, owner: pk.owner}
		pools.m[pk.key] = sp
	}
	return sp
}

// poolKey is what a program's runs at a level choose their pool of sessions by.
type poolKey struct {
	level      level // the whole level: tests run one program at several, some with the same name
	key, owner string
	cfg        initConfig
}

func newPoolKey(p *Program, l level) poolKey {
	lim := p.limits.withDefaults()
	cfg := l.config(lim, false, nil)
	cfg.Serve = true
	if cfg.Proc {
		cfg.RunMemory = lim.Memory
	}
	cfg.RunIPC = l.userns
	// The init's own CPU time counts against the limit meant for a run's processes: it retires
	// long before it could reach it.
	cfg.RetireCPU = int64(lim.CPUTime / 4)
	if testRetireCPU > 0 {
		cfg.RetireCPU = int64(testRetireCPU)
	}
	cfg.Env = setEnv(setEnv(runEnv(p.scratch), "HOME", "/tmp/home"), "TMPDIR", "/tmp")
	for i, rl := range cfg.Rlimits {
		if rl.Res == unix.RLIMIT_NPROC {
			cfg.Rlimits[i].Cur += initThreads
			cfg.Rlimits[i].Max += initThreads
		}
	}
	if cfg.Landlock != nil {
		// The program and the work folder are a run's: each run adds its own rules.
		var rules []llRule
		for _, r := range cfg.Landlock.Rules {
			if r.FD != fdWork && r.FD != fdProg {
				rules = append(rules, r)
			}
		}
		cfg.Landlock.Rules = rules
	}
	data, _ := json.Marshal(cfg)
	key := l.name + " " + string(data)
	owner := ""
	if !cfg.RunIPC {
		// Without a user namespace the init cannot give each run an IPC namespace of its own:
		// a program's runs may share one, different programs may not.
		owner = p.Path
		key += " " + owner
	}
	return poolKey{level: l, key: key, owner: owner, cfg: cfg}
}

// dropSessions ends the idle sessions that serve p alone and forgets their pool; Close calls it.
func (p *Program) dropSessions() {
	var idle []*session
	pools.mu.Lock()
	delete(pools.keys, p)
	for key, sp := range pools.m {
		if sp.owner == p.Path {
			sp.mu.Lock()
			idle = append(idle, sp.idle...)
			sp.idle = nil
			sp.mu.Unlock()
			delete(pools.m, key)
		}
	}
	pools.mu.Unlock()
	for _, s := range idle {
		s.kill()
	}
}

// get returns an idle session of the pool, or a new one.
func (sp *sessionPool) get(l level) (*session, error) {
	sp.mu.Lock()
	if n := len(sp.idle); n > 0 {
		s := sp.idle[n-1]
		sp.idle = sp.idle[:n-1]
		sp.mu.Unlock()
		return s, nil
	}
	sp.mu.Unlock()
	return startSession(l, sp.cfg)
}

// put gives a session back after a run. A session that stays idle for sessionIdle ends, and so
// do those beyond one per CPU.
func (sp *sessionPool) put(s *session) {
	sp.mu.Lock()
	if len(sp.idle) >= max(2, runtime.GOMAXPROCS(0)) {
		sp.mu.Unlock()
		s.kill()
		return
	}
	sp.idle = append(sp.idle, s)
	sp.mu.Unlock()
	time.AfterFunc(sessionIdle, func() {
		if sp.take(s) {
			s.kill()
		}
	})
}

// take removes s from the idle sessions and reports whether it was there.
func (sp *sessionPool) take(s *session) bool {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for i, t := range sp.idle {
		if t == s {
			sp.idle = append(sp.idle[:i], sp.idle[i+1:]...)
			return true
		}
	}
	return false
}

// startSession starts a sandbox init in serve mode with cfg and waits until it is ready.
func startSession(l level, cfg initConfig) (*session, error) {
	uid := runID(l)
	if cfg.SetID > 0 {
		cfg.SetID = uid
	}
	slot, cpu := sessionCPUs().take()
	if cpu >= 0 {
		cfg.CPU = &cpu
	}
	started := false
	defer func() {
		if !started {
			sessionCPUs().release(slot)
		}
	}()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socketpair: %w", err)
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "session"), os.NewFile(uintptr(fds[1]), "session-init")
	defer theirs.Close()
	c, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		return nil, err
	}
	s := &session{conn: c.(*net.UnixConn), log: &limitedBuffer{buf: new(bytes.Buffer), max: 4 << 10}, slot: -1, uid: uid}
	s.cmd = exec.Command("/proc/self/exe")
	initFile, err := prepareInit(s.cmd, l, cfg, theirs, nil, nil)
	if err != nil {
		s.conn.Close()
		return nil, err
	}
	defer initFile.Close()
	// One run at a time: the cgroup holds the init, the run's processes and the session's tmpfs. Its
	// tasks may exceed the run's RLIMIT_NPROC (which has the init's threads on top already) by as
	// many again: a fork bomb meets the rlimit, and the init, which must go on to kill and reap it,
	// still has threads to do it with.
	memory, tasks := int64(Limits{}.withDefaults().Memory), Limits{}.withDefaults().Processes+initThreads
	for _, rl := range cfg.Rlimits {
		switch rl.Res {
		case unix.RLIMIT_DATA:
			memory = int64(rl.Cur)
		case unix.RLIMIT_NPROC:
			tasks = int(rl.Cur)
		}
	}
	if s.group, err = newGroup(memory+tmpfsBytes+2*groupSlack, tasks+initThreads); err != nil {
		s.conn.Close()
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	s.group.attach(s.cmd.SysProcAttr)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		s.conn.Close()
		s.group.close()
		return nil, err
	}
	theirs.Close()
	s.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 4<<10)
	n, err := s.conn.Read(buf)
	s.conn.SetReadDeadline(time.Time{})
	var r sessionReply
	if err == nil && json.Unmarshal(buf[:n], &r) == nil && r.Ready {
		s.slot, started = slot, true
		return s, nil
	}
	msg := strings.TrimSpace(string(buf[:n]))
	s.kill()
	if msg == "" {
		msg = fmt.Sprintf("the sandbox init ended (%v) %s", err, strings.TrimSpace(s.log.buf.String()))
	}
	return nil, errors.New(msg)
}

// run runs the program once in the session. healthy says whether the session can serve another
// run; sent whether the request reached the init at all. The init itself stops the program at the
// run's CPU limit (reading its CPU clock), its idle and own wall-clock time, and its last stop (see
// runLimit), and answers with the CPU time it used; the checker's own deadline, later, only stops an
// init that failed to. It leaves the init five seconds (or one more wall limit) past the last stop: on a busy machine the init
// itself waits for a CPU before it can stop the run and answer, and a deadline of one second gave
// programs a "sandbox" crash where an idle machine gives a timeout.
func (s *session) run(ctx context.Context, p *Program, dir string, args []string, stdin string, rl runLimit) (out RunOutput, healthy, sent bool) {
	rctx, cancel := context.WithTimeout(ctx, rl.lastStop()+max(5*time.Second, rl.Wall))
	defer cancel()
	dfd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return sandboxFailure((&os.PathError{Op: "open", Path: dir, Err: err}).Error()), true, true
	}
	work := os.NewFile(uintptr(dfd), dir)
	pfd, err := unix.Open(p.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		work.Close()
		return sandboxFailure((&os.PathError{Op: "open", Path: p.Path, Err: err}).Error()), true, true
	}
	prog := os.NewFile(uintptr(pfd), p.Path)
	pipe := func() (r, w *os.File) {
		if err == nil {
			r, w, err = os.Pipe()
		}
		return r, w
	}
	inR, inW := pipe()
	outR, outW := pipe()
	errR, errW := pipe()
	defer func() {
		for _, f := range []*os.File{work, prog, inR, inW, outR, outW, errR, errW} {
			if f != nil {
				f.Close()
			}
		}
	}()
	if err != nil {
		return sandboxFailure(err.Error()), true, true
	}
	ends := []*os.File{work, inR, outW, errW, prog} // the init's ends, closed here once sent
	// Stdin is written whole before the request (it fits in the pipe, and it is empty in every
	// exercise's run), or fed after it, which the init must know (request.Feeding).
	var feeding atomic.Bool
	fed := feedStdin(inW, stdin, &feeding)
	inW = nil
	req, _ := json.Marshal(struct {
		Args []string `json:"args"`
		CPU  int64    `json:"cpu_ns"`
		Idle int64    `json:"idle_ns"`
		Wall int64    `json:"wall_ns"`
		Own  int64    `json:"own_ns"`
		Stop int64    `json:"stop_ns"`
		Feed bool     `json:"feeding,omitempty"`
	}{append([]string{p.Path}, args...), int64(rl.CPU), int64(rl.Idle), int64(rl.Wall), int64(rl.ownWall()), int64(rl.lastStop()), fed})
	rights := unix.UnixRights(int(work.Fd()), int(inR.Fd()), int(outW.Fd()), int(errW.Fd()), int(prog.Fd()))
	start := time.Now()
	s.group.runStarts()
	if _, _, err := s.conn.WriteMsgUnix(req, rights, nil); err != nil {
		return sandboxFailure("the sandbox init is gone: " + err.Error()), false, false
	}
	for _, f := range ends {
		f.Close()
	}
	work, inR, outW, errW, prog = nil, nil, nil, nil, nil

	capped := &capture{max: p.limits.OutputBytes, onFull: cancel}
	var copying sync.WaitGroup
	copying.Add(2)
	go func() { defer copying.Done(); copyOutput(capped.writer(&capped.stdout), outR) }()
	go func() { defer copying.Done(); copyOutput(capped.writer(&capped.stderr), errR) }()

	replies := make(chan sessionReply, 1)
	go func() {
		buf := make([]byte, 1<<10)
		n, err := s.conn.Read(buf)
		var r sessionReply
		if err != nil {
			r.Error = "the sandbox init ended: " + err.Error()
		} else if err := json.Unmarshal(buf[:n], &r); err != nil {
			r.Error = "the sandbox init's answer: " + err.Error()
		}
		replies <- r
	}()
	var r sessionReply
	stopped := false
	select {
	case r = <-replies:
	case <-rctx.Done():
		stopped = true
		s.kill()
		r = <-replies
	}
	out.Duration = time.Since(start)
	// Everything the program started is dead once the init has answered (or been killed), so the
	// pipes are at their end; a stuck copy would be a fault of the init, and ends it.
	copied := make(chan struct{})
	go func() { copying.Wait(); close(copied) }()
	select {
	case <-copied:
	case <-time.After(time.Second):
		stopped = true
		s.kill()
		<-copied
	}
	capped.mu.Lock()
	out.Stdout, out.Stderr = capped.stdout.String(), capped.stderr.String()
	full := capped.full
	capped.mu.Unlock()
	timedOut := rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	healthy = !stopped && r.Error == "" && !r.Retire
	out.Status = Pass
	out.CPU, out.Idle = time.Duration(r.CPU), time.Duration(r.Idle)
	switch {
	case full:
		out.Status, out.ExitCode = OutputLimit, -1
		crashDump(&out)
	case s.group.outOfMemory():
		// The kernel killed the session at the memory limit of the run's processes together.
		out.Status, out.ExitCode, out.Reason = MemoryLimit, -1, ReasonMemoryLimit
		return out, false, true
	case timedOut:
		// The init did not stop the run at its limits: a fault of the sandbox, not of the program.
		out.Status, out.ExitCode, out.Reason = Crash, -1, ReasonSandbox
		out.Stderr += "sandbox: the sandbox init did not stop the run at its time limits"
		return out, false, true
	case ctx.Err() != nil:
		out.Status, out.ExitCode = Crash, -1
	case r.Error != "":
		out.Status, out.ExitCode, out.Reason = Crash, -1, ReasonSandbox
		out.Stderr += "sandbox: " + r.Error
		if !stopped && strings.HasPrefix(r.Error, "the sandbox init ended") {
			// Gone by itself: how it ended, and what it said, tell a fault of the init's from the
			// machine's (a signal, a limit of its own, the runtime's out of memory).
			s.kill()
			out.Stderr += fmt.Sprintf(" (%v) %s", s.cmd.ProcessState, strings.TrimSpace(s.log.String()))
		}
		return out, false, true
	case r.Memory:
		// The watchdog killed the run: its processes together held more than the memory limit.
		out.Status, out.ExitCode, out.Reason = MemoryLimit, -1, ReasonMemoryLimit
		return out, healthy, true
	default:
		ws := syscall.WaitStatus(r.Status)
		code := ws.ExitStatus()
		if ws.Signaled() {
			code = -1
		}
		exited(&out, code)
	}
	if !full && ctx.Err() == nil {
		judgeTime(&out, rl, r.Limit)
		nameWait(&out, r.Wait)
	}
	classify(&out, p.limits, out.CPU, signalName(syscall.WaitStatus(r.Status)), full || r.Limit != "" || ctx.Err() != nil)
	return out, healthy, true
}

// kill ends the session's init, and with it every process of its namespace, and reaps it.
func (s *session) kill() {
	s.once.Do(func() {
		s.conn.Close()
		killProcessTree(s.cmd)
		s.cmd.Wait()
		s.group.close()
		sessionCPUs().release(s.slot)
	})
}
