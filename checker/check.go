package checker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Options configure a check.
type Options struct {
	Exercise string // the exercise's name, copied into the Result
	Lang     string // the transcript language: expect NAME reads NAME.<Lang> when it exists
	UILang   string // the language of case titles (default: Lang)
	Limits   Limits
	Parallel int // cases run at once (default: runtime.GOMAXPROCS, the CPUs the process may use)
}

// Check builds the program in src once and runs every case against it. A program that is wrong in
// any way (it does not build, prints something else, hangs, crashes) gives a Result with that
// verdict; an error means the check itself could not be made.
func Check(ctx context.Context, src string, cases []Case, opt Options) (*Result, error) {
	res := &Result{Exercise: opt.Exercise, Lang: opt.Lang, Dir: src, Total: len(cases), Cases: []CaseResult{}}
	prog, err := Build(ctx, src, opt.Limits)
	var bf *BuildFailure
	if errors.As(err, &bf) {
		res.Verdict, res.BuildLog, res.Message, res.Skipped = bf.Verdict, bf.Log, bf.Reason, bf.Skipped
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	defer prog.Close()
	res.BuildTime = Millis(prog.BuildTime)
	res.Skipped = prog.Skipped
	res.Isolation = prog.Isolation()
	res.Cases = prog.RunCases(ctx, cases, opt)
	res.Summarize()
	if res.Hung != "" {
		res.RunLimit = Millis(prog.limits.RunTime)
	}
	return res, nil
}

// Summarize sets Passed and the overall Verdict from the cases: Pass when all passed, else the status
// of the first case that did not.
func (r *Result) Summarize() {
	r.Passed, r.Total = 0, len(r.Cases)
	r.Verdict = Pass
	r.Hung = ""
	notRun := false
	for _, c := range r.Cases {
		switch {
		case c.Status == Pass:
			r.Passed++
		case c.Status == NotRun:
			notRun = true
		case r.Verdict == Pass:
			r.Verdict = c.Status
		}
	}
	if !notRun {
		return
	}
	for _, c := range r.Cases {
		if c.Status == Timeout {
			r.Hung = c.Name
			break
		}
	}
	if r.Verdict == Pass {
		r.Verdict = Timeout
	}
}

// RunCases runs the cases against the built program, each run in a fresh, empty folder of its own,
// several cases at once. A case of run, expect, status, stdout and stderr lines alone runs straight
// from memory (see parseDirect); any other goes through testscript, in a work folder of its own.
func (p *Program) RunCases(ctx context.Context, cases []Case, opt Options) []CaseResult {
	return p.runCases(ctx, cases, opt, true)
}

// runCases is RunCases; with direct false, every case goes through testscript (for the test that
// compares the two ways).
func (p *Program) runCases(ctx context.Context, cases []Case, opt Options, direct bool) []CaseResult {
	results := make([]CaseResult, len(cases))
	if len(cases) == 0 {
		return results
	}
	titleLang := opt.UILang
	if titleLang == "" {
		titleLang = opt.Lang
	}
	par := opt.Parallel
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	sem := make(chan struct{}, par)
	hang := &hangState{}
	runRoot := filepath.Join(p.scratch, "runs")
	cts := make([]*caseT, len(cases))
	var scripted []int
	var wg sync.WaitGroup
	for i, c := range cases {
		results[i] = CaseResult{Name: c.Name, Title: c.Title(titleLang), Visible: c.Visible, Drawn: c.Drawn, Args: []string{}}
		cts[i] = &caseT{rec: &results[i]}
		dc, ok := parseDirect(c.Script)
		if !direct || !ok {
			scripted = append(scripted, i)
			continue
		}
		ct := cts[i]
		st := &caseState{ctx: ctx, prog: p, rec: ct.rec, lang: opt.Lang, expected: dc.expected, runRoot: runRoot, hang: hang}
		// The cases start in their order, par at a time.
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			ct.ran = true
			ct.run(func(testscript.T) { ct.failed, ct.failure = st.runDirect(dc) })
		}()
	}
	if len(scripted) > 0 {
		p.runScripts(ctx, cases, scripted, cts, runRoot, sem, hang, opt)
	}
	wg.Wait()
	for i, ct := range cts {
		rec := ct.rec
		switch {
		case !ct.ran:
			rec.Status = Fail
			if rec.Message == "" {
				rec.Message = "the case did not run: " + cases[i].Name + " " + ct.log.String()
			}
		case ct.failed && (rec.Status == "" || rec.Status == Pass):
			rec.Status = Fail
			if rec.Message == "" {
				rec.Message = ct.failure
			}
		case !ct.failed && rec.Status == "":
			rec.Status = Pass
		}
	}
	return results
}

