package checker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// TestExeCache checks that unchanged sources reuse their executable and changed ones do not, and
// that a program from the cache runs as the one built.
func TestExeCache(t *testing.T) {
	if exeCacheDir() == "" {
		t.Skip("no cache of executables where the sandbox has no file rules")
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	write := func(msg string) {
		prog := "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"" + msg + "\") }\n"
		if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(prog), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	build := func(step string, wantCached bool, wantOut string) {
		t.Helper()
		p, err := Build(ctx, src, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		defer p.Close()
		if p.Cached != wantCached {
			t.Errorf("%s: cached %v, want %v", step, p.Cached, wantCached)
		}
		if out := p.Run(ctx, "", nil, ""); out.Stdout != wantOut {
			t.Errorf("%s: printed %q, want %q", step, out.Stdout, wantOut)
		}
	}
	b := make([]byte, 8)
	rand.Read(b)
	tok := hex.EncodeToString(b) // so that no earlier test run left these sources in the cache
	write("one " + tok)
	build("first", false, "one "+tok+"\n")
	build("unchanged", true, "one "+tok+"\n")
	write("two " + tok)
	build("edited", false, "two "+tok+"\n")
	os.WriteFile(filepath.Join(src, "notes.txt"), []byte("not part of the build"), 0o644)
	build("a file that takes no part", true, "two "+tok+"\n")
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module other\n\ngo 1.26\n"), 0o644)
	build("a go.mod of its own", false, "two "+tok+"\n")
}
