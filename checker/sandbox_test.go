package checker

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// A hostile program is one testdata/hostile/*.txtar: the comment says what it does and what must
// come of it, the files are the learner's folder, and files under case/ belong to its one case.
//
//	verdict: crash            the verdict of the check (a case's status, or the build's verdict)
//	message: network          the case's Message, or the build failure's Reason
//	needs: network filesystem protections without which the program is not run (it would do harm)
//	args: {PORT} {UNIX} {HOME} {TOKEN}  the run's arguments; see hostileEnv
//	limits: run=8s wall=2s cpu=1s build=5s memory=96M  limits other than the defaults
//	max: 4s                   the check must take no longer (taken four times over)
//	log: TEXT                 the build log must hold TEXT
//	stderr: TEXT              the case's stderr must hold TEXT (stderr-has: another TEXT)
//	stderr-lacks: TEXT        the case's stderr must not hold TEXT
//	fifo: zz.go               files of the folder made as FIFOs
//	symlink: zz.go=/dev/zero  files of the folder made as symbolic links
//	skipped: zz.go: symlink   what the build must say it left out
//	forbid-log: TEXT          the build log must not hold TEXT
//	forbid: {TOKEN}           neither stdout nor stderr may hold TEXT ({WANT}: a token that only the
//	                          case's expected file holds)
//	one-process: crash process  the verdict and message instead of those above where a run is one
//	                          process (no_child_processes): a program that starts another is
//	                          stopped at its first try
//
// Whatever the program does, the test asserts that the listener it may dial saw nothing, that no
// file holding the run's token appeared in /tmp, the stand-in home or the scratch folder, that no
// process holding the token survived, and that the scratch folder is gone after Close.
type hostile struct {
	name    string
	comment string
	fields  map[string]string
	src     []txtar.File
	caseFs  []txtar.File
}

func loadHostile(t *testing.T) []hostile {
	t.Helper()
	files, err := filepath.Glob("testdata/hostile/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no hostile programs: %v", err)
	}
	// WORKBOOK_HOSTILE=a,b,… keeps only those programs: TestCgroupsInVM runs the ones a run-wide
	// limit stops, since its machine is emulated and slow.
	only := map[string]bool{}
	for _, name := range strings.Split(os.Getenv("WORKBOOK_HOSTILE"), ",") {
		if name != "" {
			only[name] = true
		}
	}
	var hs []hostile
	for _, f := range files {
		if len(only) > 0 && !only[strings.TrimSuffix(filepath.Base(f), ".txtar")] {
			continue
		}
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h := hostile{name: strings.TrimSuffix(filepath.Base(f), ".txtar"), fields: map[string]string{}}
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if strings.HasPrefix(line, "#") {
				h.comment += strings.TrimSpace(strings.TrimPrefix(line, "#"))
				continue
			}
			if k, v, ok := strings.Cut(line, ":"); ok {
				h.fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		if h.fields["verdict"] == "" {
			t.Fatalf("%s: no verdict line", f)
		}
		for _, af := range ar.Files {
			if name, ok := strings.CutPrefix(af.Name, "case/"); ok {
				h.caseFs = append(h.caseFs, txtar.File{Name: name, Data: af.Data})
			} else {
				h.src = append(h.src, af)
			}
		}
		hs = append(hs, h)
	}
	return hs
}

// testTimeScale is what the hostile programs' time limits and bounds are multiplied by:
// WORKBOOK_TEST_TIMESCALE, which TestCgroupsInVM sets for its emulated machine, else 1.
func testTimeScale() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("WORKBOOK_TEST_TIMESCALE")); err == nil && n > 1 {
		return time.Duration(n)
	}
	return 1
}

func (h hostile) builds() bool {
	v := Verdict(h.fields["verdict"])
	return v != BuildError && v != NoProgram
}

