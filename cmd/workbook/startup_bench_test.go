package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkStartup times a whole process of workbook help and workbook list (a Russian learner
// with no workspace yet), against two floors measured the same way: a Go program that prints one
// line (the Go runtime's own start) and /bin/true where there is one.
//
//	go test ./cmd/workbook -run '^$' -bench Startup -count 5
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	exe := func(name string) string { return filepath.Join(dir, exeName(name)) }
	gobuild(b, ".", exe("workbook"))
	hello := filepath.Join(dir, "hello")
	if err := os.MkdirAll(hello, 0o755); err != nil {
		b.Fatal(err)
	}
	src := "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"
	if err := os.WriteFile(filepath.Join(hello, "main.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hello, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	gobuild(b, hello, exe("hello-go"))

	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(filepath.Join(work, "home"), 0o755); err != nil {
		b.Fatal(err)
	}
	env := startupEnv(filepath.Join(work, "home"))
	type process struct {
		name string
		argv []string
	}
	cases := []process{
		{"help", []string{exe("workbook"), "help"}},
		{"list", []string{exe("workbook"), "list"}},
		{"hello-go", []string{exe("hello-go")}},
	}
	if _, err := os.Stat("/bin/true"); err == nil {
		cases = append(cases, process{"true", []string{"/bin/true"}})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(c.argv[0], c.argv[1:]...)
				cmd.Dir, cmd.Env = work, env
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", c.argv, err, out)
				}
			}
		})
	}
}

// exeName is name as an executable's file name on this system.
func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// startupEnv is the environment of a Russian learner with no workspace and home as their home
// folder: this process's own, without the variables that choose a language or tune the runtime.
func startupEnv(home string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "WORKBOOK_"), strings.HasPrefix(name, "LC_"), name == "LANG", name == "LANGUAGE",
			name == "GOGC", name == "GOMEMLIMIT", name == "GODEBUG", name == "HOME", name == "USERPROFILE":
			continue
		}
		env = append(env, kv)
	}
	return append(env, append([]string{"HOME=" + home, "USERPROFILE=" + home, "WORKBOOK_LANG=ru", "NO_COLOR=1"}, extra...)...)
}

// gobuild builds the main package in dir into exe.
func gobuild(t testing.TB, dir, exe string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", exe, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
}
