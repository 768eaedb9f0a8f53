package checker

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// vtimeProgram is a virtual-time program whose -mode picks what it does after two minutes of sleep.
const vtimeProgram = `package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/workbook-course/workbook/checker/flaky"
)

func main() {
	mode := flag.String("mode", "ok", "")
	script := flag.String("script", "503@120ms,timeout,ok@40ms", "")
	flag.Parse()
	start := time.Now()
	time.Sleep(2 * time.Minute)
	fmt.Println("slept", time.Since(start), flag.Args())
	switch *mode {
	case "leak":
		ch := make(chan int)
		go func() { ch <- 1 }()
	case "deadlock":
		ch := make(chan int)
		<-ch
	case "panic":
		panic("boom")
	case "exit":
		os.Exit(3)
	case "http":
		svc, err := flaky.New("pay", *script)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		c := svc.Client()
		for i := 0; i < 3; i++ {
			t0 := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			req, _ := http.NewRequestWithContext(ctx, "GET", svc.URL(), nil)
			resp, err := c.Do(req)
			if err != nil {
				fmt.Println(time.Since(t0), "error:", ctx.Err())
				cancel()
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			cancel()
			fmt.Printf("%v %d %s", time.Since(t0), resp.StatusCode, body)
		}
	case "nobodyclose":
		svc, _ := flaky.New("pay", "ok")
		resp, err := svc.Client().Get(svc.URL())
		fmt.Println(resp.StatusCode, err)
	}
}
`

func buildVirtual(t *testing.T, src string) *Program {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := Build(context.Background(), dir, Limits{Virtual: true, RunTime: 20 * time.Second})
	if err != nil {
		var bf *BuildFailure
		if errors.As(err, &bf) {
			t.Fatalf("build: %s %s", bf.Reason, bf.Log)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { prog.Close() })
	return prog
}

func TestVirtualRuns(t *testing.T) {
	prog := buildVirtual(t, vtimeProgram)
	tests := []struct {
		args     []string
		stdout   string
		exit     int
		status   Verdict
		reason   string
		blocked  string // Func:Line of the goroutine left blocked
		waitWord string
	}{
		{args: []string{"a", "b"}, stdout: "slept 2m0s [a b]\n", status: Pass},
		{args: []string{"-mode", "exit"}, stdout: "slept 2m0s []\n", exit: 3, status: Pass},
		{args: []string{"-mode", "panic"}, stdout: "slept 2m0s []\n", exit: 2, status: Crash},
		{args: []string{"-mode", "leak"}, stdout: "slept 2m0s []\n", exit: vtimeLeakCode, status: Crash, reason: ReasonLeak,
			blocked: "main.main.func1:25", waitWord: "chan send"},
		{args: []string{"-mode", "deadlock"}, stdout: "slept 2m0s []\n", exit: 2, status: Crash, reason: ReasonDeadlock,
			blocked: "main.main:28", waitWord: "chan receive"},
		{args: []string{"-mode", "http"}, status: Pass,
			stdout: "slept 2m0s []\n120ms 503 pay: 503 Service Unavailable, call 1\n1s error: context deadline exceeded\n40ms 200 pay: 200 OK, call 3\n"},
		{args: []string{"-mode", "nobodyclose"}, stdout: "slept 2m0s []\n200 <nil>\n", exit: vtimeLeakCode, status: Crash, reason: ReasonLeak},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := prog.Run(context.Background(), "", tt.args, "")
			if out.Stdout != tt.stdout || out.ExitCode != tt.exit || out.Status != tt.status || out.Reason != tt.reason {
				t.Fatalf("got stdout %q exit %d status %s reason %q, want %q %d %s %q\nstderr:\n%s",
					out.Stdout, out.ExitCode, out.Status, out.Reason, tt.stdout, tt.exit, tt.status, tt.reason, out.Stderr)
			}
			if strings.Contains(out.Stderr, "PASS") || strings.Contains(out.Stderr, "--- FAIL") {
				t.Errorf("the testing package's lines reached stderr: %q", out.Stderr)
			}
			if tt.blocked != "" {
				b := out.Blocked
				if b == nil {
					t.Fatalf("no Blocked; stderr:\n%s", out.Stderr)
				}
				if got := b.Func + ":" + strconv.Itoa(b.Line); got != tt.blocked || b.File != "main.go" || b.Wait != tt.waitWord {
					t.Errorf("blocked %+v, want %s in main.go waiting on %s", *b, tt.blocked, tt.waitWord)
				}
			}
		})
	}
}

