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
		res.RunLimit = Millis(prog.limits.Budget)
	}
	return res, nil
}

// Summarize sets Passed and the overall Verdict from the cases: Pass when all passed, else the status
// of the first case that did not; Hung names the first case that ran out of time (or, when none
// did, the first that slept long enough to cost the budget) when later cases were not run to their
// end for the budget.
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
	for _, c := range r.Cases {
		if r.Hung == "" && c.Charged {
			r.Hung = c.Name // it finished, after sleeping
		}
	}
	if r.Verdict == Pass {
		r.Verdict = Timeout
	}
}

// RunCases runs the cases against the built program, each run in a fresh, empty folder of its own,
// several cases at once. A case of run, expect, status, stdout and stderr lines alone runs straight
// from memory (see parseDirect); any other goes through testscript, in a work folder of its own.
//
// Every case gets its verdict: a case that runs out of its time never stops the others. What the
// program's runs that do not finish may cost together is bounded instead, by Limits.Budget of CPU
// time (see budget): a case whose earlier cases (in their order) have used it up gets only a short
// limit (shortRun), and is not_run with message budget when it does not finish within it. So a program that hangs in every
// case costs about two run limits of CPU time and a fraction of a second per case, one that hangs in
// some cases keeps the points of the others, and which cases are cut depends on the program alone,
// never on the machine's load.
func (p *Program) RunCases(ctx context.Context, cases []Case, opt Options) []CaseResult {
	return p.runCases(ctx, cases, opt, true)
}

// idleWords say what a run stopped for idling was doing, by its Reason.
var idleWords = map[string]string{
	ReasonBlocked: "it sleeps or waits",
	ReasonSlept:   "it sleeps (its threads were blocked with a timeout: a sleep, a timer)",
	ReasonWaited:  "it waits for something that never comes (its threads were blocked with no timeout: a channel, a lock, a read)",
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
	hang := newBudget(len(cases), p.limits)
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
		st := &caseState{ctx: ctx, prog: p, rec: ct.rec, lang: opt.Lang, expected: dc.expected, runRoot: runRoot, hang: hang, idx: i}
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
	hang.judge(results)
	if bs, ok := ctx.Value(budgetStatsKey{}).(*budgetStats); ok {
		bs.FullStops, bs.Cut = hang.fullStops, hang.cut
	}
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
func (p *Program) runScripts(ctx context.Context, cases []Case, which []int, cts []*caseT, runRoot string, sem chan struct{}, hang *budget, opt Options) {
	rt := &rootT{sem: sem, cases: map[string]*caseT{}}
	root, err := os.MkdirTemp(p.scratch, "cases-")
	if err != nil {
		for _, i := range which {
			cts[i].ran, cts[i].failed, cts[i].failure = true, true, err.Error()
		}
		return
	}
	defer removeTree(root)
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
		ct.idx = i
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
				expected: ct.expected, runRoot: runRoot, hang: hang, idx: ct.idx}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"run":     cmdRun,
			"expect":  cmdExpect,
			"status":  cmdStatus,
			"metrics": cmdMetrics,
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
	hang     *budget
	idx      int // the case's place among the cases
}

