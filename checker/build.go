package checker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	gobuild "go/build"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound what building and running a learner's program may cost. The time of a run is judged
// by the program's own CPU time, which does not depend on what else the machine is doing; the wall
// clock only stops a program that sleeps or blocks (see runLimit).
type Limits struct {
	// BuildTime is the time building one program may take, counted as the CPU time of the go
	// command's whole process tree (the go command, the compiler, the linker) where the system
	// gives it (Linux; default 30 s; an exercise compiles in about a second): past it the build is
	// stopped, build_error with message build_time. Elsewhere the wall clock stands in for it, at
	// three times BuildTime. The standard library is compiled before, outside this limit (warmStd).
	BuildTime time.Duration
	// BuildWall is the wall-clock backstop of one build (default twenty times BuildTime, at least
	// ten minutes: a machine loaded many times over gives a build a few percent of a CPU): a build
	// stopped there had used less than BuildTime of CPU, so it is the machine that was slow, not the
	// program: an error of the tool, never a verdict.
	BuildWall time.Duration
	// Trusted says that the program is the course's own (a reference solution, a lesson program,
	// what verify builds): its build is bounded only by a wall clock of trustedBuild, never by a
	// limit meant for compile-time bombs. Never set it for a learner's code.
	Trusted bool
	// RunTime is the time one run may take, counted as the CPU time of the program (default 2 s):
	// past it the run is stopped, status timeout, message cpu_limit.
	RunTime time.Duration
	// IdleTime is how long one run may spend with no thread on a CPU or waiting for one: sleeping
	// or waiting (default half of RunTime, at least 250 ms). Past it the run is stopped, status
	// timeout, message blocked. A program a busy machine keeps waiting for a CPU is not idle.
	IdleTime time.Duration
	// WallTime is the wall-clock backstop of one run (default ten times RunTime), where the idle
	// time cannot be read: a run stopped there that used little CPU gets the message blocked.
	WallTime time.Duration
	// Budget is the CPU time that the runs of one RunCases which were stopped at a time limit may
	// take together (default twice RunTime; a run that ends by itself costs it nothing): once the
	// cases before a case have used it up, that case gets only a short limit (shortRun), and is
	// not_run (message budget) if it does not finish within it.
	Budget      time.Duration
	OutputBytes int64 // stdout plus stderr of one run (default 1 MiB)
	// The limits below are enforced where the system allows it (see Isolation).
	CPUTime   time.Duration // the kernel's CPU-time limit of each process of a run, whole seconds (default twice RunTime)
	Memory    int64         // heap and other private memory of each process, in bytes (default 512 MiB)
	Processes int           // processes and threads of a run together (default 128)
	Virtual   bool          // the program runs in virtual time, inside a testing/synctest bubble (vtime.go)
}

// WithDefaults returns the limits with every unset one at its default.
func (l Limits) WithDefaults() Limits { return l.withDefaults() }

func (l Limits) withDefaults() Limits {
	if l.Trusted {
		l.BuildTime, l.BuildWall = trustedBuild, trustedBuild
	}
	if l.BuildTime <= 0 {
		l.BuildTime = 30 * time.Second
	}
	if l.BuildWall <= 0 {
		l.BuildWall = max(20*l.BuildTime, 10*time.Minute)
	}
	if l.RunTime <= 0 {
		l.RunTime = 2 * time.Second
	}
	if l.WallTime <= 0 {
		l.WallTime = 10 * l.RunTime
	}
	if l.IdleTime <= 0 {
		l.IdleTime = max(l.RunTime/2, 250*time.Millisecond)
	}
	l.IdleTime = min(l.IdleTime, l.WallTime)
	if l.Budget <= 0 {
		l.Budget = 2 * l.RunTime
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = 1 << 20
	}
	if l.CPUTime <= 0 {
		l.CPUTime = 2 * l.RunTime
	}
	if l.Memory <= 0 {
		l.Memory = 512 << 20
	}
	if l.Processes <= 0 {
		l.Processes = 128
	}
	return l
}

// trustedBuild bounds the build of the course's own code (Limits.Trusted), CPU and wall clock: only
// a hung toolchain ever reaches it. A cold build of the standard library beside other work takes
// minutes.
const trustedBuild = time.Hour

