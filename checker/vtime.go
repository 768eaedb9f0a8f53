package checker

import (
	"bufio"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Virtual time (Limits.Virtual).
//
// A program of a virtual-time exercise is an ordinary package main with real time.Sleep, timers,
// tickers, contexts with deadlines, goroutines and channels. The checker builds it with a harness of
// its own beside it, a file vtimeHarness (a _test.go file no learner's file can be: the snapshot
// leaves every _test.go of the learner's folder out), with `go test -c` instead of `go build`, so
// the executable is a test binary whose one test runs the program's main inside a testing/synctest
// bubble: its clock starts at 2000-01-01 00:00 UTC and moves only when every goroutine of the program
// is durably blocked, so that two minutes of backoff cost a millisecond and print exact times.
//
// The harness keeps the contract of a plain build: the program gets the case's arguments as os.Args
// and a fresh flag.CommandLine, and its stdout is the real stdout; the testing package's own lines
// go to the null device. os.Exit keeps its code; a panic is a crash. When main returns, the program's
// stdout goes to the null device too (a real process would be gone) and the bubble is given one more
// virtual second to finish what it started; a goroutine still there after it is a leak, which the
// harness reports on stderr after the line vtimeLeakMark, with the stacks of the goroutines left, and
// exit code vtimeLeakCode. synctest reports a deadlock (every goroutine blocked, no timer to wait for)
// itself, with their stacks. The checker turns both into Status Crash with Message ReasonDeadlock or
// ReasonLeak and CaseResult.Blocked, the first goroutine left blocked in the learner's own code:
// which goroutine, waiting on what, in which function at which line.
//
// A run that waits on what the bubble cannot see (a real socket, a pipe to another process, a
// system call) lets no virtual time pass; it ends at the idle limit (Limits.IdleTime) with Reason
// ReasonNotDurable. Imports that could only lead there (os/exec, os/signal, syscall, unsafe, plugin,
// net/rpc, golang.org/x/sys/...) are refused before anything is built: BuildFailure Reason
// vtime_import, naming the file, line and import.
//
// Such a program may also import FlakyImport, the course's flaky HTTP service (package
// checker/flaky, standard library only): the build gives it as a module of its own, a copy of
// that package's source (and nothing else of the course) beside the learner's files, required and
// replaced in the scratch copy's go.mod only. The learner's go.mod may still name only its module
// and go version.

//go:embed flaky/flaky.go
var flakySource []byte

//go:embed scenario/*.go
var scenarioFS embed.FS

// scenarioFiles are the harness of scenario exercises (package checker/scenario), its tests left
// out, by name in name order: what a scenario program is built with.
var scenarioFiles = readScenario()

// readScenario reads scenarioFiles.
func readScenario() []SourceFile {
	entries, err := scenarioFS.ReadDir("scenario")
	if err != nil {
		panic(err) // embedded at build time: cannot fail
	}
	var files []SourceFile
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := scenarioFS.ReadFile("scenario/" + e.Name())
		if err != nil {
			panic(err)
		}
		files = append(files, SourceFile{Name: e.Name(), Data: data})
	}
	return files
}

const (
	// vtimeHarness is the harness's file in the scratch copy.
	vtimeHarness = "zz_workbook_vtime_test.go"
	// vtimeWorld is the folder of the course's module, holding only the flaky service, in the
	// scratch copy.
	vtimeWorld = "_workbook_world"
	// vtimeLeakMark opens what the harness prints on stderr when goroutines outlive main.
	vtimeLeakMark = "workbook: goroutines left blocked after main returned"
	// vtimeLeakCode is the harness's exit code for a leak.
	vtimeLeakCode = 86
	// FlakyImport is the import path of the course's flaky service in a virtual-time program.
	FlakyImport = "github.com/workbook-course/workbook/checker/flaky"
	// ScenarioImport is the import path of the harness of scenario exercises (package
	// checker/scenario) in a virtual-time program.
	ScenarioImport = "github.com/workbook-course/workbook/checker/scenario"
	// courseModule is the module that holds FlakyImport and ScenarioImport.
	courseModule = "github.com/workbook-course/workbook"
)

// Reasons of virtual-time runs (CaseResult.Message).
const (
	ReasonDeadlock   = "vtime_deadlock"    // every goroutine of the bubble blocked, no timer to wait for
	ReasonLeak       = "vtime_leak"        // main returned, goroutines were left blocked
	ReasonNotDurable = "vtime_not_durable" // the run waited on something outside the bubble until its wall limit
)

