//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestSuggestedCommandsRun: every command a learner's session suggests runs where it is shown. In a
// fresh copy of the repository, used as a learner's clone is (go run ./cmd/workbook, its workspace
// made by the first command), a scripted learner asks what to do, checks the starter, asks for a
// hint, solves the exercise and checks it again, from the clone's root and from the exercise's own
// folder; each command line any of it suggests is then run, as it is written, in the folder it was
// shown in. None may be "command not found" (a bare `workbook`, which a clone does not install) nor
// a usage error (go run's "exit status 2").
func TestSuggestedCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the repository and runs the tool with go run")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	clone := copyRepo(t)
	gomod, err := exec.Command(goTool, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	// No workbook installed: only the go command's folder and the system's.
	environ := []string{
		"PATH=" + filepath.Dir(goTool) + ":/usr/bin:/bin",
		"HOME=" + home, "TMPDIR=" + os.TempDir(),
		"GOCACHE=" + checker.GoCache(), "GOMODCACHE=" + strings.TrimSpace(string(gomod)),
		"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=",
		"WORKBOOK_LANG=ru", "NO_COLOR=1",
	}
	s := &suggestSession{t: t, environ: environ, seen: map[string]bool{}}

	const ex = "exercise-timeout"
	s.run(clone, "go run ./cmd/workbook")
	s.run(clone, "go run ./cmd/workbook check "+ex)
	s.run(clone, "go run ./cmd/workbook hint "+ex)
	exDir := filepath.Join(clone, "my", "ru", ex)
	solution, err := os.ReadFile(filepath.Join(clone, "solutions", ex, "ru", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(exDir, "main.go"), solution, 0o644); err != nil {
		t.Fatal(err)
	}
	s.run(exDir, "go -C ../../.. run ./cmd/workbook check")
	s.run(clone, "go run ./cmd/workbook check "+ex)

	// Every suggestion, once, where it was shown; and what those suggest, one level further.
	for round := 0; round < 2; round++ {
		list := s.suggested
		s.suggested = nil
		for _, sg := range list {
			s.run(sg.dir, sg.line, sg.from)
		}
	}
	t.Logf("%d command lines run", s.ran)
	if s.ran < 8 {
		t.Errorf("the session ran %d command lines; a scripted session suggests more", s.ran)
	}
}

type suggestion struct{ dir, line, from string }

type suggestSession struct {
	t         *testing.T
	environ   []string
	seen      map[string]bool // dir + line, run already
	suggested []suggestion
	ran       int
}

// run runs line in dir as a shell would (its words, no shell syntax), fails the test if it is a
// command not found or a usage error, and notes the commands its output suggests. A command that
// goes on until stopped (watch, serve) is stopped once it has said its first line.
func (s *suggestSession) run(dir, line string, from ...string) {
	t := s.t
	t.Helper()
	key := dir + "\x00" + line
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	s.ran++
	t.Logf("%s$ %s", filepath.Base(dir), line)
	args := strings.Fields(line)
	exe := s.lookPath(args[0])
	if exe == "" {
		t.Errorf("in %s: %s: command not found (suggested by %s)", dir, line, from)
		return
	}
	cmd := exec.CommandContext(context.Background(), exe, args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(s.environ, "PWD="+dir) // as a shell sets it
	// No answer to any question: a quiz stops at its first (exit 2, said on stdout, not a usage
	// error); a question that would replace a file is answered no.
	cmd.Stdin = strings.NewReader("")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // go run's child is stopped with it
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sub := subcommand(args)
	if sub == "watch" || sub == "serve" {
		first, _ := bufio.NewReader(io.TeeReader(stdout, &out)).ReadString('\n')
		if first != "" {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		io.Copy(io.Discard, stdout)
	} else {
		io.Copy(&out, stdout)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Errorf("in %s: %s: %v", dir, line, err)
	}
	// A usage error: exit 2 (go run says "exit status 2" and exits 1) with the tool's error.
	usage := strings.Contains(stderr.String(), "exit status 2") || cmd.ProcessState.ExitCode() == 2
	if usage && strings.Contains(stderr.String(), "workbook: ") {
		t.Errorf("in %s: %s is a usage error (suggested by %s):\n%s", dir, line, from, stderr.String())
	}
	for _, sg := range suggestedLines(out.String() + stderr.String()) {
		s.suggested = append(s.suggested, suggestion{dir, sg, line})
	}
}

// lookPath finds the command name in the session's PATH (not the test's, where testscript puts a
// workbook of its own), "" when there is none.
func (s *suggestSession) lookPath(name string) string {
	for _, kv := range s.environ {
		if list, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(list) {
				p := filepath.Join(dir, name)
				if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0 {
					return p
				}
			}
		}
	}
	return ""
}

// subcommand is the workbook command a command line runs, "" for none.
func subcommand(args []string) string {
	for i, a := range args {
		if strings.HasSuffix(a, "workbook") && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// suggestedRE finds a command the tool suggests: an invocation of workbook (installed, or through
// go run from here), then a command of it and its arguments; or an invocation alone, in quotes.
var suggestedRE = regexp.MustCompile(`(?:go -C \S+ run \./cmd/workbook|go run \./cmd/workbook|(?:^|[\s«„“"'(])workbook)((?: [A-Za-z0-9_./=-]+)*)`)

// placeholder is a word that stands for what the learner fills in (NAME, DIR, …): such a line is
// a pattern, not a command.
var placeholder = regexp.MustCompile(`^[A-Z][A-Z_]*$|…`)

// placeholderAfter is a placeholder in any script (ЗАДАЧА) right after a command's words, on the
// same line or, where a terminal wrapped it, the next.
var placeholderAfter = regexp.MustCompile(`^\s+\p{Lu}[\p{Lu}_]*(?:[^\p{L}]|$)`)

// suggestedLines are the command lines text suggests (suggestedRE): a bare `workbook` only where
// it is a command (followed by one of its commands, or alone in quotes), so that prose that names
// the course is left alone.
func suggestedLines(text string) []string {
	names := map[string]bool{}
	for _, n := range commandNames() {
		names[n] = true
	}
	var lines []string
	for _, m := range suggestedRE.FindAllStringSubmatchIndex(text, -1) {
		whole := strings.TrimLeft(text[m[0]:m[1]], " \t\n«„“\"'(")
		args := strings.Fields(text[m[2]:m[3]])
		// A sentence's full stop is not part of the command.
		if n := len(args); n > 0 {
			args[n-1] = strings.TrimRight(args[n-1], ".")
		}
		invocation := strings.TrimSuffix(whole, text[m[2]:m[3]])
		if len(args) > 0 && !names[args[0]] {
			args = nil // prose after the invocation
		}
		if len(args) == 0 {
			if next := text[m[1]:min(m[1]+3, len(text))]; invocation == "workbook" && !strings.ContainsAny(firstRune(next), "»“\"'") {
				continue // the word, not a command
			}
		}
		pattern := placeholderAfter.MatchString(text[m[1]:])
		for _, a := range args {
			pattern = pattern || placeholder.MatchString(a)
		}
		if !pattern {
			lines = append(lines, strings.TrimSpace(invocation+" "+strings.Join(args, " ")))
		}
	}
	return lines
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

// copyRepo copies the repository's files (those git tracks or would, as a fresh clone holds) into
// a temporary folder, and returns it.
func copyRepo(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("git cannot list the repository's files: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "workbook")
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(repoRoot, name)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the working tree, or not a file
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestSuggestedLines: what TestSuggestedCommandsRun takes for a suggested command line.
func TestSuggestedLines(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Stuck? 'go run ./cmd/workbook hint exercise-retry' gives a hint.", []string{"go run ./cmd/workbook hint exercise-retry"}},
		{"Дальше: задача «Т»\u00A0— go -C ../../.. run ./cmd/workbook check exercise-retry", []string{"go -C ../../.. run ./cmd/workbook check exercise-retry"}},
		{"Решение проверяет команда workbook check exercise-deadline. Запущенная без аргументов", []string{"workbook check exercise-deadline"}},
		{"«workbook progress» покажет весь курс, «workbook»\u00A0— что ещё осталось", []string{"workbook progress", "workbook"}},
		{"укажите одну задачу: workbook check ЗАДАЧА (например, workbook check exercise-deadline)", []string{"workbook check exercise-deadline"}},
		{"go run ./cmd/workbook serve --open и откройте", []string{"go run ./cmd/workbook serve --open"}},
		{"workbook: the workbook course; workbook list NAME", nil},
		{"вызывается как `go run ./cmd/workbook check\n  ИМЯ`.", nil},
	}
	for _, tt := range tests {
		got := suggestedLines(tt.text)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("suggestedLines(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