func (h hostile) limits(t *testing.T) Limits {
	// A short wall-time limit for the programs that hang, which wait it out at every level (tests of
	// limits use short limits, so that the suite stays fast); a long one for every other program,
	// which must not be cut short on a busy machine.
	lim := Limits{RunTime: 5 * time.Second}
	if strings.Contains(h.fields["verdict"], string(Timeout)) {
		lim.RunTime = 800 * time.Millisecond
	}
	for _, kv := range strings.Fields(h.fields["limits"]) {
		k, v, _ := strings.Cut(kv, "=")
		if k == "memory" {
			mib, err := strconv.Atoi(strings.TrimSuffix(v, "M"))
			if err != nil {
				t.Fatalf("%s: limits: %v", h.name, err)
			}
			lim.Memory = int64(mib) << 20
			continue
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("%s: limits: %v", h.name, err)
		}
		switch k {
		case "run":
			lim.RunTime = d
		case "wall":
			lim.WallTime = d
		case "build":
			lim.BuildTime = d
		case "cpu":
			lim.CPUTime = d
		default:
			t.Fatalf("%s: unknown limit %q", h.name, k)
		}
	}
	lim.RunTime *= testTimeScale()
	lim.WallTime *= testTimeScale()
	// A build is judged by its CPU time, which an emulated machine spends many times over.
	lim.BuildTime = cmp.Or(lim.BuildTime, lim.WithDefaults().BuildTime) * testTimeScale()
	return lim
}

// missingNeeds lists the protections the program needs that iso lacks.
func (h hostile) missingNeeds(iso *Isolation) []string {
	var miss []string
	for _, n := range strings.Fields(h.fields["needs"]) {
		if !iso.Has(n) {
			miss = append(miss, n)
		}
	}
	return miss
}

func (h hostile) writeSource(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range h.src {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range strings.Fields(h.fields["fifo"]) {
		if err := mkfifo(filepath.Join(dir, name)); err != nil {
			t.Skipf("no FIFO here: %v", err)
		}
	}
	for _, kv := range strings.Fields(h.fields["symlink"]) {
		name, target, _ := strings.Cut(kv, "=")
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("no symbolic link here: %v", err)
		}
	}
}

// checkSkipped checks that what the program's folder held and the build left out is named.
func (h hostile) checkSkipped(t *testing.T, skipped []string) {
	t.Helper()
	if want := h.fields["skipped"]; want != "" && !slices.Contains(skipped, want) {
		t.Errorf("skipped %q, want it to name %q", skipped, want)
	}
}

// hostileEnv is what a hostile run may try to reach, and what the test then inspects.
type hostileEnv struct {
	token    string // unique to the run: in its arguments and in every file name it writes
	home     string // a stand-in for the user's home, with a secret.txt in it
	port     string // a listener on 127.0.0.1
	unix     string // a listener on a Unix socket named by a path, as the user's systemd or D-Bus has
	accepted *atomic.Int32
}

func newHostileEnv(t *testing.T) *hostileEnv {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	e := &hostileEnv{token: "wbhostile" + hex.EncodeToString(b), home: t.TempDir(), accepted: new(atomic.Int32)}
	if err := os.Chmod(e.home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.home, "secret.txt"), []byte(e.token+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	e.port = fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	e.unix = filepath.Join(e.home, "bus")
	un, err := net.Listen("unix", e.unix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { un.Close() })
	if err := os.Chmod(e.unix, 0o777); err != nil { // as open as a session bus's socket
		t.Fatal(err)
	}
	for _, l := range []net.Listener{ln, un} {
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				e.accepted.Add(1)
				c.Close()
			}
		}()
	}
	return e
}

func (e *hostileEnv) expand(s string) string {
	return strings.NewReplacer("{WANT}", "want-"+e.token, "{TOKEN}", e.token, "{HOME}", e.home, "{PORT}", e.port, "{UNIX}", e.unix).Replace(s)
}

