package checker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	gobuild "go/build"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	pathpkg "path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// BuildMany builds several learners' programs, as Build would build each of them, with as few go
// commands as it can, and always one executable per program: the programs that need nothing but
// the standard library are copied side by side into one scratch module, one package each, and
// built by one go command (`go build -json -o DIR/ ./p000 ./p001 …`), which shares its start-up,
// module loading, the compile cache and the scheduling of parallel links among them, and links
// each package into an executable of its own. No two programs ever share an executable, a process
// or a cached artefact. A program with its own go.mod that asks for more than a module line and
// this toolchain's go version, or that imports anything outside the standard library, is built
// alone with Build.
//
// What failed is read from the go command's structured events (-json: build-output and build-fail,
// each with the package's import path), never from the text of compiler messages, which a program
// controls: a program that failed is built again alone, for exactly the verdict and messages Build
// gives it; one the batch did not produce and that no event blames (a package that fails to load
// stops the whole go command) goes into a second batch. The standard library the programs import is
// compiled first, as the course's own code (warmStd). The batch is stopped once its go command has
// used half a build limit (Limits.BuildTime) of CPU time per CPU without a new executable; every
// program it did not produce is
// then built alone, as many at once as there are CPUs, each with the other half of its limit, so a
// program that takes long to compile (a compile-time bomb) costs its author alone and the class
// waits about one build limit for it, while a busy machine, on which the executables keep coming,
// only slowly, never stops the batch. Each executable is checked before use (checkExe): one whose static data could never fit
// in a run's memory is a build error (static_data).
//
// The results are index-aligned with srcs: for each program either a *Program (Close it) or an error,
// a *BuildFailure when the program itself is at fault. BuildTime of a program built in a batch is its
// share of the batch's wall time.
func BuildMany(ctx context.Context, srcs []string, lim Limits) ([]*Program, []error) {
	if lim.Virtual {
		return buildEach(ctx, srcs, lim)
	}
	lim = lim.withDefaults()
	progs := make([]*Program, len(srcs))
	errs := make([]error, len(srcs))
	// Every program is first read safely into a staging copy (see snapshot); nothing after that
	// touches the learner's folder.
	stage, err := TempDir("stage")
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		return progs, errs
	}
	defer os.RemoveAll(stage)
	staged := make([]string, len(srcs))
	skipped := make([][]string, len(srcs))
	var batch []int
	for i, src := range srcs {
		if info, err := os.Stat(src); err != nil {
			errs[i] = err
			continue
		} else if !info.IsDir() {
			errs[i] = fmt.Errorf("%s is not a folder", src)
			continue
		}
		staged[i] = filepath.Join(stage, strconv.Itoa(i))
		if skipped[i], errs[i] = snapshot(src, staged[i]); errs[i] != nil {
			continue
		}
		ok, err := batchable(staged[i])
		if err == nil && cachedProgram(staged[i], lim, &progs[i]) {
			continue
		}
		switch {
		case err != nil:
			if bf := (*BuildFailure)(nil); errors.As(err, &bf) {
				bf.Skipped = skipped[i]
			}
			errs[i] = err
		case ok:
			batch = append(batch, i)
		}
	}
	timedOut := false
	if len(batch) > 0 && !lim.Trusted {
		// The standard library the class imports is compiled first, as the course's own code, with
		// one go command for all (see warmStd): a cold build cache is never a program's cost.
		var ins []string
		for _, i := range batch {
			ins = append(ins, staged[i])
		}
		warmStd(ctx, ins, lim, false)
	}
	if len(batch) > 1 {
		var missing []int
		missing, timedOut = buildBatch(ctx, staged, batch, lim, progs, errs)
		// A second batch without the programs the first one blamed: a package that fails to load
		// stops the whole go command, so innocent programs may be missing too.
		if !timedOut && len(missing) > 1 && len(missing) < len(batch) {
			_, timedOut = buildBatch(ctx, staged, missing, lim, progs, errs)
		}
	}
	// Whatever is left is built alone, a few at once (as many as there are CPUs: more would only
	// slow each down, and a build is judged by its time). After a batch that stopped making progress,
	// each gets the other half of its limit: the slow one has had the first half in the batch.
	alone := lim
	if timedOut {
		alone.BuildTime = lim.BuildTime / 2
	}
	sem := make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i := range srcs {
		if progs[i] != nil {
			progs[i].Skipped = skipped[i]
			continue
		}
		if errs[i] != nil {
			if bf := (*BuildFailure)(nil); !errors.As(errs[i], &bf) || !bf.again {
				continue
			}
			errs[i] = nil
		}
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			progs[i], errs[i] = build(ctx, staged[i], skipped[i], alone, nil)
		}()
	}
	wg.Wait()
	return progs, errs
}