// runScripts runs the cases which of through testscript, in a folder of their own (each run's
// folder made in runRoot), sharing sem and hang with the cases that run without it.
func (p *Program) runScripts(ctx context.Context, cases []Case, which []int, cts []*caseT, runRoot string, sem chan struct{}, hang *hangState, opt Options) {
	rt := &rootT{sem: sem, cases: map[string]*caseT{}}
	root, err := os.MkdirTemp(p.scratch, "cases-")
	if err != nil {
		for _, i := range which {
			cts[i].ran, cts[i].failed, cts[i].failure = true, true, err.Error()
		}
		return
	}
	defer os.RemoveAll(root)
	var files []string
	for _, i := range which {
		ct := cts[i]
		name := fmt.Sprintf("%04d", i)
		file := filepath.Join(root, name+".txtar")
		var onDisk []byte
		onDisk, ct.expected = splitCase(cases[i].Script)
		if err := os.WriteFile(file, onDisk, 0o644); err != nil {
			ct.ran, ct.failed, ct.failure = true, true, err.Error()
			continue
		}
		ct.file = file
		files = append(files, file)
		rt.cases[name] = ct
	}
	params := testscript.Params{
		Files:       files,
		WorkdirRoot: filepath.Join(root, "work"),
		Setup: func(env *testscript.Env) error {
			ct, ok := env.T().(*caseT)
			if !ok {
				return errors.New("unexpected test runner")
			}
			env.Values[stateKey{}] = &caseState{ctx: ctx, prog: p, rec: ct.rec, lang: opt.Lang,
				expected: ct.expected, runRoot: runRoot, hang: hang}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"run":    cmdRun,
			"expect": cmdExpect,
			"status": cmdStatus,
		},
	}
	if err := os.MkdirAll(params.WorkdirRoot, 0o755); err != nil {
		for _, ct := range rt.cases {
			ct.ran, ct.failed, ct.failure = true, true, err.Error()
		}
		return
	}
	// RunT ends its goroutine (runtime.Goexit) when it gives up on all the scripts.
	done := make(chan struct{})
	go func() {
		defer close(done)
		testscript.RunT(rt, params)
	}()
	<-done
	rt.wg.Wait()
	for _, ct := range rt.cases {
		if !ct.ran {
			ct.log.WriteString(rt.log.String())
			continue
		}
		// testscript names the case by the file it was given, a scratch path; the case's own name
		// says more and gives nothing of the checker's folders away.
		ct.failure = strings.ReplaceAll(lastFailure(ct.log.String()), ct.file, ct.rec.Name)
	}
}

// lastFailure picks the line of a testscript log that says why the script failed.
func lastFailure(log string) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], "FAIL:") {
			return strings.TrimSpace(lines[i])
		}
	}
	if len(lines) > 0 {
		return strings.TrimSpace(lines[len(lines)-1])
	}
	return ""
}

type stateKey struct{}

// caseState is what the case commands share within one script.
type caseState struct {
	ctx     context.Context
	prog    *Program
	rec     *CaseResult
	lang    string
	lastRun *RunOutput
	// expected holds the files the case compares with, which never reach the disk; runRoot is
	// where each run gets its own empty folder, apart from testscript's work folder.
	expected map[string][]byte
	runRoot  string
	hang     *hangState
}