// caseScript is the one case of a hostile program: run it, and compare stdout when it has case/out.
func (h hostile) caseScript(e *hostileEnv) Case {
	script := "run " + e.expand(h.fields["args"]) + "\n"
	ar := &txtar.Archive{}
	for _, f := range h.caseFs {
		if f.Name == "out" {
			script += "expect out\n"
		}
		ar.Files = append(ar.Files, txtar.File{Name: f.Name, Data: []byte(e.expand(string(f.Data)))})
	}
	ar.Comment = []byte(script)
	return Case{Name: h.name, Visible: true, Script: txtar.Format(ar)}
}

// runHostile runs a built hostile program's case and checks the verdict and that it harmed nothing.
func runHostile(t *testing.T, h hostile, prog *Program, e *hostileEnv) {
	t.Helper()
	if v, m, ok := strings.Cut(h.fields["one-process"], " "); ok && SandboxIsolation().Has(ProtectOneProcess) {
		h.fields = maps.Clone(h.fields)
		h.fields["verdict"], h.fields["message"] = v, m
	}
	start := time.Now()
	res := prog.RunCases(context.Background(), []Case{h.caseScript(e)}, Options{})
	took := time.Since(start)
	if len(res) != 1 {
		t.Fatalf("%d results", len(res))
	}
	cr := res[0]
	t.Logf("%s: status %s, message %q, exit %d, %s; stderr %.300q", h.name, cr.Status, cr.Message, cr.ExitCode, took.Round(time.Millisecond), cr.Stderr)
	// "verdict: a | b" with "message: x | y" accepts a with x or b with y: a fork bomb may meet the
	// limit on processes or, where a cgroup holds the whole tree, the one on their memory first.
	verdicts, messages := strings.Split(h.fields["verdict"], "|"), strings.Split(h.fields["message"], "|")
	if !canWatchCPU || levelHidesExe() {
		// Where a program's threads cannot be read (its process not dumpable where its executable
		// is hidden, see hideExe), a sleeper and a waiter are both blocked.
		for i, m := range messages {
			if m = strings.TrimSpace(m); m == ReasonSlept || m == ReasonWaited {
				messages[i] = ReasonBlocked
			}
		}
	}
	if levelHidesExe() && strings.Contains(cr.Got+cr.Stderr, "/proc/self/exe: permission denied") {
		// A program that copies its own executable to run the copy cannot read it where the level
		// hides it: the attack ends before it has anything to run, whatever it was to meet.
		t.Logf("it could not read its own executable, which the level hides")
		assertNothingLeft(t, e, prog.scratch)
		return
	}
	matched := -1
	for i, v := range verdicts {
		if Verdict(strings.TrimSpace(v)) == cr.Status {
			matched = i
			break
		}
	}
	if matched < 0 {
		t.Errorf("status %s, want %s (message %q, stdout %.200q, stderr %.500q)", cr.Status, h.fields["verdict"], cr.Message, cr.Got, cr.Stderr)
	} else if _, ok := h.fields["message"]; ok && matched < len(messages) && cr.Message != strings.TrimSpace(messages[matched]) {
		t.Errorf("message %q, want %q", cr.Message, strings.TrimSpace(messages[matched]))
	}
	if want := h.fields["stderr"]; want != "" && !strings.Contains(cr.Stderr, want) {
		t.Errorf("stderr lacks %q: %q", want, cr.Stderr)
	}
	if want := h.fields["stderr-has"]; want != "" && !strings.Contains(cr.Stderr, want) {
		t.Errorf("stderr lacks %q: %q", want, cr.Stderr)
	}
	if bad := h.fields["stderr-lacks"]; bad != "" && strings.Contains(cr.Stderr, bad) {
		t.Errorf("stderr holds %q: %q", bad, cr.Stderr)
	}
	if f := h.fields["forbid"]; f != "" {
		if f = e.expand(f); strings.Contains(cr.Got, f) || strings.Contains(cr.Stderr, f) {
			t.Errorf("the program's output holds %q, which it must not have been able to read", f)
		}
	}
	if h.fields["verdict"] == string(Fail) {
		if cr.Diff == nil {
			t.Errorf("a failed case without a diff")
		}
		data, err := json.Marshal(cr)
		if err != nil || !json.Valid(data) {
			t.Errorf("the case does not marshal to valid JSON: %v", err)
		}
	}
	if bound := h.fields["max"]; bound != "" {
		// max tells a run stopped at its limits from one that waited for what it started (an
		// hour's sleep, an orphan, the wall clock's last backstop of two minutes), never a fast run
		// from a slow one: it is taken four times over, and never under 100 s, so that a machine
		// loaded many times over (forge took 18 s at a load of 78 on two CPUs) still passes.
		d, _ := time.ParseDuration(bound)
		if d = max(d*4*testTimeScale(), 100*time.Second); took > d {
			t.Errorf("the case took %s, more than %s", took, d)
		}
	}
	assertNothingLeft(t, e, prog.scratch)
}