// batchable reports whether the program in src can be built in a shared module: it is a package
// main, its go.mod (if any) holds only a module line and the go version of this toolchain, and it
// imports only the standard library. A folder with no package main gives the *BuildFailure Build
// would give.
func batchable(src string) (bool, error) {
	if err := findMain(src); err != nil {
		return false, err
	}
	if data, err := os.ReadFile(filepath.Join(src, "go.mod")); err == nil {
		// Its go version must be the toolchain's, the shared module's: the defaults of GODEBUG
		// (the timers' channels before Go 1.23, for one) come from the main module's version.
		if !plainGoMod(string(data)) || !sameGoVersion(string(data)) {
			return false, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return false, err
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, ".") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(src, name), nil, parser.ImportsOnly)
		if err != nil {
			// A syntax error: the batch blames it, and the program is then rebuilt alone for its
			// exact messages.
			continue
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil || !isStd(p) {
				return false, nil
			}
		}
	}
	return true, nil
}

// plainGoMod reports whether a go.mod says nothing a shared module would lose: a module line and a
// go version from 1.22 (loop variables per iteration, as in the shared module) up to this
// toolchain's.
func plainGoMod(text string) bool {
	toolMinor, _ := strconv.Atoi(strings.TrimPrefix(GoVersion(), "1."))
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "", goModModule.MatchString(line):
		case goModGo.MatchString(line):
			minor, _ := strconv.Atoi(goModGo.FindStringSubmatch(line)[1])
			if minor < 22 || minor > toolMinor {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// sameGoVersion reports whether a go.mod's go directive names the toolchain's language version.
func sameGoVersion(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		if m := goModGo.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			return "1."+m[1] == GoVersion()
		}
	}
	return false
}

// goRoot is the GOROOT of the go command that builds learners' programs.
func goRoot() string {
	if r := toolEnv().root; r != "" {
		return r
	}
	return runtime.GOROOT()
}

// isStd reports whether an import path names a package of the standard library of the go command
// that builds learners' programs.
func isStd(path string) bool {
	stdRoot := filepath.Join(goRoot(), "src")
	if path == "C" || path == "" || strings.HasPrefix(path, "cmd/") || strings.Contains(path, "internal") || strings.Contains(path, "vendor") {
		return false
	}
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") || pathpkg.Clean(path) != path || strings.Contains("/"+path+"/", "/testdata/") {
		return false
	}
	// The folder must hold a package the go command can load here: one that does not, such as a
	// folder without Go files ("database") or one whose files are all for another system
	// ("syscall/js"), fails the whole batch's go command, blamed on the imported path, not on the
	// learner who imported it.
	if ok, seen := stdImportable.Load(path); seen {
		return ok.(bool)
	}
	ctxt := gobuild.Default
	ctxt.GOROOT, ctxt.CgoEnabled = goRoot(), false
	pkg, err := ctxt.ImportDir(filepath.Join(stdRoot, filepath.FromSlash(path)), 0)
	ok := err == nil && !pkg.IsCommand()
	stdImportable.Store(path, ok)
	return ok
}

// stdImportable remembers isStd's answers from go/build.
var stdImportable sync.Map

// batchModule is the module path of a batch's scratch module; its packages are batchModule/pNNN.
const batchModule = "learners"