// hangState is what the cases of one RunCases share about a program that hangs. Once a case has
// run out of its time limit, the runs after it get only a short budget (hangBudget): a program that
// finishes within it gets its real result, one that does not is marked not_run, and from then on
// the remaining runs are not started at all. So a program that hangs in every case costs one limit
// (two at once, with two CPUs) and a fraction of a second, not fifteen limits, while a program that
// is only slow never times out and is never cut short.
type hangState struct {
	mu     sync.Mutex
	first  string // the first case that timed out
	gaveUp bool   // a short run hung too: run nothing more
}

func (h *hangState) state() (hung, gaveUp bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.first != "", h.gaveUp
}

func (h *hangState) timedOut(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.first == "" {
		h.first = name
	}
}

func (h *hangState) giveUp() {
	h.mu.Lock()
	h.gaveUp = true
	h.mu.Unlock()
}

// hangBudget is the time a run gets once the program has hung in another case: a twentieth of the
// limit, between 50 and 250 ms, which is ample for the exercises' runs (a few milliseconds each).
func hangBudget(limit time.Duration) time.Duration {
	return min(max(limit/20, 50*time.Millisecond), 250*time.Millisecond)
}

func state(ts *testscript.TestScript) *caseState { return ts.Value(stateKey{}).(*caseState) }

// cmdRun runs the learner's program: run [ARGS...]. With "!", the program must exit non-zero.
func cmdRun(ts *testscript.TestScript, neg bool, args []string) {
	st := state(ts)
	out, fail := st.run(workFolder(ts.MkAbs(".")), neg, args)
	if out != nil {
		ts.Stdout().Write([]byte(Normalize(out.Stdout)))
		ts.Stderr().Write([]byte(Normalize(out.Stderr)))
	}
	if fail != "" {
		ts.Fatalf("%s", fail)
	}
}

// run runs the program once with args, its input files taken from inputs, and records it. It returns what
// the program printed (nil when it was not run) and why the case fails, or "".
func (st *caseState) run(inputs inputSource, neg bool, args []string) (*RunOutput, string) {
	rec := st.rec
	budget, short := st.prog.limits.RunTime, false
	if hung, gaveUp := st.hang.state(); gaveUp {
		rec.Args = append([]string{}, args...)
		rec.Status, rec.Message = NotRun, "hang"
		return nil, "not run: the program hangs"
	} else if hung {
		budget, short = hangBudget(budget), true
	}
	dir, own, err := runFolder(st.runRoot, st.prog.emptyDir(), inputs, args, st.expected)
	if err != nil {
		return nil, fmt.Sprintf("preparing the run's folder: %v", err)
	}
	out := st.prog.run(st.ctx, dir, args, "", budget)
	if own {
		os.RemoveAll(dir)
	}
	st.lastRun = &out
	rec.Args = append([]string{}, args...)
	rec.Got, rec.Stderr, rec.ExitCode = out.Stdout, out.Stderr, out.ExitCode
	rec.Duration += Millis(out.Duration)
	switch out.Status {
	case Timeout:
		if short {
			rec.Status, rec.Message = NotRun, "hang"
			st.hang.giveUp()
			return &out, "not run to the end: the program hangs"
		}
		st.hang.timedOut(rec.Name)
		rec.Status, rec.Message = Timeout, out.Reason
		return &out, fmt.Sprintf("the program did not finish within %s", st.prog.limits.RunTime)
	case OutputLimit:
		rec.Status = OutputLimit
		return &out, fmt.Sprintf("the program printed more than %d bytes", st.prog.limits.OutputBytes)
	case MemoryLimit:
		rec.Status, rec.Message = MemoryLimit, out.Reason
		return &out, fmt.Sprintf("the program ran out of its %d MiB of memory", st.prog.limits.Memory>>20)
	case Crash:
		rec.Status, rec.Message, rec.Blocked = Crash, out.Reason, out.Blocked
		return &out, fmt.Sprintf("the program crashed (exit code %d)", out.ExitCode)
	}
	if neg && out.ExitCode == 0 {
		rec.Status = Fail
		rec.Message = "exit_zero"
		return &out, "the program exited 0; a non-zero exit was expected"
	}
	if !neg && out.ExitCode != 0 {
		rec.Status = Crash
		rec.Message = "exit_nonzero"
		if out.Reason != "" {
			rec.Message = out.Reason
		}
		return &out, fmt.Sprintf("the program exited with code %d", out.ExitCode)
	}
	return &out, ""
}

