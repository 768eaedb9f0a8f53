package checker

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// BuildMany builds several learners' programs, as Build would build each of them, but with as few
// go commands and links as it can: the programs that need nothing but the standard library are
// copied side by side into one scratch module and built by one go command, which shares its
// start-up, module loading and scheduling among them. Those whose package initialisation provably
// does nothing but set up inert data (fitOneExe) are linked into one executable, one package each
// behind a dispatcher, each run as a separate build would run (batch_exe.go); the others get an
// executable each from the same go command (`go build -o DIR/ . ./p001 …`). A program with its own
// go.mod that asks for more than a module line and this toolchain's go version (requirements,
// replacements, another toolchain, an older language version), or that imports anything outside
// the standard library, is built alone with Build; so is every program the batch failed to
// produce, so that a program that does not compile gets exactly the verdict and compiler messages
// Build would give it.
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
	if len(batch) > 1 {
		missing := buildBatch(ctx, staged, batch, lim, progs)
		// A second batch without the programs the first one blamed: a package that fails to load
		// stops the whole go command, so innocent programs may be missing too.
		if len(missing) > 1 && len(missing) < len(batch) {
			buildBatch(ctx, staged, missing, lim, progs)
		}
	}
	for i := range srcs {
		if progs[i] != nil {
			progs[i].Skipped = skipped[i]
			continue
		}
		if errs[i] != nil {
			continue
		}
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		progs[i], errs[i] = build(ctx, staged[i], skipped[i], lim)
	}
	return progs, errs
}

// testSeparate is set by tests that compare programs built into one executable with the same
// programs built each into its own.
var testSeparate bool

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
			// A syntax error: the batch reports it as well as a build of its own would, and the
			// program is then rebuilt alone for its exact messages.
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
	if strings.Contains(first, ".") {
		return false
	}
	fi, err := os.Stat(filepath.Join(stdRoot, filepath.FromSlash(path)))
	return err == nil && fi.IsDir()
}