// BuildFailure is returned by Build when the learner's program cannot be built: a verdict (BuildError
// or NoProgram) with the compiler's messages or the reason. It is a verdict about the program, not a
// failure of the tool.
type BuildFailure struct {
	Verdict Verdict
	Log     string
	Reason  string   // a code for a known cause (go_version, go_mod, module, cgo, build_time, build_memory, build_size, static_data, no_go_files, not_main), else ""
	Skipped []string // what of the learner's folder took no part in the build, "path: why" (see snapshot)
	again   bool     // blamed in a batch: BuildMany builds it alone for its own messages
}

func (e *BuildFailure) Error() string { return string(e.Verdict) + ": " + e.Log }

// Program is a learner's program built in a scratch folder. Close removes the folder.
type Program struct {
	Path      string        // the executable
	BuildTime time.Duration // how long go build took
	Skipped   []string      // what of the learner's folder took no part in the build, "path: why"
	Cached    bool          // the executable came from the cache of executables (see exeKey)
	scratch   string
	limits    Limits
	dirsOnce  sync.Once // the folders the runs need, made at the first run (see runDirs)
	dirsErr   error
	// key is the cache key of the program's own sources; Close keeps the executable under it
	// unless a run of it failed for a reason outside the program (tainted).
	key     string
	tainted atomic.Bool
	batched bool // built by a batch's go command, not alone (for tests)
}

// taint marks the program's executable as not to be kept in the cache (and drops it from there):
// one of its runs failed for a reason outside the program, such as a sandbox that could not be set
// up or a run the checker itself had to stop.
func (p *Program) taint() {
	if !p.tainted.Swap(true) && p.Cached {
		dropExe(p.key)
	}
}

// runDirs makes the folders of the program's scratch folder that its runs need: where the runs
// have a private /tmp, empty (see runFolder); where they have none, the home and tmp they are given.
// (runs, where a run gets a folder of its own, is made with the first such folder.) A program of
// a batch or from the cache never builds in its scratch folder, and one that never runs needs
// none of them: folders are made only when needed, since making one costs up to a millisecond on
// some disks (BENCHMARKS.md).
func (p *Program) runDirs() error {
	if !privateTmp() {
		return makeDirs(p.scratch, "home", "tmp") // once they are there, a stat each
	}
	p.dirsOnce.Do(func() { p.dirsErr = makeDirs(p.scratch, "empty") })
	return p.dirsErr
}

