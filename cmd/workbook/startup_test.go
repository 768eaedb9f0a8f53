package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/workbook-course/workbook/internal/i18n"
)

// TestStartup runs the real workbook binary's help and list, as a Russian learner with no workspace,
// with the runtime's traces on, and checks what keeps start-up short (BENCHMARKS.md has the times):
// no garbage collection runs (internal/firstgc), and chroma parses none of its lexers and styles
// while it initialises (third_party/chroma/WORKBOOK.md).
func TestStartup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the workbook binary")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, exeName("workbook"))
	gobuild(t, ".", exe)
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	gc := regexp.MustCompile(`(?m)^gc \d+ @.*$`)
	chroma := regexp.MustCompile(`(?m)^init github\.com/alecthomas/chroma/v2/(lexers|styles) @.*?, (\d+) bytes,`)
	for _, args := range [][]string{{"help"}, {"list"}} {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(exe, args...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
		cmd.Env = startupEnv(home, "GODEBUG=gctrace=1,inittrace=1")
		if err := cmd.Run(); err != nil {
			t.Fatalf("workbook %v: %v\n%s", args, err, stderr.Bytes())
		}
		if stdout.Len() == 0 {
			t.Errorf("workbook %v printed nothing", args)
		}
		if m := gc.Find(stderr.Bytes()); m != nil {
			t.Errorf("workbook %v collected garbage during start-up: %s", args, m)
		}
		found := map[string]bool{}
		for _, m := range chroma.FindAllSubmatch(stderr.Bytes(), -1) {
			found[string(m[1])] = true
			// Parsing every lexer allocated 2.5 MB and every style 1.7 MB; the Go-written lexers
			// alone allocate about 0.25 MB.
			if n, _ := strconv.Atoi(string(m[2])); n > 512<<10 {
				t.Errorf("workbook %v: chroma's %s allocated %d bytes while initialising, want its registry parsed on first use", args, m[1], n)
			}
		}
		if !found["lexers"] || !found["styles"] {
			t.Errorf("workbook %v: no init trace of chroma's lexers and styles in:\n%s", args, stderr.Bytes())
		}
	}
}

// TestSummariesInCore checks that every command's one-line summary, which `workbook help` lists, is
// in the core message files: internal/i18n parses a language's files part by part, core first, so
// that help parses core alone.
func TestSummariesInCore(t *testing.T) {
	for _, lang := range i18n.UILangs {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "i18n", "locales", "core."+lang+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		var core map[string]any
		if err := toml.Unmarshal(data, &core); err != nil {
			t.Fatal(err)
		}
		for _, name := range commandNames() {
			if _, ok := core[commands[name].summary]; !ok {
				t.Errorf("core.%s.toml has no %s, the summary of %s", lang, commands[name].summary, name)
			}
		}
	}
}