// buildEvent is one event of `go build -json` (Go 1.24 on): what the go command says about a
// package, with its import path.
type buildEvent struct {
	ImportPath string
	Action     string // build-output, build-fail
	Output     string
}

// buildEvents reads the go command's -json events as they come and notes the packages they say
// failed. Only well-formed events count; their Output, the compiler's words, is never read for
// blame.
type buildEvents struct {
	mu     sync.Mutex
	failed map[string]bool
	w      *io.PipeWriter
	done   chan struct{}
}

func newBuildEvents() *buildEvents {
	r, w := io.Pipe()
	e := &buildEvents{failed: map[string]bool{}, w: w, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 || line[0] != '{' {
				continue
			}
			var ev buildEvent
			if json.Unmarshal(line, &ev) != nil {
				continue
			}
			if ev.Action == "build-fail" {
				e.mu.Lock()
				e.failed[ev.ImportPath] = true
				e.mu.Unlock()
			}
		}
		io.Copy(io.Discard, r)
	}()
	return e
}

func (e *buildEvents) Write(b []byte) (int, error) { return e.w.Write(b) }

// close ends the stream and waits until every event is read.
func (e *buildEvents) close() map[string]bool {
	e.w.Close()
	<-e.done
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.failed
}

// buildBatch builds the programs srcs[i] for i in idx with one go command, each into an executable
// of its own, and stores each program it produced in progs. The go command is stopped once it has
// used half of lim.BuildTime of CPU time per CPU without a new executable (see the watch below): a
// program that takes that long to compile holds no one else, and a busy machine, on which the
// class's executables keep coming, only slowly, never stops the batch. A program the go command's events blame gets a
// *BuildFailure in errs with again set (it is built alone, for its own messages). It returns the
// programs it neither produced nor blamed, and whether the go command was stopped.
func buildBatch(ctx context.Context, srcs []string, idx []int, lim Limits, progs []*Program, errs []error) (missing []int, timedOut bool) {
	goBin, err := GoTool()
	if err != nil {
		return idx, false
	}
	scratch, err := TempDir("batch")
	if err != nil {
		return idx, false
	}
	defer os.RemoveAll(scratch)
	mod := filepath.Join(scratch, "mod")
	outDir := filepath.Join(scratch, "bin")
	for _, d := range []string{mod, outDir, filepath.Join(scratch, "home"), filepath.Join(scratch, "tmp"), filepath.Join(scratch, "gopath"), filepath.Join(scratch, "config")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return idx, false
		}
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module "+batchModule+"\n\ngo "+GoVersion()+"\n"), 0o644); err != nil {
		return idx, false
	}
	// Without the symbol table and DWARF (which no learner's run uses: panics still name functions,
	// files and lines) the linker, the bulk of building a small program, does a third less work.
	args := []string{"build", "-json", "-ldflags=-s -w", "-o", outDir + string(filepath.Separator)}
	var copied []int
	for _, i := range idx {
		pkg := fmt.Sprintf("p%03d", i)
		dst := filepath.Join(mod, pkg)
		if err := copySource(srcs[i], dst); err != nil {
			missing = append(missing, i) // Build alone will say what is wrong.
			continue
		}
		os.Remove(filepath.Join(dst, "go.mod"))
		os.Remove(filepath.Join(dst, "go.sum"))
		copied = append(copied, i)
		args = append(args, "./"+pkg)
	}
	if len(copied) == 0 {
		return missing, false
	}
	env := buildEnv(goBin, scratch)
	n := runtime.GOMAXPROCS(0)
	if len(copied) >= n {
		// Enough programs to keep every core busy with one compiler or linker each: single-threaded
		// tools, one per core, do the same work with less CPU than several threads each competing
		// for the cores (BENCHMARKS.md).
		args = append(args[:1], append([]string{"-p=" + strconv.Itoa(n)}, args[1:]...)...)
		env = append(env, "GOMAXPROCS=1")
	}
	// The batch is stopped once its go command has used half a build limit of CPU time per tool it
	// runs at once (one per CPU) without a new executable in its output folder: the compilers and
	// linkers of the class keep the CPUs busy, a program whose compiler works on alone (a
	// compile-time bomb) has had half its limit. A busy machine, which only slows the batch, never
	// stops it; a batch that makes no progress for half the wall-clock backstop is stopped too, and
	// its programs are built alone under their whole limits, since then the machine is at fault.
	window := lim.BuildTime / 2 * time.Duration(n)
	seen, lastCPU, last := 0, time.Duration(0), time.Now()
	stalled := false
	watch := func(cpu time.Duration) stopKind {
		if entries, err := os.ReadDir(outDir); err == nil && len(entries) > seen {
			seen, lastCPU, last = len(entries), cpu, time.Now()
		}
		switch {
		case canWatchBuildCPU && cpu-lastCPU >= window, !canWatchBuildCPU && time.Since(last) >= lim.BuildTime/2:
			stalled = true
			return stopCPU
		case time.Since(last) >= lim.BuildWall/2:
			return stopWall
		}
		return goOn
	}
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd, _ := goCommand(bctx, goBin, mod, env, 1<<20, args...)
	events := newBuildEvents()
	cmd.Stdout = events
	sb, err := sandboxBuild(cmd, scratch, lim)
	if err != nil {
		events.close()
		return append(missing, copied...), false // each is built alone, which reports the error
	}
	defer sb.close()
	nolimit := lim
	nolimit.BuildTime, nolimit.BuildWall = trustedBuild, trustedBuild // the watch stops it
	r := superviseBuild(cmd, sb, cancel, nolimit, watch, startedHook(ctx))
	elapsed := r.wall
	failed := events.close()
	if sb.setupError() != "" || ctx.Err() != nil {
		return append(missing, copied...), false
	}
	if r.overWall {
		// The machine made no progress at all: no one is blamed, everyone is built alone.
		return append(missing, copied...), false
	}
	timedOut = stalled
	share := elapsed / time.Duration(len(copied))
	for _, i := range copied {
		pkg := fmt.Sprintf("p%03d", i)
		exe := filepath.Join(outDir, pkg)
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		if _, err := os.Stat(exe); err != nil {
			if failed[batchModule+"/"+pkg] && !timedOut {
				// Blamed by the go command itself: built again alone, for the messages and the
				// reason Build gives.
				errs[i] = &BuildFailure{Verdict: BuildError, again: true}
			} else {
				missing = append(missing, i)
			}
			continue
		}
		if err := checkExe(exe, lim); err != nil {
			errs[i] = err
			continue
		}
		p, err := adopt(exe, lim)
		if err != nil {
			missing = append(missing, i)
			continue
		}
		p.key, _ = exeKey(srcs[i])
		p.BuildTime, p.batched = share, true
		progs[i] = p
	}
	return missing, timedOut
}

