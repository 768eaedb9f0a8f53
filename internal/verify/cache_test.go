package verify

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// tinyFS is a course of one small exercise, "tiny": its program prints how many arguments it got,
// and refuses more than two. No case gives it two, so that mutants of `n > 2` survive. (It has a
// Bulgarian solution only: the mutation analysis measures the solutions there are.)
func tinyFS() fstest.MapFS {
	const solution = `package main

import (
	"fmt"
	"os"
)

func main() {
	n := len(os.Args) - 1
	if n > 2 {
		fmt.Fprintln(os.Stderr, "too many")
		os.Exit(2)
	}
	fmt.Println("n:", n)
}
`
	fsys := fstest.MapFS{
		"exercises/tiny/exercise.yaml":          {Data: []byte("order: 1\nlesson: l\ndifficulty: 1\nminutes: 5\ntitle:\n  bg: Т\n  ru: Т\n")},
		"exercises/tiny/bg.md":                  {Data: []byte("# Т\n")},
		"exercises/tiny/equivalent.txt":         {Data: []byte("# none\n")},
		"exercises/tiny/cases/visible/01.txtar": {Data: []byte("# bg: 0\n# ru: 0\nrun\nstdout '^n: 0$'\n")},
		"exercises/tiny/cases/visible/02.txtar": {Data: []byte("# bg: 1\n# ru: 1\nrun a\nstdout '^n: 1$'\n")},
		"exercises/tiny/cases/hidden/01.txtar":  {Data: []byte("# bg: 3\n# ru: 3\n! run a b c\nstatus 2\n! stdout .\n")},
		"exercises/tiny/cases/hidden/02.txtar":  {Data: []byte("# bg: 4\n# ru: 4\n! run a b c d\nstatus 2\n! stdout .\n")},
		"solutions/tiny/bg/main.go":             {Data: []byte(solution)},
		"solutions/tiny/ru/main.go":             {Data: []byte(solution)},
		"exercises/other/exercise.yaml":         {Data: []byte("order: 2\nlesson: l\ndifficulty: 1\nminutes: 5\n")},
		"solutions/other/bg/main.go":            {Data: []byte("package main\n\nfunc main() {}\n")},
	}
	return fsys
}