// makeDirs makes the folders names in dir, 0755 whatever the umask: a sandbox init of another user
// reads the runs' folders.
func makeDirs(dir string, names ...string) error {
	for _, d := range names {
		p := filepath.Join(dir, d)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			continue
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		if err := os.Chmod(p, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// emptyDir is the folder that runs without input files are handed where the sandbox init copies a
// run's folder into the run's private /tmp: the program never sees it, and it stays empty. It is
// "" elsewhere, and when it could not be made.
func (p *Program) emptyDir() string {
	if !privateTmp() || p.runDirs() != nil {
		return ""
	}
	return filepath.Join(p.scratch, "empty")
}

// Close removes the program's scratch folder.
func (p *Program) Close() error {
	if p == nil || p.scratch == "" {
		return nil
	}
	p.dropSessions()
	if !p.Cached && !p.tainted.Load() && p.Path != "" {
		keepExe(p.key, p.Path)
	}
	return removeTree(p.scratch)
}

// Build copies the Go program in src to a scratch folder (its .go files and go.mod only, read safely:
// see snapshot) and builds it there, offline and with CGO off, under lim.BuildTime and, on Linux, in
// the sandbox. A program that does not build is reported as a *BuildFailure; any other error means
// the tool itself could not work (no Go toolchain, unreadable folder).
func Build(ctx context.Context, src string, lim Limits) (*Program, error) {
	info, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", src)
	}
	return build(ctx, src, nil, lim, nil)
}

// buildHow changes what build does, for the checker's own builds: warm builds a program of blank
// imports to fill the build cache (warmStd): nothing is taken from or kept in the cache of
// executables, and compiled tells whether the go command compiled anything.
type buildHow struct {
	warm      bool
	compiled  bool
	compiling func() // called once, when the go command of a warm build starts compiling a package
}

// build makes a scratch folder, takes a snapshot of src into it and builds the copy. skipped adds
// to what the snapshot leaves out (src may itself be a snapshot).
func build(ctx context.Context, src string, skipped []string, lim Limits, how *buildHow) (*Program, error) {
	if how == nil {
		how = &buildHow{}
	}
	lim = lim.withDefaults()
	goBin, err := GoTool()
	if err != nil {
		return nil, err
	}
	scratch, err := TempDir("build")
	if err != nil {
		return nil, err
	}
	p := &Program{scratch: scratch, limits: lim}
	ok := false
	defer func() {
		if !ok {
			p.Close()
		}
	}()
	srcCopy := filepath.Join(scratch, "src")
	more, err := snapshot(src, srcCopy)
	if err != nil {
		return nil, err
	}
	p.Skipped = append(append([]string{}, skipped...), more...)
	fail := func(err error) (*Program, error) {
		var bf *BuildFailure
		if errors.As(err, &bf) {
			bf.Skipped = p.Skipped
		}
		return nil, err
	}
	if err := findMain(srcCopy); err != nil {
		return fail(err)
	}
	if err := checkGoMod(srcCopy); err != nil {
		return fail(err)
	}
	if lim.Virtual {
		if err := addVirtual(srcCopy); err != nil {
			return fail(err)
		}
	}
	// The key is of the learner's files alone: a go.mod added here is the same for every build of
	// one toolchain, which the key holds.
	key, _ := exeKey(srcCopy)
	if _, err := os.Stat(filepath.Join(srcCopy, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		mod := "module learner\n\ngo " + GoVersion() + "\n"
		if err := os.WriteFile(filepath.Join(srcCopy, "go.mod"), []byte(mod), 0o644); err != nil {
			return nil, err
		}
	}
	if err := layOut(scratch); err != nil {
		return nil, err
	}
	exe := exePath(scratch)
	if !how.warm {
		p.key = key
	}
	if !how.warm && cachedExe(key, exe) {
		// Cached under another run's limits: a smaller memory limit now may refuse its static data.
		if err := checkExe(exe, lim); err != nil {
			return fail(err)
		}
		p.Path, p.Cached = exe, true
		ok = true
		return p, nil
	}
	if !how.warm {
		// What the program imports from the standard library is compiled first, as the course's
		// own code: a cold build cache is never a learner's program's cost, and a first build on a
		// machine tells its front end why it is slow (WithProgress).
		warmStd(ctx, []string{srcCopy}, lim, false)
	}
	args := buildArgs(lim, exe)
	if how.warm {
		args = append(args[:1:1], append([]string{"-x"}, args[1:]...)...)
	}
	var tee io.Writer
	if how.warm && how.compiling != nil {
		tee = &compileWatch{seen: how.compiling}
	}
	r, out, err := goBuild(ctx, goBin, srcCopy, scratch, lim, args, nil, tee)
	if how.warm {
		how.compiled = ranCompiler(out.String())
	}
	if err == nil && r.overCPU && !lim.Trusted && warmStd(ctx, []string{srcCopy}, lim, true) {
		// The build cache had lost what it was known to hold (go clean -cache): the standard
		// library was compiled within the program's limit. Once more, now that it is there.
		r, out, err = goBuild(ctx, goBin, srcCopy, scratch, lim, args, nil, nil)
	}
	p.BuildTime = r.wall
	if err != nil {
		return nil, err
	}
	switch {
	case r.overCPU:
		return fail(&BuildFailure{Verdict: BuildError, Reason: "build_time", Log: fmt.Sprintf("go build used more than %s of CPU time", lim.BuildTime)})
	case r.overWall:
		return nil, r.wallError(lim)
	case r.err != nil:
		var ee *exec.ExitError
		if !errors.As(r.err, &ee) {
			return nil, fmt.Errorf("running go build: %w", r.err)
		}
		log := cleanBuildLog(out.String(), srcCopy)
		return fail(&BuildFailure{Verdict: BuildError, Log: log, Reason: buildReason(srcCopy, log)})
	}
	if err := checkExe(exe, lim); err != nil {
		return fail(err)
	}
	// The executable is kept in the cache when the program is closed, if no run of it failed for
	// a reason outside the program (see taint).
	p.Path = exe
	ok = true
	return p, nil
}

// newProgram makes the scratch folder of a program built elsewhere (in a batch, or taken from the
// cache) and returns the program (Close it) and where its executable goes. The folders its runs
// need are made when it first runs (runDirs).
func newProgram(lim Limits) (*Program, string, error) {
	scratch, err := TempDir("build")
	if err != nil {
		return nil, "", err
	}
	p := &Program{scratch: scratch, limits: lim}
	return p, exePath(scratch), nil
}

// layOut makes the folders of a scratch folder that go build needs: its home, tmp, GOPATH and
// configuration.
func layOut(scratch string) error {
	for _, d := range []string{"home", "tmp", "gopath", "config"} {
		if err := os.MkdirAll(filepath.Join(scratch, d), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// exePath is where a program's executable goes in its scratch folder.
func exePath(scratch string) string {
	if runtime.GOOS == "windows" {
		return filepath.Join(scratch, "prog.exe")
	}
	return filepath.Join(scratch, "prog")
}

// goCommand prepares the go command goBin with args in dir under env: its stdout and stderr kept
// together in out up to max bytes, and its whole process group killed when ctx ends.
func goCommand(ctx context.Context, goBin, dir string, env []string, max int, args ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Dir = dir
	cmd.Env = env
	out := new(bytes.Buffer)
	cmd.Stdout = &limitedBuffer{buf: out, max: max}
	cmd.Stderr = cmd.Stdout
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return killProcessGroup(cmd) }
	cmd.WaitDelay = time.Second
	return cmd, out
}

// buildRun is how a go command of a build ended.
type buildRun struct {
	err      error         // cmd.Wait's
	wall     time.Duration // how long it ran
	cpu      time.Duration // the CPU time of its process tree, as last read (or from its rusage)
	overCPU  bool          // stopped at its CPU limit (or, where CPU time cannot be read, at three times it)
	overWall bool          // stopped at the wall-clock backstop
}

// wallError is the tool's error for a build stopped at the wall-clock backstop: it had used less
// than its CPU limit, so the machine was too busy, or the toolchain hung; nothing of the program's.
func (r buildRun) wallError(lim Limits) error {
	return fmt.Errorf("go build did not finish within %s of wall-clock time, having used %s of CPU time (the limit is %s): the machine is too busy or the Go toolchain hangs",
		lim.BuildWall, r.cpu.Round(10*time.Millisecond), lim.BuildTime)
}

// buildPoll is how often a running build's CPU time is read.
const buildPoll = 100 * time.Millisecond

// stopKind is what a build's watcher decides at a reading.
type stopKind int

const (
	goOn stopKind = iota
	stopCPU
	stopWall
)

// goBuild runs the go command goBin with args in dir (a scratch folder's source copy), sandboxed
// (sandboxBuild), and judges it like a run: stopped once the CPU time of its whole process tree
// passes lim.BuildTime, and at lim.BuildWall of wall clock as a backstop (see superviseBuild). watch,
// when set, decides instead at each reading of the CPU time. The error is the tool's (no sandbox,
// ctx done); a failed or stopped build is in buildRun.
func goBuild(ctx context.Context, goBin, dir, scratch string, lim Limits, args []string, watch func(cpu time.Duration) stopKind, tee io.Writer) (buildRun, *bytes.Buffer, error) {
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd, out := goCommand(bctx, goBin, dir, buildEnv(goBin, scratch), 1<<20, args...)
	if tee != nil {
		cmd.Stdout = io.MultiWriter(cmd.Stdout, tee)
		cmd.Stderr = cmd.Stdout
	}
	sb, err := sandboxBuild(cmd, scratch, lim)
	if err != nil {
		return buildRun{}, out, err
	}
	defer sb.close()
	r := superviseBuild(cmd, sb, cancel, lim, watch, startedHook(ctx))
	if ctx.Err() != nil {
		return r, out, ctx.Err()
	}
	if msg := sb.setupError(); msg != "" {
		return r, out, fmt.Errorf("sandbox for go build: %s", msg)
	}
	return r, out, nil
}

// superviseBuild starts cmd and waits for it, reading the CPU time of its process tree (the go
// command and every compiler and linker it runs: treeCPU) every buildPoll. By default it stops the
// build (cancel) once that passes lim.BuildTime, or once lim.BuildWall of wall clock has passed,
// whichever comes first; where the CPU time cannot be read (canWatchBuildCPU), a wall clock of
// three times BuildTime stands in for the CPU limit. watch, when set, decides instead, at each
// reading. A busy machine, which keeps the build waiting for a CPU, costs it nothing but wall time.
func superviseBuild(cmd *exec.Cmd, sb *runSandbox, cancel context.CancelFunc, lim Limits, watch func(cpu time.Duration) stopKind, started func(pid int)) buildRun {
	var r buildRun
	wall := lim.BuildWall
	cpuByWall := !canWatchBuildCPU && 3*lim.BuildTime < wall
	if cpuByWall {
		wall = 3 * lim.BuildTime
	}
	if watch == nil {
		watch = func(cpu time.Duration) stopKind {
			if canWatchBuildCPU && cpu > lim.BuildTime {
				return stopCPU
			}
			return goOn
		}
	}
	start := time.Now()
	err := cmd.Start()
	sb.started()
	if err != nil {
		r.err = err
		return r
	}
	if started != nil {
		started(cmd.Process.Pid)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(buildPoll)
	defer tick.Stop()
	backstop := time.NewTimer(wall)
	defer backstop.Stop()
	stopped := false
	stop := func(k stopKind) {
		if stopped || k == goOn {
			return
		}
		stopped = true
		r.overCPU, r.overWall = k == stopCPU, k == stopWall
		cancel()
	}
	for r.err == nil {
		select {
		case err := <-done:
			r.wall = time.Since(start)
			if ps := cmd.ProcessState; ps != nil {
				// Every process of the tree was waited for by its parent: the go command's rusage
				// holds them all.
				r.cpu = max(r.cpu, ps.UserTime()+ps.SystemTime())
			}
			if err == nil && !stopped {
				return r
			}
			r.err = err
			if r.err == nil {
				r.err = errors.New("stopped")
			}
		case <-backstop.C:
			if cpu, ok := treeCPU(cmd.Process.Pid); ok {
				r.cpu = max(r.cpu, cpu)
			}
			if cpuByWall || (canWatchBuildCPU && r.cpu > lim.BuildTime) {
				stop(stopCPU)
			} else {
				stop(stopWall)
			}
		case <-tick.C:
			if stopped {
				continue
			}
			cpu, ok := treeCPU(cmd.Process.Pid)
			if ok {
				r.cpu = max(r.cpu, cpu)
			}
			stop(watch(r.cpu))
		}
	}
	return r
}

// startedKey carries a function told the PID of each go command a build starts (for tests, which
// pause it as a machine too busy to give it a CPU would).
type startedKey struct{}

func startedHook(ctx context.Context) func(pid int) {
	f, _ := ctx.Value(startedKey{}).(func(pid int))
	return f
}

// compileWatch reads a go build -x's output as it comes and calls seen once, at the first line
// that runs the compiler (see ranCompiler).
type compileWatch struct {
	seen  func()
	carry []byte
	done  bool
}

func (w *compileWatch) Write(b []byte) (int, error) {
	if w.done {
		return len(b), nil
	}
	w.carry = append(w.carry, b...)
	if i := bytes.LastIndexByte(w.carry, '\n'); i >= 0 {
		if ranCompiler(string(w.carry[:i+1])) {
			w.done = true
			w.seen()
		}
		w.carry = append(w.carry[:0], w.carry[i+1:]...)
	}
	return len(b), nil
}

// ranCompiler reports whether the output of a go build -x shows that it compiled a package (rather
// than finding every package in the build cache).
func ranCompiler(out string) bool {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if b := filepath.Base(f[0]); (b == "compile" || b == "compile.exe") && strings.Contains(line, " -o ") {
			return true
		}
	}
	return false
}

// findMain reports a *BuildFailure with NoProgram when src holds no non-test Go file of package main.
func findMain(src string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	var pkgs []string
	fset := token.NewFileSet()
	// Files a build constraint leaves out (//go:build ignore, _windows.go) take no part in the
	// build: a package main in one of them beside a library package is no program.
	ctxt := gobuild.Default
	ctxt.GOROOT, ctxt.CgoEnabled = goRoot(), false
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctxt.MatchFile(src, name); err == nil && !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(src, name), nil, parser.PackageClauseOnly)
		if err != nil {
			// Let the compiler report syntax errors with its own words.
			return nil
		}
		if f.Name.Name == "main" {
			return nil
		}
		pkgs = append(pkgs, f.Name.Name)
	}
	if len(pkgs) == 0 {
		return &BuildFailure{Verdict: NoProgram, Reason: "no_go_files", Log: "no .go files"}
	}
	return &BuildFailure{Verdict: NoProgram, Reason: "not_main", Log: "package " + pkgs[0] + ", not package main"}
}

// copySource copies a snapshot of the learner's folder src into dst (see snapshot).
func copySource(src, dst string) error {
	_, err := snapshot(src, dst)
	return err
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// buildEnv is the whole environment of go build: nothing of the user's but what the toolchain needs.
// It also turns Go telemetry off in the scratch configuration folder: in its default mode the go
// command starts a detached child that outlives the build and writes into that folder after it is
// removed (GOTELEMETRY in the environment does not change the mode).
func buildEnv(goBin, scratch string) []string {
	telemetry := filepath.Join(scratch, "config", "go", "telemetry")
	if os.MkdirAll(telemetry, 0o755) == nil {
		os.WriteFile(filepath.Join(telemetry, "mode"), []byte("off"), 0o644)
	}
	env := []string{
		"PATH=" + filepath.Dir(goBin),
		"HOME=" + filepath.Join(scratch, "home"),
		"GOCACHE=" + GoCache(),
		"GOPATH=" + filepath.Join(scratch, "gopath"),
		"GOMODCACHE=" + filepath.Join(scratch, "gopath", "pkg", "mod"),
		"XDG_CONFIG_HOME=" + filepath.Join(scratch, "config"),
		"TMPDIR=" + filepath.Join(scratch, "tmp"),
		"GOTMPDIR=" + filepath.Join(scratch, "tmp"),
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
		"GOSUMDB=off",
		"GOFLAGS=-mod=mod",
		"GOWORK=off",
		"GOENV=off",
		"CGO_ENABLED=0",
		"GOTELEMETRY=off",
		// The go command and the compiler collect garbage less often: a build of a class's programs
		// takes a tenth less CPU for no more peak memory (about 60 MB; BENCHMARKS.md).
		"GOGC=400",
	}
	return append(env, platformEnv()...)
}

// cleanBuildLog drops the scratch paths from compiler messages, so they read relative to the
// learner's folder, and the "# learner" package header go build prints. No other path of the
// machine reaches a report: one in GOROOT becomes $GOROOT/…, any other absolute path <outside>.
func cleanBuildLog(log, srcCopy string) string {
	log = strings.ReplaceAll(log, srcCopy+string(filepath.Separator), "")
	log = strings.ReplaceAll(log, srcCopy, ".")
	goroot := goRoot()
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(log, "\n"), "\n") {
		if strings.HasPrefix(l, "# ") {
			continue
		}
		l = absPath.ReplaceAllStringFunc(strings.TrimPrefix(l, "./"), func(m string) string {
			lead := m[:len(m)-len(strings.TrimLeft(m, " \t(\"'"))]
			path := m[len(lead):]
			if goroot != "" && strings.HasPrefix(path, goroot+string(filepath.Separator)) {
				return lead + "$GOROOT/" + filepath.ToSlash(path[len(goroot)+1:])
			}
			return lead + "<outside>"
		})
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// scratchSource matches the folder a learner's program was built in, as a stack trace names it: a
// build's scratch copy or a batch's package folder, under the system's temporary folder.
// The folder before it is any: an executable taken from the cache names the scratch folder of the
// build that made it, under another temporary folder than this process's.
var scratchSource = regexp.MustCompile(`(?:[A-Za-z]:)?[^\s"'()]*` + regexp.QuoteMeta(string(filepath.Separator)+"workbook-") +
	`(?:build|batch)-\d+-\d+` + regexp.QuoteMeta(string(filepath.Separator)) + `(?:src|mod` +
	regexp.QuoteMeta(string(filepath.Separator)) + `p\d{3,})` + regexp.QuoteMeta(string(filepath.Separator)))

// cleanTrace takes the scratch folder out of what a program printed on stderr (a panic's stack
// trace names its files by their paths when built), so that it reads relative to the learner's
// folder, and writes GOROOT as $GOROOT.
func cleanTrace(s string) string {
	if !strings.Contains(s, "workbook-") && !strings.Contains(s, goRoot()) {
		return s
	}
	s = scratchSource.ReplaceAllString(s, "")
	if r := goRoot(); r != "" {
		s = strings.ReplaceAll(s, r+string(filepath.Separator), "$GOROOT/")
	}
	return s
}

// absPath finds absolute paths in a compiler message: at the start of a line or after a space, a
// parenthesis or a quote; a Windows drive path too.
var absPath = regexp.MustCompile(`(^|[\s("'])(/|[A-Za-z]:\\)[^\s:"')]+`)

var (
	goToolOnce sync.Once
	goToolPath string
	goToolErr  error
	cacheOnce  sync.Once
	cacheDir   string
	verOnce    sync.Once
	verLine    string
)

// GoTool returns the path of the go command that builds learners' programs.
func GoTool() (string, error) {
	goToolOnce.Do(func() {
		if p, err := exec.LookPath("go"); err == nil {
			goToolPath, goToolErr = filepath.Abs(p)
			return
		}
		p := filepath.Join(runtime.GOROOT(), "bin", "go")
		if runtime.GOOS == "windows" {
			p += ".exe"
		}
		if _, err := os.Stat(p); err == nil {
			goToolPath = p
			return
		}
		goToolErr = errors.New("the go command was not found: install Go 1.26 or newer and put it on PATH")
	})
	return goToolPath, goToolErr
}

// GoCache returns the build cache shared by every build: $GOCACHE, else the user's own cache as
// `go env GOCACHE` reports it, else a folder under the system's temporary directory.
func GoCache() string {
	cacheOnce.Do(func() {
		cacheDir = os.Getenv("GOCACHE")
		if cacheDir == "" || cacheDir == "off" {
			cacheDir = toolEnv().cache
		}
		if cacheDir == "" || cacheDir == "off" {
			cacheDir = filepath.Join(os.TempDir(), "workbook-gocache")
		}
	})
	return cacheDir
}

var (
	toolEnvOnce sync.Once
	theToolEnv  struct{ version, root, cache string }
)

// toolEnv is what `go env GOVERSION GOROOT GOCACHE` says of the go command that builds learners'
// programs, asked once (an empty field when it could not say).
func toolEnv() struct{ version, root, cache string } {
	toolEnvOnce.Do(func() {
		goBin, err := GoTool()
		if err != nil {
			return
		}
		out, err := exec.Command(goBin, "env", "GOVERSION", "GOROOT", "GOCACHE").Output()
		if err != nil {
			return
		}
		lines := strings.Split(strings.TrimRight(string(out), "\r\n"), "\n")
		for len(lines) < 3 {
			lines = append(lines, "")
		}
		theToolEnv.version = strings.TrimSpace(lines[0])
		theToolEnv.root = strings.TrimSpace(lines[1])
		theToolEnv.cache = strings.TrimSpace(lines[2])
	})
	return theToolEnv
}

// goToolchainVersion is the full version of the go command that builds learners' programs
// ("go1.26.8"), as `go env GOVERSION` says it.
func goToolchainVersion() string {
	if v := toolEnv().version; v != "" {
		return v
	}
	return runtime.Version()
}

// GoVersion returns the language version ("1.26") of the Go toolchain that builds learners'
// programs: what a generated go.mod names in its go directive.
func GoVersion() string {
	verOnce.Do(func() { verLine = goVersionLine() })
	return verLine
}

// goVersionLine is the go directive written into a generated go.mod: the language version of the
// toolchain that builds it, so that nothing is downloaded and every feature of that Go is there.
func goVersionLine() string {
	v := strings.TrimPrefix(goToolchainVersion(), "go")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) >= 2 {
		return parts[0] + "." + strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' })
	}
	return "1.26"
}