// budget is what the cases of one RunCases share about what the program's runs cost when they do
// not finish, or finish only after sleeping. A case is charged the CPU limit of each run of it that
// was stopped at a time limit (its CPU limit, or its idle limit: it slept or waited), and the idle
// time (RunOutput.Idle: neither on a CPU nor waiting for one) of each run that ended by itself after
// idling longer than nap. A run that computes and ends by itself costs the budget nothing, however
// slow: a slow program is never cut short, and a loaded machine, which keeps a program waiting for
// a CPU, charges nothing. A case whose earlier cases (in the order of the cases, not of their runs)
// were charged Limits.Budget or more is past the budget: its runs start with the short limit
// (shortRun) once that is known, and afterwards (judge) it keeps its verdict only if no run of it
// was stopped, none used more than the short limit of CPU time and none idled longer than its idle
// limit; otherwise it is not_run, message budget. A run that would be cut for its CPU time is made
// once more under the short limit, and only the second counts (again): a busy machine stretches a
// CPU clock. Once an earlier case has been charged, a run
// whose earlier cases still running could spend the rest of the budget waits for them before it
// takes a limit (limitFor): so a program that hangs in every case waits out the full limit in as
// many cases as the budget allows, not in one more for each run that started beside them. Since
// what is charged is the program's own CPU and idle time, which cases are cut depends on the
// program, not on the machine's load or on which runs went first.
type budget struct {
	mu    sync.Mutex
	ended *sync.Cond // signalled when a run ends
	limit time.Duration
	full  runLimit
	short runLimit
	// nap is the idle time past which a run that ended by itself is charged its idle time: the
	// short limit's idle time (a thread in a page fault or a disk wait is not idle, so a thrashing
	// machine does not make a sleeper).
	nap     time.Duration
	charge  []time.Duration // what each case was charged so far
	stopped []bool          // a run of the case was stopped at a time limit
	maxRun  []time.Duration // the most CPU time one run of the case used
	maxIdle []time.Duration // the most idle time of one run of the case
	running []int           // the case's runs in flight
	// fullStops counts the runs stopped at the full limit: what a program that hangs cost.
	fullStops int
	// cut says why judge made each case it cut not_run (budgetStats.Cut).
	cut []string
}

// budgetStatsKey is the context key under which a test hands RunCases a *budgetStats to fill.
type budgetStatsKey struct{}

// budgetStats is what a RunCases's runs cost, for tests that bound it in counts, not seconds.
type budgetStats struct {
	FullStops int // runs stopped at the full limit (CPU or idle)
	// Cut says, for each case past the budget that judge made not_run, why: its longest run's CPU
	// and idle time against the short limit's, and whether a run was stopped.
	Cut []string
}

func newBudget(n int, lim Limits) *budget {
	lim = lim.withDefaults()
	full, short := fullRun(lim), shortRun(lim)
	b := &budget{limit: lim.Budget, full: full, short: short, nap: short.Idle,
		charge: make([]time.Duration, n), stopped: make([]bool, n), maxRun: make([]time.Duration, n),
		maxIdle: make([]time.Duration, n), running: make([]int, n)}
	b.ended = sync.NewCond(&b.mu)
	return b
}

// limitFor is the limit of the next run of case i: the short one once the cases before it are known
// to have used the budget up. Once they have been charged anything, and runs of theirs still in
// flight could each be charged a full limit and so spend the rest, it waits for those runs to end
// first. The run must be reported to ran.
func (b *budget) limitFor(i int) runLimit {
	b.mu.Lock()
	defer b.mu.Unlock()
	rl := b.full
	for {
		var spent, could time.Duration
		for j := 0; j < i; j++ {
			spent += b.charge[j]
			could += time.Duration(b.running[j]) * b.full.CPU
		}
		if spent >= b.limit {
			rl = b.short
			break
		}
		if spent == 0 || spent+could < b.limit {
			break
		}
		b.ended.Wait()
	}
	b.running[i]++
	return rl
}

// ran records a run of case i under the limit rl, which limitFor gave.
func (b *budget) ran(i int, out *RunOutput, rl runLimit) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.running[i]--
	b.ended.Broadcast()
	switch {
	case out.Stopped:
		b.stopped[i] = true
		b.charge[i] += rl.CPU
		if rl == b.full {
			b.fullStops++
		}
	case out.Idle > b.nap:
		b.charge[i] += out.Idle
	}
	b.maxRun[i] = max(b.maxRun[i], out.CPU)
	b.maxIdle[i] = max(b.maxIdle[i], out.Idle)
}