// Blocked is a goroutine left blocked in a virtual-time run: its number in the stack dump, what it
// waited on ("chan send", "select", "sleep", …), and the innermost frame of the learner's own code.
type Blocked struct {
	Kind      string `json:"kind"` // ReasonDeadlock or ReasonLeak
	Goroutine int    `json:"goroutine"`
	Wait      string `json:"wait"`
	Func      string `json:"func,omitempty"` // e.g. main.fetch.func1
	File      string `json:"file,omitempty"` // relative to the learner's folder, e.g. main.go
	Line      int    `json:"line,omitempty"`
	Others    int    `json:"others"` // how many more goroutines were left blocked
}

// refusedInVirtual are the imports a virtual-time program may not use, with why.
var refusedInVirtual = map[string]string{
	"os/exec":   "another process runs outside the bubble",
	"os/signal": "signals come from outside the bubble",
	"syscall":   "a system call can block outside the bubble",
	"unsafe":    "it can break the runtime's bookkeeping of the bubble",
	"plugin":    "code loaded at run time is outside the build",
	"net/rpc":   "it needs a real network",
}

// allowedInScenario are the imports of a scenario program (one that imports ScenarioImport): the
// harness alone writes its stdout, which the checker reads the figures from, so the learner's code
// may not reach a file, the process or the runtime's memory.
var allowedInScenario = map[string]bool{
	"context": true, "errors": true, "math": true, "math/rand/v2": true, "sync": true,
	"sync/atomic": true, "time": true, ScenarioImport: true,
}

// checkVirtualImports returns a BuildFailure (Reason vtime_import) when a Go file of src imports a
// package a virtual-time program may not use, and (Reason scenario_import) when a scenario
// program imports one beyond allowedInScenario or draws from math/rand/v2's shared generator.
func checkVirtualImports(src string) error {
	files, _ := filepath.Glob(filepath.Join(src, "*.go"))
	fset := token.NewFileSet()
	var parsed []*ast.File
	scenario := false
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil // the compiler reports it in its own words
		}
		parsed = append(parsed, af)
		for _, imp := range af.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == ScenarioImport {
				scenario = true
			}
		}
	}
	if scenario {
		return checkScenarioFiles(fset, parsed)
	}
	for _, af := range parsed {
		f := fset.Position(af.Pos()).Filename
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			why, bad := refusedInVirtual[path]
			if !bad && strings.HasPrefix(path, "golang.org/x/sys") {
				why, bad = "a system call can block outside the bubble", true
			}
			if bad {
				pos := fset.Position(imp.Pos())
				return &BuildFailure{Verdict: BuildError, Reason: "vtime_import",
					Log: fmt.Sprintf("%s:%d: import %q: not allowed in virtual time: %s", filepath.Base(f), pos.Line, path, why)}
			}
		}
	}
	return nil
}

// sharedRand are the functions of math/rand/v2 that draw from the process's shared generator,
// seeded afresh in every run: a scenario's figures would change from run to run.
var sharedRand = map[string]bool{
	"ExpFloat64": true, "Float32": true, "Float64": true, "Int": true, "Int32": true, "Int32N": true,
	"Int64": true, "Int64N": true, "IntN": true, "N": true, "NormFloat64": true, "Perm": true,
	"Shuffle": true, "Uint": true, "Uint32": true, "Uint32N": true, "Uint64": true, "Uint64N": true,
	"UintN": true,
}