func TestVirtualRefusedImport(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n\nimport \"os/exec\"\n\nfunc main() { exec.Command(\"ls\").Run() }\n"
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
	_, err := Build(context.Background(), dir, Limits{Virtual: true})
	var bf *BuildFailure
	if !errors.As(err, &bf) || bf.Reason != "vtime_import" || !strings.Contains(bf.Log, `main.go:3: import "os/exec"`) {
		t.Fatalf("got %v, want a vtime_import build failure naming main.go:3", err)
	}
}

// A run that waits on something outside the bubble (here a pipe no one writes to) lets no virtual
// time pass: it ends at its wall limit, named as such, and never hangs the check.
func TestVirtualNotDurable(t *testing.T) {
	t.Parallel() // waits out a limit; runs beside the other tests that do (see withoutExeCache)
	dir := t.TempDir()
	src := "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"time\"\n)\n\nfunc main() {\n\tr, _, _ := os.Pipe()\n\tgo func() { time.Sleep(time.Hour); fmt.Println(\"late\") }()\n\tr.Read(make([]byte, 1))\n}\n"
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
	prog, err := Build(context.Background(), dir, Limits{Virtual: true, RunTime: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	out := prog.Run(context.Background(), "", nil, "")
	if out.Status != Timeout || out.Reason != ReasonNotDurable || out.Stdout != "" {
		t.Fatalf("got %s %q stdout %q, want timeout %s", out.Status, out.Reason, out.Stdout, ReasonNotDurable)
	}
}

func TestBlockedGoroutine(t *testing.T) {
	dump := `panic: deadlock: all goroutines in bubble are blocked [recovered, repanicked]

goroutine 19 [running]:
testing.tRunner.func1.2({0x56edc0, 0x265ba1ea00f0})
	$GOROOT/src/testing/testing.go:1974 +0x232

goroutine 20 [chan receive (durable), synctest bubble 1]:
testing/synctest.testingSynctestTest(0x265ba1e9c488, 0x596f68)
	$GOROOT/src/testing/testing.go:2151 +0x292

goroutine 23 [select (durable), synctest bubble 1]:
net/http.(*persistConn).readLoop(0xc000)
	$GOROOT/src/net/http/transport.go:2300 +0x1
created by net/http.(*Transport).dialConn in goroutine 21
	$GOROOT/src/net/http/transport.go:1900 +0x1

goroutine 21 [sync.WaitGroup.Wait (durable), synctest bubble 1]:
sync.(*WaitGroup).Wait(0x1)
	$GOROOT/src/sync/waitgroup.go:118 +0x48
mutants/m0003.fetch(0x1)
	m0003/main.go:41 +0x24c
mutants/m0003.Main()
	m0003/main.go:12 +0x24c
`
	got := blockedGoroutine(dump)
	want := Blocked{Goroutine: 21, Wait: "sync.WaitGroup.Wait", Func: "main.fetch", File: "m0003/main.go", Line: 41}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestLocalWorld builds a virtual-time program that imports the flaky service with the learner's
// own go command, as a workspace lays it out: offline, with a go.mod of module and go lines only.
func TestLocalWorld(t *testing.T) {
	goBin, err := GoTool()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	files := LocalWorld()
	files["go.mod"] = []byte("module exercise\n\ngo " + GoVersion() + "\n")
	files["main.go"] = []byte(vtimeProgram)
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBin, "vet", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=", "GOWORK=", "GOCACHE="+GoCache())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet in the learner's folder: %v\n%s", err, out)
	}
}

// isVirtualExercise reports whether the exercise folder dir says "time: virtual" in its
// exercise.yaml (the course package reads it properly; the checker's tests only need to tell).
func isVirtualExercise(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "exercise.yaml"))
	return err == nil && strings.Contains("\n"+string(data), "\ntime: virtual\n")
}

// TestVirtualGoroutinesOutsideTheBubble checks that only the bubble's goroutines count as left
// behind: goroutines outside it (here started by init, which runs before the bubble; in real runs
// the runtime's and the testing package's) come and go at any moment, and an honest program that
// happened to finish while one was alive got a leak verdict on a busy machine.
func TestVirtualGoroutinesOutsideTheBubble(t *testing.T) {
	prog := buildVirtual(t, `package main

import (
	"fmt"
	"time"
)

func init() {
	go func() {
		for {
			go time.Sleep(time.Duration(time.Now().UnixNano()%3) * time.Millisecond)
			time.Sleep(200 * time.Microsecond)
		}
	}()
}

func main() {
	time.Sleep(time.Minute)
	fmt.Println("done")
}
`)
	for i := range 20 {
		out := prog.Run(context.Background(), "", nil, "")
		if out.Status != Pass || out.Stdout != "done\n" || out.ExitCode != 0 {
			t.Fatalf("run %d: status %s reason %q exit %d stdout %q\nstderr:\n%s", i, out.Status, out.Reason, out.ExitCode, out.Stdout, out.Stderr)
		}
	}
}
