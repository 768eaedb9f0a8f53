package modproxy

import (
	"archive/zip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWrite publishes a small module from a git repository and checks the folder: the files of the
// GOPROXY protocol, the zip holding what is committed and nothing git ignores or a nested module
// holds, and the go command downloading the version from it with no other proxy.
func TestWrite(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	files := map[string]string{
		"go.mod":             "module example.com/Pub\n\ngo 1.22\n",
		"pub.go":             "package pub\n\nconst X = 1\n",
		"cmd/tool/main.go":   "package main\n\nfunc main() {}\n",
		"lessons/ru.md":      "# Урок\n",
		".gitignore":         "my/\n",
		"my/mine.go":         "package mine\n", // git-ignored: never published
		"nested/go.mod":      "module example.com/Pub/nested\n",
		"nested/nested.go":   "package nested\n",
		"uncommitted/new.go": "package uncommitted\n",
	}
	for name, data := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(dir string, env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	gitEnv := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_COMMITTER_DATE=2026-12-01T10:00:00Z", "GIT_AUTHOR_DATE=2026-12-01T10:00:00Z"}
	run(repo, gitEnv, "git", "init", "-q")
	run(repo, gitEnv, "git", "add", "go.mod", "pub.go", "cmd", "lessons", ".gitignore", "nested")
	run(repo, gitEnv, "git", "commit", "-q", "-m", "one")

	proxy := t.TempDir()
	m, err := Write(proxy, repo, "HEAD", "")
	if err != nil {
		t.Fatal(err)
	}
	if m.Path != "example.com/Pub" || !strings.HasPrefix(m.Version, "v0.0.0-20261201100000-") {
		t.Fatalf("Write = %v, want example.com/Pub at the commit's pseudo-version", m)
	}
	vdir := filepath.Join(proxy, "example.com", "!pub", "@v") // upper case escaped
	list, err := os.ReadFile(filepath.Join(vdir, "list"))
	if err != nil || string(list) != m.Version+"\n" {
		t.Errorf("list = %q, %v; want %q", list, err, m.Version+"\n")
	}
	var info struct{ Version, Time string }
	data, err := os.ReadFile(filepath.Join(vdir, m.Version+".info"))
	if err != nil || json.Unmarshal(data, &info) != nil || info.Version != m.Version || info.Time != "2026-12-01T10:00:00Z" {
		t.Errorf(".info = %s, %v", data, err)
	}
	if mod, err := os.ReadFile(filepath.Join(vdir, m.Version+".mod")); err != nil || string(mod) != files["go.mod"] {
		t.Errorf(".mod = %q, %v", mod, err)
	}
	zr, err := zip.OpenReader(filepath.Join(vdir, m.Version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var got []string
	for _, f := range zr.File {
		got = append(got, f.Name)
	}
	slices.Sort(got)
	prefix := "example.com/Pub@" + m.Version + "/" // file names inside are not escaped
	want := []string{prefix + ".gitignore", prefix + "cmd/tool/main.go", prefix + "go.mod", prefix + "lessons/ru.md", prefix + "pub.go"}
	if !slices.Equal(got, want) {
		t.Errorf("zip holds\n%q\nwant\n%q", got, want)
	}

	// The go command takes the version from the folder alone.
	cache := t.TempDir()
	out := run(t.TempDir(), []string{"GOPROXY=file://" + filepath.ToSlash(proxy), "GOSUMDB=off", "GOFLAGS=-modcacherw",
		"GOMODCACHE=" + cache, "GOWORK=off", "GOTOOLCHAIN=local"}, "go", "mod", "download", "-json", "example.com/Pub@"+m.Version)
	if !strings.Contains(out, `"Version": "`+m.Version+`"`) || strings.Contains(out, `"Error"`) {
		t.Errorf("go mod download:\n%s", out)
	}
}