// checkScenarioFiles refuses, in the files of a scenario program, an import beyond
// allowedInScenario (the harness alone must write stdout, which the checker reads the figures
// from) and a draw from math/rand/v2's shared generator (the same seed must give the same figures):
// a BuildFailure with Reason scenario_import naming the file and line.
func checkScenarioFiles(fset *token.FileSet, files []*ast.File) error {
	refuse := func(pos token.Pos, what string) error {
		p := fset.Position(pos)
		return &BuildFailure{Verdict: BuildError, Reason: "scenario_import",
			Log: fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, what)}
	}
	for _, af := range files {
		randName := ""
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowedInScenario[path] {
				return refuse(imp.Pos(), fmt.Sprintf("import %q: a scenario program may import only context, errors, math, math/rand/v2, sync, sync/atomic, time and the scenario package", path))
			}
			if path == "math/rand/v2" {
				randName = "rand"
				if imp.Name != nil {
					randName = imp.Name.Name
				}
			}
		}
		if randName == "" || randName == "_" {
			continue
		}
		var bad error
		ast.Inspect(af, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || bad != nil {
				return bad == nil
			}
			if id, ok := sel.X.(*ast.Ident); ok && (id.Name == randName || randName == ".") && sharedRand[sel.Sel.Name] {
				bad = refuse(sel.Pos(), fmt.Sprintf("rand.%s draws from the process's shared generator: draw from the client's own *rand.Rand, so that the same seed gives the same figures", sel.Sel.Name))
			}
			return bad == nil
		})
		if bad != nil {
			return bad
		}
		if randName == "." {
			return refuse(af.Pos(), `import . "math/rand/v2": name the package, so that its shared generator is not used`)
		}
	}
	return nil
}

