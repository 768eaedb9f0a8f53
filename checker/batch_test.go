package checker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeProgram(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBuildMany builds programs that share one go command, and programs that cannot, and checks
// that each gets what Build alone would give it.
func TestBuildMany(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	hello := func(word string) map[string]string {
		return map[string]string{"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"" + word + "\") }\n"}
	}
	srcs := []string{
		writeProgram(t, hello("один")),
		writeProgram(t, map[string]string{"main.go": "package main\n\nfunc main() {\n\tx := 1\n}\n"}),
		writeProgram(t, hello("две")),
		// Imports a package of its own module: built alone, where its go.mod makes it work.
		writeProgram(t, map[string]string{
			"go.mod":      "module hw\n\ngo 1.22\n",
			"main.go":     "package main\n\nimport (\n\t\"fmt\"\n\n\t\"hw/words\"\n)\n\nfunc main() { fmt.Println(words.Three) }\n",
			"words/w.go":  "package words\n\nconst Three = \"три\"\n",
			"words/x.txt": "not go",
		}),
		// Asks for a module it cannot have offline: built alone, and fails as Build fails.
		writeProgram(t, map[string]string{
			"go.mod":  "module hw\n\ngo 1.22\n\nrequire example.com/nothing v1.0.0\n",
			"main.go": "package main\n\nimport \"example.com/nothing\"\n\nfunc main() { nothing.Do() }\n",
		}),
		writeProgram(t, map[string]string{"lib.go": "package lib\n"}),
		writeProgram(t, hello("четыре")),
	}
	progs, errs := BuildMany(context.Background(), srcs, Limits{})
	defer func() {
		for _, p := range progs {
			p.Close()
		}
	}()
	wantOut := map[int]string{0: "один\n", 2: "две\n", 3: "три\n", 6: "четыре\n"}
	for i, want := range wantOut {
		if errs[i] != nil || progs[i] == nil {
			t.Errorf("program %d: %v", i, errs[i])
			continue
		}
		if out := progs[i].Run(context.Background(), "", nil, ""); out.Stdout != want || out.Status != Pass {
			t.Errorf("program %d printed %q (%s), want %q", i, out.Stdout, out.Status, want)
		}
	}
	var bf *BuildFailure
	if !errors.As(errs[1], &bf) || bf.Verdict != BuildError || !strings.Contains(bf.Log, "main.go:4:2: declared and not used: x") {
		t.Errorf("program 1: %v", errs[1])
	}
	// The log of a program that failed in a batch is the one Build gives it alone.
	if _, err := Build(context.Background(), srcs[1], Limits{}); err == nil || err.Error() != errs[1].Error() {
		t.Errorf("Build alone says %v, the batch %v", err, errs[1])
	}
	if !errors.As(errs[4], &bf) || bf.Verdict != BuildError {
		t.Errorf("program 4: %v", errs[4])
	}
	if !errors.As(errs[5], &bf) || bf.Verdict != NoProgram {
		t.Errorf("program 5: %v", errs[5])
	}
}

func TestPlainGoMod(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"module hw\n\ngo 1.22\n", true},
		{"module hw // mine\ngo 1.26\n", true},
		{"module hw\n\ngo 1.21\n", false}, // loop variables shared between iterations
		{"module hw\n\ngo 1.99\n", false},
		{"module hw\n\ngo 1.22\n\nrequire example.com/x v1.0.0\n", false},
		{"module hw\n\ngo 1.22\ntoolchain go1.26.0\n", false},
		{"module hw\n\ngo 1.22\nreplace a => ./b\n", false},
	}
	for _, tt := range tests {
		if got := plainGoMod(tt.text); got != tt.want {
			t.Errorf("plainGoMod(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestIsStd(t *testing.T) {
	for path, want := range map[string]bool{
		"fmt": true, "net/http": true, "math/rand/v2": true,
		"example.com/x": false, "hw/words": false, "internal/cpu": false, "C": false, "cmd/go": false,
		// Paths the go command cannot load as a package: they fail the whole batch, blamed on no one.
		"database": false, "fmt/": false, "fmt/../os": false, "syscall/js": false, "runtime/testdata/testprog": false,
	} {
		if got := isStd(path); got != want {
			t.Errorf("isStd(%q) = %v, want %v", path, got, want)
		}
	}
}