// assertNothingLeft checks that the run reached neither the listener nor a file outside its folder,
// and that none of its processes survived.
func assertNothingLeft(t *testing.T, e *hostileEnv, scratch string) {
	t.Helper()
	if n := e.accepted.Load(); n > 0 {
		t.Errorf("the listener on 127.0.0.1:%s accepted %d connections", e.port, n)
	}
	for _, dir := range []string{os.TempDir(), e.home, scratch, filepath.Dir(scratch)} {
		if _, err := os.Lstat(filepath.Join(dir, e.token)); err == nil {
			t.Errorf("the program wrote %s", filepath.Join(dir, e.token))
			os.Remove(filepath.Join(dir, e.token))
		}
	}
	filepath.WalkDir(scratch, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), e.token) {
			t.Errorf("the program wrote %s", p)
		}
		return nil
	})
	// The kernel may need a moment to finish off a PID namespace.
	deadline := time.Now().Add(2 * time.Second)
	for {
		pids := processesWith(e.token)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes survived the run: %v", pids)
			for _, pid := range pids {
				if p, err := os.FindProcess(pid); err == nil {
					p.Kill()
				}
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processesWith lists the processes whose command line holds s.
func processesWith(s string) []int {
	if runtime.GOOS != "linux" {
		return nil
	}
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, en := range entries {
		var pid int
		if _, err := fmt.Sscan(en.Name(), &pid); err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", en.Name(), "cmdline"))
		if err == nil && strings.Contains(string(data), s) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestHostile builds every hostile program once, checks the verdict of those that do not build,
// and runs the others: in the strongest sandbox this system allows, then under each weaker level the
// system can set up (what a machine without user namespaces or without Landlock gets), then, when
// the test runs as root, as the unprivileged user nobody (a learner on a laptop). A program is run
// only where the sandbox has the protections it needs; the others are skipped, saying why.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs about twenty programs")
	}
	if _, err := GoTool(); err != nil {
		t.Skip(err)
	}
	iso := SandboxIsolation()
	t.Logf("isolation: level %s, applied %v, missing %v; refused: %v", iso.Level, iso.Applied, iso.Missing, probeLog)
	hs := loadHostile(t)
	progs := buildHostile(t, hs)
	t.Run("best", func(t *testing.T) {
		for _, h := range hs {
			if prog := progs[h.name]; prog != nil {
				t.Run(h.name, func(t *testing.T) {
					t.Parallel()
					if miss := h.missingNeeds(iso); len(miss) > 0 {
						t.Skipf("%s: this system cannot give the protections %v, without which the program would do harm", h.comment, miss)
					}
					runHostile(t, h, prog, newHostileEnv(t))
				})
			}
		}
	})
	// The run as nobody is a process of its own, with a sandbox level of its own: it runs while this
	// process goes through the weaker levels, rather than after them.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.Run("nobody", func(t *testing.T) { hostileAsNobody(t, hs, progs) })
	}()
	t.Run("weaker", func(t *testing.T) { hostileWeakerLevels(t, hs, progs) })
	wg.Wait()
	for name, prog := range progs {
		if err := prog.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
		if _, err := os.Stat(prog.scratch); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: the scratch folder %s is still there", name, prog.scratch)
		}
	}
}