// cachedProgram sets *prog to a program whose executable for the sources in staged (a snapshot) is
// in the cache of executables, and reports whether there was one. A cached executable was built from
// exactly those sources, alone in its executable.
func cachedProgram(staged string, lim Limits, prog **Program) bool {
	if checkGoMod(staged) != nil {
		return false
	}
	key, err := exeKey(staged)
	if err != nil {
		return false
	}
	p, exe, err := newProgram(lim)
	if err != nil {
		return false
	}
	// Cached under another run's limits: with a smaller memory limit now it may be refused, which
	// its own build (alone or in the batch) then says.
	if !cachedExe(key, exe) || checkExe(exe, lim) != nil {
		p.Close()
		return false
	}
	p.Path, p.Cached, p.key = exe, true, key
	*prog = p
	return true
}

// adopt gives a program built in a batch a scratch folder of its own, laid out as Build lays one out,
// and moves the executable there.
func adopt(exe string, lim Limits) (*Program, error) {
	p, dst, err := newProgram(lim)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(exe, dst); err != nil {
		if err := copyFile(exe, dst); err != nil {
			p.Close()
			return nil, err
		}
		if err := os.Chmod(dst, 0o755); err != nil {
			p.Close()
			return nil, err
		}
	}
	p.Path = dst
	return p, nil
}