// buildBatch builds the programs srcs[i] for i in idx with one go command and stores each program it
// produced in progs. It returns the indices it did not produce and did not blame on the program
// itself (candidates for another batch).
func buildBatch(ctx context.Context, srcs []string, idx []int, lim Limits, progs []*Program) []int {
	goBin, err := GoTool()
	if err != nil {
		return nil
	}
	scratch, err := TempDir("batch")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(scratch)
	mod := filepath.Join(scratch, "mod")
	outDir := filepath.Join(scratch, "bin")
	for _, d := range []string{mod, outDir, filepath.Join(scratch, "home"), filepath.Join(scratch, "tmp"), filepath.Join(scratch, "gopath"), filepath.Join(scratch, "config")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil
		}
	}
	verOnce.Do(func() { verLine = goVersionLine() })
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module learners\n\ngo "+verLine+"\n"), 0o644); err != nil {
		return nil
	}
	// Without the symbol table and DWARF (which no learner's run uses: panics still name functions,
	// files and lines) the linker, the bulk of building a small program, does a third less work.
	args := []string{"build", "-ldflags=-s -w", "-o", outDir + string(filepath.Separator)}
	pkgOf := map[string]int{}
	var copied []int
	// The programs that fit one executable are linked into one (batch_exe.go); the others, and all
	// when fewer than two fit, are linked each into its own by the same go command.
	var members []oneExeMember
	fits := map[int]fit{}
	usesFlag := false
	for _, i := range idx {
		if f, why := fitOneExe(srcs[i]); why == "" {
			fits[i] = f
		}
	}
	if len(fits) < 2 || testSeparate {
		clear(fits)
	}
	for _, i := range idx {
		pkg := fmt.Sprintf("p%03d", i)
		dst := filepath.Join(mod, pkg)
		if f, ok := fits[i]; ok {
			m := oneExeMember{idx: i, pkg: pkg}
			if err := addOneExe(srcs[i], dst, f, &m); err != nil {
				os.RemoveAll(dst)
				continue // Build alone will say what is wrong.
			}
			usesFlag = usesFlag || f.usesFlag
			members = append(members, m)
			pkgOf[pkg] = i
			copied = append(copied, i)
			continue
		}
		if err := copySource(srcs[i], dst); err != nil {
			continue // Build alone will say what is wrong.
		}
		os.Remove(filepath.Join(dst, "go.mod"))
		os.Remove(filepath.Join(dst, "go.sum"))
		pkgOf[pkg] = i
		copied = append(copied, i)
		args = append(args, "./"+pkg)
	}
	if len(members) > 0 {
		if err := os.WriteFile(filepath.Join(mod, dispatchFile), dispatcher(members, usesFlag), 0o644); err != nil {
			return nil
		}
		args = append(args, ".")
	}
	if len(copied) == 0 {
		return nil
	}
	bctx, cancel := context.WithTimeout(ctx, lim.BuildTime)
	defer cancel()
	env := buildEnv(goBin, scratch)
	if n := runtime.GOMAXPROCS(0); len(copied) >= n {
		// Enough programs to keep every core busy with one compiler or linker each: single-threaded
		// tools, one per core, do the same work with less CPU than several threads each competing
		// for the cores (BENCHMARKS.md).
		args = append(args[:1], append([]string{"-p=" + strconv.Itoa(n)}, args[1:]...)...)
		env = append(env, "GOMAXPROCS=1")
	}
	cmd, out := goCommand(bctx, goBin, mod, env, 4<<20, args...)
	sb, err := sandboxBuild(cmd, scratch, lim)
	if err != nil {
		return nil // each is built alone, which reports the error
	}
	defer sb.close()
	start := time.Now()
	runErr := cmd.Start()
	sb.started()
	if runErr == nil {
		runErr = cmd.Wait()
	}
	elapsed := time.Since(start)
	if sb.setupError() != "" {
		return nil
	}
	if ctx.Err() != nil {
		return nil
	}
	blamed := map[int]bool{}
	if runErr != nil {
		for _, m := range blamePattern.FindAllStringSubmatch(out.String(), -1) {
			if i, ok := pkgOf[m[1]]; ok {
				blamed[i] = true
			}
		}
	}
	share := elapsed / time.Duration(len(copied))
	var missing []int
	oneExe := filepath.Join(outDir, oneExeCommand)
	if runtime.GOOS == "windows" {
		oneExe += ".exe"
	}
	if _, err := os.Stat(oneExe); err == nil {
		// The executable holds every member's code: where runs have a user of their own, none
		// may read it, only run it (see oneExeMode).
		os.Chmod(oneExe, oneExeMode)
		var kept []oneExeKept
		for _, m := range members {
			p, err := adoptMember(oneExe, m.token, lim)
			if err != nil {
				continue
			}
			p.BuildTime = share
			progs[m.idx] = p
			if key, err := exeKey(srcs[m.idx]); err == nil {
				kept = append(kept, oneExeKept{key: key, token: m.token})
			}
		}
		keepOneExe(oneExe, kept)
	} else {
		for _, m := range members {
			if !blamed[m.idx] {
				missing = append(missing, m.idx)
			}
		}
	}
	for _, i := range copied {
		if _, ok := fits[i]; ok {
			continue
		}
		pkg := fmt.Sprintf("p%03d", i)
		exe := filepath.Join(outDir, pkg)
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		if _, err := os.Stat(exe); err != nil {
			if !blamed[i] {
				missing = append(missing, i)
			}
			continue
		}
		if key, err := exeKey(srcs[i]); err == nil {
			keepExe(key, exe)
		}
		p, err := adopt(exe, lim)
		if err != nil {
			continue
		}
		p.BuildTime = share
		progs[i] = p
	}
	return missing
}

// cachedProgram sets *prog to a program whose executable for the sources in staged (a snapshot) is
// in the cache of executables, and reports whether there was one.
func cachedProgram(staged string, lim Limits, prog **Program) bool {
	if checkGoMod(staged) != nil {
		return false
	}
	key, err := exeKey(staged)
	if err != nil || !inExeCache(key) {
		return false
	}
	p, exe, err := newProgram(lim)
	if err != nil {
		return false
	}
	switch {
	case cachedExe(key, exe):
		p.Path = exe
	default:
		token, ok := cachedOneExe(key, exe)
		if !ok || os.Mkdir(filepath.Join(filepath.Dir(exe), token), 0o755) != nil {
			p.Close()
			return false
		}
		p.Path = selectorPath(exe, token)
	}
	p.Cached = true
	*prog = p
	return true
}

// blamePattern finds the package a message of the batch's go command is about: "# learners/p003"
// headers and "p003/main.go:…" positions.
var blamePattern = regexp.MustCompile(`(?m)(?:^# learners/|^|[\s/])(p\d{3,})(?:/|$)`)

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