// buildHostile builds the programs, a few at a time, checking the verdict of those that must not
// build; it returns the others.
func buildHostile(t *testing.T, hs []hostile) map[string]*Program {
	t.Helper()
	progs := map[string]*Program{}
	var mu sync.Mutex
	t.Run("build", func(t *testing.T) {
		for _, h := range hs {
			t.Run(h.name, func(t *testing.T) {
				t.Parallel()
				if miss := h.missingNeeds(SandboxIsolation()); len(miss) > 0 && !h.builds() {
					t.Skipf("%s: this system cannot give the protections %v", h.comment, miss)
				}
				src := filepath.Join(t.TempDir(), "src")
				h.writeSource(t, src)
				start := time.Now()
				prog, err := Build(context.Background(), src, h.limits(t))
				took := time.Since(start)
				if h.builds() {
					if err != nil {
						t.Fatalf("Build: %v", err)
					}
					h.checkSkipped(t, prog.Skipped)
					mu.Lock()
					progs[h.name] = prog
					mu.Unlock()
					return
				}
				var bf *BuildFailure
				if !errors.As(err, &bf) {
					prog.Close()
					t.Fatalf("Build: %v, want a %s", err, h.fields["verdict"])
				}
				t.Logf("%s: %s (%s) in %s:\n%s", h.name, bf.Verdict, bf.Reason, took.Round(time.Millisecond), bf.Log)
				if string(bf.Verdict) != h.fields["verdict"] {
					t.Errorf("verdict %s, want %s", bf.Verdict, h.fields["verdict"])
				}
				if want, ok := h.fields["message"]; ok && !oneOf(bf.Reason, want) {
					t.Errorf("reason %q, want %q", bf.Reason, want)
				}
				if want := h.fields["log"]; want != "" && !strings.Contains(bf.Log, want) {
					t.Errorf("the build log lacks %q", want)
				}
				if bad := h.fields["forbid-log"]; bad != "" && strings.Contains(bf.Log, bad) {
					t.Errorf("the build log holds %q:\n%s", bad, bf.Log)
				}
				h.checkSkipped(t, bf.Skipped)
				if strings.Contains(bf.Log, os.TempDir()+string(filepath.Separator)+"workbook-") {
					t.Errorf("the build log shows the scratch folder:\n%s", bf.Log)
				}
				// How long it took is the machine's: a build is judged by its CPU time (a bomb stopped
				// at the wall-clock backstop would be a tool error, not the build_time above).
			})
		}
	})
	return progs
}

// oneOf reports whether s is one of the alternatives "a | b | c".
func oneOf(s, alternatives string) bool {
	for _, a := range strings.Split(alternatives, "|") {
		if strings.TrimSpace(a) == s {
			return true
		}
	}
	return false
}

// TestIsolationReported checks that the isolation a check reports is the one the system gives, and
// that a missing protection is never listed as applied.
func TestIsolationReported(t *testing.T) {
	iso := SandboxIsolation()
	seen := map[string]bool{}
	for _, p := range append(append([]string{}, iso.Applied...), iso.Missing...) {
		if seen[p] {
			t.Errorf("%s is listed twice", p)
		}
		seen[p] = true
	}
	if len(seen) != len(allProtections) {
		t.Errorf("%d protections listed, want %d: %+v", len(seen), len(allProtections), iso)
	}
	for _, p := range []string{ProtectTime, ProtectOutput, ProtectEnv} {
		if !iso.Has(p) {
			t.Errorf("the baseline protection %s is missing", p)
		}
	}
	if runtime.GOOS != "linux" && len(iso.Missing) == 0 {
		t.Errorf("%s claims every protection", runtime.GOOS)
	}
	if runtime.GOOS == "linux" && os.Geteuid() == 0 && iso.Level != "namespaces" {
		t.Logf("as root the sandbox should have namespaces; it is %s (refused: %v)", iso.Level, probeLog)
	}
}