// addVirtual prepares the scratch copy srcCopy of a virtual-time program: it refuses what the bubble
// cannot hold, writes the harness and the course's module with the flaky service alone, and a go.mod
// (the learner's, checked already, or a new one) that requires and replaces that module.
func addVirtual(srcCopy string) error {
	if err := checkVirtualImports(srcCopy); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(srcCopy, vtimeHarness), []byte(harnessSource), 0o644); err != nil {
		return err
	}
	world := filepath.Join(srcCopy, vtimeWorld)
	if err := os.RemoveAll(world); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(world, "checker", "flaky"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(world, "go.mod"), []byte("module "+courseModule+"\n\ngo "+GoVersion()+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(world, "checker", "flaky", "flaky.go"), flakySource, 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(world, "checker", "scenario"), 0o755); err != nil {
		return err
	}
	for _, f := range scenarioFiles {
		if err := os.WriteFile(filepath.Join(world, "checker", "scenario", f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	mod := filepath.Join(srcCopy, "go.mod")
	data, err := os.ReadFile(mod)
	if errors.Is(err, os.ErrNotExist) {
		data, err = []byte("module learner\n\ngo "+GoVersion()+"\n"), nil
	}
	if err != nil {
		return err
	}
	text := strings.TrimRight(string(data), "\n") + "\n\nrequire " + courseModule + " v0.0.0\n\nreplace " + courseModule + " => ./" + vtimeWorld + "\n"
	return os.WriteFile(mod, []byte(text), 0o644)
}

// VirtualFingerprint is a hash of what the checker adds to a virtual-time program (the harness and
// the flaky service): an executable built with another is another program.
func VirtualFingerprint() string {
	h := sha256.New()
	h.Write([]byte(harnessSource))
	h.Write(flakySource)
	for _, f := range scenarioFiles {
		fmt.Fprintf(h, "%s %d\n", f.Name, len(f.Data))
		h.Write(f.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// LocalWorld is what lets the learner's own go command (go build, go vet, gopls) build a
// virtual-time program in its folder, offline and with a go.mod of module and go lines only: a
// go.work that uses the folder and ./.flaky, a copy of the course's module holding the flaky
// service alone. File names are slash-separated, relative to the folder. The checker never reads
// them: a snapshot leaves go.work and dot-folders out, and builds with GOWORK=off.
func LocalWorld() map[string][]byte {
	world := map[string][]byte{
		"go.work":                       []byte("go " + GoVersion() + "\n\nuse (\n\t.\n\t./.flaky\n)\n"),
		".flaky/go.mod":                 []byte("module " + courseModule + "\n\ngo " + GoVersion() + "\n"),
		".flaky/checker/flaky/flaky.go": flakySource,
	}
	for _, f := range scenarioFiles {
		world[".flaky/checker/scenario/"+f.Name] = f.Data
	}
	return world
}

// buildArgs are the go command's arguments that build src's copy into exe: go build, or for a
// virtual-time program go test -c with the harness.
func buildArgs(lim Limits, exe string) []string {
	if lim.Virtual {
		return []string{"test", "-c", "-vet=off", "-ldflags=-s -w", "-o", exe, "."}
	}
	return []string{"build", "-ldflags=-s -w", "-o", exe, "."}
}

// buildEach builds every program of srcs on its own (BuildMany for virtual-time programs).
func buildEach(ctx context.Context, srcs []string, lim Limits) ([]*Program, []error) {
	progs := make([]*Program, len(srcs))
	errs := make([]error, len(srcs))
	for i, src := range srcs {
		progs[i], errs[i] = Build(ctx, src, lim)
	}
	return progs, errs
}

// virtualOutcome judges what a virtual-time run's stderr says of the bubble: a deadlock or a leak
// becomes Status Crash with its Reason and the goroutine left blocked; a run stopped at its wall
// limit, which virtual time never reaches by itself, waited on something outside the bubble.
func virtualOutcome(out *RunOutput) *Blocked {
	switch {
	case out.Status == Timeout && (out.Reason == "" || out.Reason == ReasonBlocked || out.Reason == ReasonSlept || out.Reason == ReasonWaited):
		// In a bubble a program that only sleeps or waits on its own goroutines never blocks the
		// wall clock (virtual time moves on): stopped as blocked, it waited on something outside.
		out.Reason = ReasonNotDurable
		return nil
	case out.Status == Timeout || out.Status == OutputLimit || out.Status == MemoryLimit:
		return nil
	}
	var kind string
	switch {
	case out.ExitCode == vtimeLeakCode && strings.Contains(out.Stderr, vtimeLeakMark):
		kind = ReasonLeak
	case strings.Contains(out.Stderr, "panic: deadlock: main bubble goroutine has exited but blocked goroutines remain"):
		kind = ReasonLeak
	case strings.Contains(out.Stderr, "panic: deadlock: all goroutines in bubble are blocked"):
		kind = ReasonDeadlock
	default:
		return nil
	}
	out.Status, out.Reason = Crash, kind
	b := blockedGoroutine(out.Stderr)
	b.Kind = kind
	return &b
}

// OwnStderr is what the program itself printed on stderr: for a virtual-time run left with
// goroutines blocked or deadlocked (Blocked is set), what came before the stack dump that says so,
// which Blocked says in words.
func (o RunOutput) OwnStderr() string {
	if o.Blocked == nil {
		return o.Stderr
	}
	s := o.Stderr
	for _, mark := range []string{vtimeLeakMark, "panic: deadlock: "} {
		if i := strings.Index(s, mark); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

// goroutineHeader is the first line of a goroutine in a stack dump: its number and state.
var goroutineHeader = regexp.MustCompile(`^goroutine (\d+) \[([^\]]*)\]:$`)

// frameLine is the file and line of a stack frame: "\t/path/main.go:19 +0x1e".
var frameLine = regexp.MustCompile(`^\t(.+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)

// blockedGoroutine picks from a stack dump the goroutines of the bubble ("synctest bubble" in their
// state) and returns the first whose stack reaches the learner's code, with its innermost frame
// there; Others counts the rest.
func blockedGoroutine(stderr string) Blocked {
	type g struct {
		b   Blocked
		own bool
	}
	var gs []g
	var cur *g
	var fn string
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := goroutineHeader.FindStringSubmatch(line); m != nil {
			cur = nil
			if !strings.Contains(m[2], "synctest bubble") {
				continue
			}
			n, _ := strconv.Atoi(m[1])
			wait := m[2]
			if i := strings.Index(wait, ","); i >= 0 {
				wait = wait[:i]
			}
			wait = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(wait), "(durable)"))
			gs = append(gs, g{b: Blocked{Goroutine: n, Wait: wait}})
			cur = &gs[len(gs)-1]
			continue
		}
		if cur == nil {
			continue
		}
		if fm := frameLine.FindStringSubmatch(line); fm != nil {
			file := anyScratch.ReplaceAllString(fm[1], "")
			if !cur.own && ownFile(file) {
				cur.own = true
				cur.b.File = filepath.ToSlash(file)
				cur.b.Line, _ = strconv.Atoi(fm[2])
				cur.b.Func = shortFunc(fn)
			}
			continue
		}
		if strings.HasPrefix(line, "created by ") || line == "" {
			continue
		}
		fn = line
	}
	var first *Blocked
	own := 0
	for i := range gs {
		if gs[i].own {
			own++
			if first == nil {
				first = &gs[i].b
			}
		}
	}
	if first == nil {
		if len(gs) == 0 {
			return Blocked{}
		}
		b := gs[0].b
		b.Others = len(gs) - 1
		return b
	}
	b := *first
	b.Others = own - 1
	return b
}

// anyScratch matches the scratch folder a program was built in, wherever the system's temporary
// folder was then: a cached executable names the folder of its first build, which cleanTrace, knowing
// only this process's temporary folder, may leave in place.
var anyScratch = regexp.MustCompile(`^.*workbook-(?:build|batch)-\d+-\d+[/\\](?:src|mod[/\\]p\d{3,})[/\\]`)

// ownFile says whether a frame's file is the learner's: not in GOROOT, not the harness, not the
// flaky service. cleanTrace has made the learner's paths relative already.
func ownFile(file string) bool {
	return !strings.HasPrefix(file, "$GOROOT/") && !filepath.IsAbs(file) &&
		filepath.Base(file) != vtimeHarness && !strings.Contains(filepath.ToSlash(file), vtimeWorld+"/")
}

// shortFunc writes a frame's function as a plain build of the learner's program names it: in the
// test binary package main bears the module's path ("learner.fetch.func1(…)" is main.fetch.func1),
// and a mutant's is its own package, with main renamed Main.
func shortFunc(frame string) string {
	if i := strings.LastIndex(frame, "("); i > 0 {
		frame = frame[:i]
	}
	if i := strings.LastIndex(frame, "/"); i >= 0 {
		frame = frame[i+1:]
	}
	i := strings.Index(frame, ".")
	if i < 0 {
		return frame
	}
	rest := frame[i+1:]
	if rest == "Main" || strings.HasPrefix(rest, "Main.") {
		rest = "main" + rest[4:]
	}
	return "main." + rest
}

// harnessSource is the harness (see the comment at the top of this file). Its names start with
// workbookVT so that they cannot meet the learner's.
const harnessSource = `// Code generated by workbook's checker. DO NOT EDIT.

package main

import (
	"flag"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

var (
	workbookVTArgs   []string
	workbookVTStdout *os.File
	workbookVTQuiet  *os.File
)

func TestMain(m *testing.M) {
	workbookVTArgs = os.Args[1:]
	workbookVTStdout = os.Stdout
	quiet, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		os.Stderr.WriteString("workbook: " + err.Error() + "\n")
		os.Exit(3)
	}
	workbookVTQuiet = quiet
	os.Stdout = quiet
	os.Args = []string{os.Args[0], "-test.run=^TestWorkbookVirtualTime$", "-test.count=1"}
	os.Exit(m.Run())
}

func TestWorkbookVirtualTime(t *testing.T) {
	synctest.Test(t, func(*testing.T) {
		_, base := workbookVTBubble()
		os.Stdout = workbookVTStdout
		os.Args = append([]string{"prog"}, workbookVTArgs...)
		flag.CommandLine = flag.NewFlagSet(os.Args[0], flag.ExitOnError)
		defer func() { os.Stdout = workbookVTQuiet }()
		main()
		os.Stdout = workbookVTQuiet
		time.Sleep(time.Second)
		for !workbookVTWait() {
			time.Sleep(time.Nanosecond) // a Wait of the program's own (the flaky service's) is under way
		}
		if dump, now := workbookVTBubble(); len(now) > 0 {
			for id := range now {
				if !base[id] {
					os.Stderr.WriteString("` + vtimeLeakMark + `\n\n")
					os.Stderr.WriteString(dump)
					os.Exit(` + "86" + `)
				}
			}
		}
	})
}

// workbookVTBubble returns a dump of every goroutine's stack and the ids of those in the bubble.
// Goroutines are told by the dump, taken with the world stopped, and never by runtime.NumGoroutine:
// a goroutine outside the bubble (the runtime's or the testing package's) may come or go at any
// moment, and then counted as a leak on a busy machine.
func workbookVTBubble() (string, map[string]bool) {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 64<<20 {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	dump := string(buf)
	ids := map[string]bool{}
	for _, g := range strings.Split(dump, "\n\n") {
		head, _, _ := strings.Cut(g, "\n")
		if f := strings.Fields(head); len(f) > 1 && f[0] == "goroutine" && strings.Contains(head, "synctest bubble") {
			ids[f[1]] = true
		}
	}
	return dump, ids
}

// workbookVTWait is synctest.Wait, false when another goroutine of the bubble is in a Wait already.
func workbookVTWait() (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	synctest.Wait()
	return true
}
`
