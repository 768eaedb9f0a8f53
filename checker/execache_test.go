package checker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
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

// TestCachedExeMeetsTodaysLimits checks that an executable cached under a generous memory limit is
// checked again under a smaller one: its static data is refused (static_data), alone and in a batch,
// as a fresh build of it would be.
func TestCachedExeMeetsTodaysLimits(t *testing.T) {
	if exeCacheDir() == "" {
		t.Skip("no cache of executables where the sandbox has no file rules")
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(src, 0o755)
	b := make([]byte, 8)
	rand.Read(b)
	prog := "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// " + hex.EncodeToString(b) +
		"\nvar ballast = [...]byte{100 << 20: 0}\n\nfunc main() { fmt.Println(ballast[len(os.Args)]) }\n"
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := Build(ctx, src, Limits{Memory: 512 << 20})
	if err != nil {
		t.Fatalf("under 512 MiB: %v", err)
	}
	p.Close()
	small := Limits{Memory: 128 << 20}
	var bf *BuildFailure
	if p, err := Build(ctx, src, small); !errors.As(err, &bf) || bf.Reason != "static_data" {
		if p != nil {
			p.Close()
		}
		t.Errorf("alone under 128 MiB: %v, want a build error static_data", err)
	}
	progs, errs := BuildMany(ctx, []string{src}, small)
	for _, p := range progs {
		if p != nil {
			p.Close()
		}
	}
	if !errors.As(errs[0], &bf) || bf.Reason != "static_data" {
		t.Errorf("in a batch under 128 MiB: %v, want a build error static_data", errs[0])
	}
}

// withoutExeCache makes the checker build without the cache of executables until t ends, for a test
// that compares builds; it may run in parallel with other such tests, but not with a test that uses
// the cache (those are not parallel).
func withoutExeCache(t testing.TB) {
	testNoCache.Add(1)
	t.Cleanup(func() { testNoCache.Add(-1) })
}