// TestCrashDump checks that a run stopped at the output cap by the runtime's traceback of a fatal
// error at a limit is named by that limit, and that any other output past the cap stays
// output_limit, whatever it says after its start.
func TestCrashDump(t *testing.T) {
	tests := []struct {
		stderr     string
		wantStatus Verdict
		wantReason string
	}{
		{"runtime: failed to create new OS thread (have 131 already; errno=11)\nfatal error: newosproc\n", Crash, ReasonProcessLimit},
		{"fatal error: runtime: out of memory\n\nruntime stack:\n", MemoryLimit, ReasonMemoryLimit},
		{"spam\nruntime: failed to create new OS thread\n", OutputLimit, ""},
		{"", OutputLimit, ""},
	}
	for _, tt := range tests {
		out := RunOutput{Status: OutputLimit, ExitCode: -1, Stderr: tt.stderr}
		crashDump(&out)
		if out.Status != tt.wantStatus || out.Reason != tt.wantReason {
			t.Errorf("%.40q: %s/%q, want %s/%q", tt.stderr, out.Status, out.Reason, tt.wantStatus, tt.wantReason)
		}
	}
}

func TestClassify(t *testing.T) {
	lim := Limits{}.withDefaults()
	tests := []struct {
		name       string
		out        RunOutput
		cpu        time.Duration
		signal     string
		killed     bool
		wantStatus Verdict
		wantReason string
	}{
		{"cpu limit", RunOutput{ExitCode: -1, Status: Crash}, lim.CPUTime, "SIGKILL", false, Timeout, ReasonCPULimit},
		{"killed by us", RunOutput{ExitCode: -1, Status: Timeout}, lim.CPUTime, "SIGKILL", true, Timeout, ""},
		{"sigkill early", RunOutput{ExitCode: -1, Status: Crash}, 10 * time.Millisecond, "SIGKILL", false, Crash, ""},
		{"go out of memory", RunOutput{ExitCode: 2, Status: Crash, Stderr: "fatal error: runtime: out of memory\n"}, 0, "", false, MemoryLimit, ReasonMemoryLimit},
		{"thread limit", RunOutput{ExitCode: 2, Status: Crash, Stderr: "runtime: failed to create new OS thread (have 9 already; errno=11)\n"}, 0, "", false, Crash, ReasonProcessLimit},
		{"fork limit", RunOutput{ExitCode: 1, Status: Pass, Stderr: "fork/exec /proc/self/exe: resource temporarily unavailable\n"}, 0, "", false, Crash, ReasonProcessLimit},
		{"dial", RunOutput{ExitCode: 1, Status: Pass, Stderr: "dial tcp 127.0.0.1:80: connect: network is unreachable\n"}, 0, "", false, Pass, ReasonNetwork},
		{"write", RunOutput{ExitCode: 1, Status: Pass, Stderr: "open /tmp/x: permission denied\n"}, 0, "", false, Pass, ReasonFileAccess},
		{"zero exit", RunOutput{ExitCode: 0, Status: Pass, Stderr: "open /tmp/x: permission denied\n"}, 0, "", false, Pass, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.out
			classify(&got, lim, tt.cpu, tt.signal, tt.killed)
			if got.Status != tt.wantStatus || got.Reason != tt.wantReason {
				t.Errorf("got %s/%q, want %s/%q", got.Status, got.Reason, tt.wantStatus, tt.wantReason)
			}
		})
	}
}