// TestCacheKey shows that every input of a cached result changes its key, that identical inputs
// share one, and which files each kind of result depends on.
func TestCacheKey(t *testing.T) {
	base := keyInput{Kind: kindMutants, Toolchain: "go1.26.8", Target: "linux/amd64", Sandbox: "namespaces", Code: "c0de",
		Files: []keyFile{{"a/main.go", []byte("package main")}, {"a/cases/01.txtar", []byte("run\n")}}}
	same := base
	same.Files = []keyFile{base.Files[1], base.Files[0]} // another order of the same files
	for _, tc := range []struct {
		name   string
		change func(k *keyInput)
	}{
		{"kind", func(k *keyInput) { k.Kind = kindPrograms }},
		{"toolchain", func(k *keyInput) { k.Toolchain = "go1.26.9" }},
		{"GOOS", func(k *keyInput) { k.Target = "windows/amd64" }},
		{"GOARCH", func(k *keyInput) { k.Target = "linux/arm64" }},
		{"sandbox", func(k *keyInput) { k.Sandbox = "basic" }},
		{"code", func(k *keyInput) { k.Code = "c0df" }},
		{"run limit", func(k *keyInput) { k.Limits.RunTime = time.Second }},
		{"memory limit", func(k *keyInput) { k.Limits.Memory = 1 << 20 }},
		{"a file's bytes", func(k *keyInput) { k.Files = []keyFile{{"a/main.go", []byte("package main ")}, k.Files[1]} }},
		{"a file's name", func(k *keyInput) { k.Files = []keyFile{{"a/main2.go", []byte("package main")}, k.Files[1]} }},
		{"a file more", func(k *keyInput) { k.Files = append(append([]keyFile{}, k.Files...), keyFile{"a/x", nil}) }},
		{"a file less", func(k *keyInput) { k.Files = k.Files[:1] }},
		{"bytes moved between name and data", func(k *keyInput) {
			k.Files = []keyFile{{"a/main.gop", []byte("ackage main")}, k.Files[1]}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := base
			tc.change(&k)
			if got, want := k.sum(), base.sum(); got == want {
				t.Errorf("key = %s, the same as without the change", got)
			}
		})
	}
	if got, want := same.sum(), base.sum(); got != want {
		t.Errorf("the same inputs: key %s, want %s", got, want)
	}

	// Through an exercise: which of its files each kind of result depends on.
	c := &Cache{code: "c0de"}
	keys := func(fsys fstest.MapFS) (programs, mutants string) {
		t.Helper()
		ex, err := course.New(fsys).Exercise("tiny")
		if err != nil {
			t.Fatal(err)
		}
		p, err := cacheKey(ex, kindPrograms, c, checker.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := cacheKey(ex, kindMutants, c, checker.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return p, m
	}
	p0, m0 := keys(tinyFS())
	if p0 == m0 {
		t.Error("the programs' and the mutants' results share a key")
	}
	for _, tc := range []struct {
		name                  string
		change                func(fstest.MapFS)
		wantProgram, wantMuts bool // whether each key changes
	}{
		{"nothing", func(fstest.MapFS) {}, false, false},
		{"the solution", func(f fstest.MapFS) { f["solutions/tiny/bg/main.go"] = &fstest.MapFile{Data: []byte("package main\n")} }, true, true},
		{"a file beside the solution", func(f fstest.MapFS) { f["solutions/tiny/gen.go"] = &fstest.MapFile{Data: []byte("x")} }, true, true},
		{"a case", func(f fstest.MapFS) {
			f["exercises/tiny/cases/hidden/02.txtar"] = &fstest.MapFile{Data: []byte("# bg: 1\n# ru: 1\nrun b\nstdout '^n: 1$'\n")}
		}, true, true},
		{"a new case", func(f fstest.MapFS) {
			f["exercises/tiny/cases/hidden/03.txtar"] = &fstest.MapFile{Data: []byte("run\n")}
		}, true, true},
		{"the generator", func(f fstest.MapFS) {
			y := string(f["exercises/tiny/exercise.yaml"].Data) + "generate:\n  count: 2\n"
			f["exercises/tiny/exercise.yaml"] = &fstest.MapFile{Data: []byte(y)}
		}, true, true},
		{"the equivalent mutants", func(f fstest.MapFS) {
			f["exercises/tiny/equivalent.txt"] = &fstest.MapFile{Data: []byte("bg/main.go:9: `1` → `2` # why\n")}
		}, true, true},
		{"no equivalent mutants", func(f fstest.MapFS) { delete(f, "exercises/tiny/equivalent.txt") }, true, true},
		{"the statement", func(f fstest.MapFS) { f["exercises/tiny/bg.md"] = &fstest.MapFile{Data: []byte("# Т.\n")} }, true, false},
		{"a wrong program", func(f fstest.MapFS) {
			f["exercises/tiny/testdata/wrong/w.txtar"] = &fstest.MapFile{Data: []byte("# lang: bg\n")}
		}, true, false},
		{"another exercise", func(f fstest.MapFS) {
			f["solutions/other/bg/main.go"] = &fstest.MapFile{Data: []byte("package main\n")}
		}, false, false},
	} {
		t.Run("file/"+tc.name, func(t *testing.T) {
			fsys := tinyFS()
			tc.change(fsys)
			p, m := keys(fsys)
			if got := p != p0; got != tc.wantProgram {
				t.Errorf("the programs' key changed: %v, want %v", got, tc.wantProgram)
			}
			if got := m != m0; got != tc.wantMuts {
				t.Errorf("the mutants' key changed: %v, want %v", got, tc.wantMuts)
			}
		})
	}
}

// testCache is a cache in a folder of the test's own.
func testCache(t *testing.T) *Cache {
	dir := filepath.Join(t.TempDir(), "verify")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return &Cache{dir: dir, code: "test", read: true}
}

// TestCacheEntries stores an entry and reads it back, and shows that a damaged, replaced or untrusted
// entry is not read.
func TestCacheEntries(t *testing.T) {
	want := &entry{Exercise: "tiny", Problems: []Problem{{File: "solutions/tiny/bg/main.go", Line: 9, Code: "mutant_survived",
		Args: []any{"What", "`n > 2` → `n >= 2`", "N", 3}, Msg: "m"}},
		Mutation: &Mutation{Mutants: 12, Killed: 11, Survivors: []Survivor{{File: "solutions/tiny/bg/main.go", Line: 9, What: "`n > 2` → `n >= 2`"}}, Elapsed: time.Second}}
	const key = "0123abcd"
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, file string)
		ok     bool
	}{
		{"intact", func(*testing.T, string) {}, true},
		{"a byte changed", func(t *testing.T, file string) {
			data, _ := os.ReadFile(file)
			data[len(data)-5] ^= 1
			writeOver(t, file, data)
		}, false},
		{"cut short", func(t *testing.T, file string) {
			data, _ := os.ReadFile(file)
			writeOver(t, file, data[:len(data)/2])
		}, false},
		{"empty", func(t *testing.T, file string) { writeOver(t, file, nil) }, false},
		{"another key's entry", func(t *testing.T, file string) {
			c := &Cache{dir: t.TempDir(), code: "test", read: true}
			c.put("ffff", &entry{Exercise: "tiny"})
			data, _ := os.ReadFile(filepath.Join(c.dir, "ffff"))
			writeOver(t, file, data)
		}, false},
		{"writable by others", func(t *testing.T, file string) {
			if err := os.Chmod(file, 0o666); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a symbolic link", func(t *testing.T, file string) {
			other := filepath.Join(t.TempDir(), "entry")
			data, _ := os.ReadFile(file)
			if err := os.WriteFile(other, data, 0o600); err != nil {
				t.Fatal(err)
			}
			os.Remove(file)
			if err := os.Symlink(other, file); err != nil {
				t.Skip("no symbolic links here")
			}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCache(t)
			c.put(key, want)
			tc.damage(t, filepath.Join(c.dir, key))
			got := c.get(key)
			if !tc.ok {
				if got != nil {
					t.Errorf("get = %+v, want nothing", got)
				}
				return
			}
			if got == nil {
				t.Fatal("get = nil, want the entry")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("get = %+v\nwant %+v", got, want)
			}
		})
	}
	t.Run("refresh", func(t *testing.T) {
		c := testCache(t)
		c.put(key, want)
		c.read = false
		if got := c.get(key); got != nil {
			t.Errorf("with --no-cache, get = %+v, want nothing", got)
		}
	})
	t.Run("none", func(t *testing.T) {
		var c *Cache
		c.put(key, want)
		if got := c.get(key); got != nil || c.Enabled() {
			t.Errorf("a nil cache: get = %+v, enabled %v", got, c.Enabled())
		}
	})
}