// cmdExpect compares the last run's stdout with a file: expect NAME.
func cmdExpect(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: expect NAME")
	}
	if fail := state(ts).expect(args[0]); fail != "" {
		ts.Fatalf("%s", fail)
	}
}

// expect compares the last run's stdout with the expected file name (name.<lang> when the case has
// one) and returns why the case fails, or "".
func (st *caseState) expect(name string) string {
	if st.lastRun == nil {
		return "expect before run"
	}
	file := name
	want, ok := st.expected[file]
	if lw, lok := st.expected[file+"."+st.lang]; st.lang != "" && lok {
		file, want, ok = file+"."+st.lang, lw, true
	}
	if !ok {
		return fmt.Sprintf("expect %s: the case has no file %s", name, name)
	}
	st.rec.Want = Normalize(string(want))
	if d := Compare(string(want), st.lastRun.Stdout); d != nil {
		st.rec.Diff = d
		st.rec.Status = Fail
		return fmt.Sprintf("stdout differs from %s at line %d", file, d.Line)
	}
	return ""
}

// cmdStatus checks the last run's exit code: status N.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: status N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("usage: status N")
	}
	if fail := state(ts).status(want); fail != "" {
		ts.Fatalf("%s", fail)
	}
}

// status checks the last run's exit code and returns why the case fails, or "".
func (st *caseState) status(want int) string {
	if st.lastRun == nil {
		return "status before run"
	}
	st.rec.WantExit = &want
	if st.lastRun.ExitCode != want {
		st.rec.Status = Fail
		st.rec.Message = "exit_code"
		return fmt.Sprintf("exit code %d, want %d", st.lastRun.ExitCode, want)
	}
	return ""
}

// rootT is the testscript.T that RunT is given; each script runs under a caseT of its own.
type rootT struct {
	sem   chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	log   strings.Builder
	cases map[string]*caseT
}

func (t *rootT) Skip(args ...any)  { t.Log(args...); runtime.Goexit() }
func (t *rootT) Fatal(args ...any) { t.Log(args...); runtime.Goexit() }
func (t *rootT) FailNow()          { runtime.Goexit() }
func (t *rootT) Parallel()         {}
func (t *rootT) Verbose() bool     { return false }
func (t *rootT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintln(&t.log, args...)
}

func (t *rootT) Run(name string, f func(testscript.T)) {
	ct := t.cases[name]
	if ct == nil {
		t.Log("unknown case", name)
		return
	}
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		t.sem <- struct{}{}
		defer func() { <-t.sem }()
		ct.ran = true
		ct.run(f)
	}()
}

// caseT records one script's log and whether it failed.
type caseT struct {
	rec      *CaseResult
	expected map[string][]byte
	file     string // the script testscript runs, when it runs the case
	ran      bool
	failed   bool
	failure  string // why the case failed, in testscript's words, with the case's name
	log      strings.Builder
}

func (t *caseT) run(f func(testscript.T)) {
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				t.failed = true
				fmt.Fprintln(&t.log, "panic:", r)
			}
		}()
		f(t)
	}()
	<-done
	if t.rec.Duration == 0 {
		t.rec.Duration = Millis(time.Since(start))
	}
}

func (t *caseT) Skip(args ...any)               { t.Log(args...); runtime.Goexit() }
func (t *caseT) Fatal(args ...any)              { t.Log(args...); t.failed = true; runtime.Goexit() }
func (t *caseT) FailNow()                       { t.failed = true; runtime.Goexit() }
func (t *caseT) Parallel()                      {}
func (t *caseT) Verbose() bool                  { return false }
func (t *caseT) Log(args ...any)                { fmt.Fprintln(&t.log, args...) }
func (t *caseT) Run(string, func(testscript.T)) { t.Log("nested cases are not supported") }