// again reports whether a run of case i under the limit rl, which limitFor gave, is made once more
// before it counts, and under which limit. A CPU clock is not the program's alone on a busy machine:
// a program that prints one line, 3 ms of CPU time on a quiet machine, was charged 110 ms once in
// 300 runs beside four CPU burners (at a load of 30, in a VM whose host preempts it unseen: the time
// it is away is charged to whatever ran), and an honest case was cut so. So a run past the budget
// (under the short limit) that did not finish within its CPU time is made once more under the short
// limit; and so is a run that began under the full limit while the cases before it had not yet spent
// the budget, ended by itself, and went past the short limit's CPU or idle time, when those cases
// have spent it by now: judge would cut the case for that run (its cases before it decide, not
// when it began). A program that hangs is stopped once more, at a cost of one more short limit; an
// honest one is cut only if the machine stretches both runs past the short limit.
func (b *budget) again(i int, rl runLimit, out *RunOutput) (runLimit, bool) {
	if rl == b.short {
		return b.short, out.Status == Timeout && out.Reason == ReasonCPULimit
	}
	if out.Stopped || out.CPU <= b.short.CPU && out.Idle <= b.short.Idle {
		return rl, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var spent time.Duration
	for j := 0; j < i; j++ {
		spent += b.charge[j]
	}
	return b.short, spent >= b.limit
}

// judge marks not_run, message budget, every case past the budget that did not finish within the
// short limit.
func (b *budget) judge(results []CaseResult) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var spent time.Duration
	for i := range results {
		results[i].Charged = b.charge[i] > 0
		if spent >= b.limit && (b.stopped[i] || b.maxRun[i] > b.short.CPU || b.maxIdle[i] > b.short.Idle) {
			b.cut = append(b.cut, fmt.Sprintf("%s: stopped %v, cpu %v (short %v), idle %v (short %v)",
				results[i].Name, b.stopped[i], b.maxRun[i], b.short.CPU, b.maxIdle[i], b.short.Idle))
			r := &results[i]
			// What a run cut short printed (or how it died at the short limit) says nothing of
			// the program: only the arguments stay.
			r.Status, r.Message, r.Diff, r.Want = NotRun, ReasonBudget, nil, ""
			r.Got, r.Stderr, r.ExitCode, r.WantExit = "", "", -1, nil
			// Whether its own cut-short runs were charged depends on how they died (a limit or
			// the memory), which is timing: a case not run says nothing of its own cost. The first
			// case charged is never past the budget, so Result.Hung still finds it.
			r.Charged = false
		}
		spent += b.charge[i]
	}
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

// runIn runs the program once with args under rl, in a folder of its own with its input files taken
// from inputs.
func (st *caseState) runIn(inputs inputSource, args []string, rl runLimit) (RunOutput, error) {
	dir, own, err := runFolder(st.runRoot, st.prog.emptyDir(), inputs, args, st.expected)
	if err != nil {
		return RunOutput{}, err
	}
	out := st.prog.run(st.ctx, dir, args, "", rl)
	if own {
		removeTree(dir)
	}
	return out, nil
}

// run runs the program once with args, its input files taken from inputs, and records it. It returns what
// the program printed (nil when it was not run) and why the case fails, or "".
func (st *caseState) run(inputs inputSource, neg bool, args []string) (*RunOutput, string) {
	rec := st.rec
	rl := st.hang.limitFor(st.idx)
	out, err := st.runIn(inputs, args, rl)
	if err == nil {
		if again, ok := st.hang.again(st.idx, rl, &out); ok {
			// Once more, in a fresh folder: a CPU clock a busy machine stretched is not the program's.
			rl = again
			out, err = st.runIn(inputs, args, rl)
		}
	}
	if err != nil {
		st.hang.ran(st.idx, &RunOutput{}, rl)
		return nil, fmt.Sprintf("preparing the run's folder: %v", err)
	}
	st.hang.ran(st.idx, &out, rl)
	st.lastRun = &out
	rec.Args = append([]string{}, args...)
	rec.Got, rec.Stderr, rec.ExitCode = out.Stdout, out.Stderr, out.ExitCode
	rec.Duration += Millis(out.Duration)
	switch out.Status {
	case Timeout:
		rec.Status, rec.Message = Timeout, out.Reason
		if doing, ok := idleWords[out.Reason]; ok {
			return &out, fmt.Sprintf("the program was stopped after %s with no thread on a CPU or waiting for one: %s", max(out.Idle, rl.Idle).Round(time.Millisecond), doing)
		}
		return &out, fmt.Sprintf("the program did not finish within %s of CPU time", rl.CPU)
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
	idx      int    // the case's place among the cases
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