func writeOver(t *testing.T, file string, data []byte) {
	t.Helper()
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestMutateCached measures a small exercise's cases, takes the result from the cache the second
// time, and measures again when the entry is damaged or untrusted, or when a case changes.
func TestMutateCached(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mutants")
	}
	fsys := tinyFS()
	ex, err := course.New(fsys).Exercise("tiny")
	if err != nil {
		t.Fatal(err)
	}
	c := testCache(t)
	ctx := context.Background()
	measure := func(wantCached bool) *Mutation {
		t.Helper()
		m, probs, cached, err := MutateCached(ctx, ex, checker.Limits{}, c)
		if err != nil {
			t.Fatal(err)
		}
		if cached != wantCached {
			t.Fatalf("cached = %v, want %v", cached, wantCached)
		}
		if m == nil || m.Mutants == 0 || len(m.Survivors) != len(probs) {
			t.Fatalf("mutation %+v with problems %v", m, probs)
		}
		return m
	}
	first := measure(false)
	if len(first.Survivors) == 0 {
		t.Fatalf("the cases of tiny miss `n > 2` → `n >= 2` and more, yet no mutant survives: %+v", first)
	}
	again := measure(true)
	if !reflect.DeepEqual(again, first) {
		t.Errorf("from the cache: %+v\nmeasured: %+v", again, first)
	}
	key, err := cacheKey(ex, kindMutants, c, checker.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(c.dir, key)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	writeOver(t, file, data)
	measure(false) // damaged: measured again, and stored afresh
	measure(true)
	if err := os.Chmod(file, 0o622); err != nil {
		t.Fatal(err)
	}
	measure(false) // untrusted
	measure(true)

	// A case that kills the survivors: the exercise is measured again, with none left.
	fsys["exercises/tiny/cases/hidden/03.txtar"] = &fstest.MapFile{Data: []byte("# bg: 2\n# ru: 2\nrun x y\nstdout '^n: 2$'\n")}
	if m := measure(false); len(m.Survivors) >= len(first.Survivors) {
		t.Errorf("with a case more, %d survivors; without it, %d", len(m.Survivors), len(first.Survivors))
	}
}
