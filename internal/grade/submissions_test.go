package grade

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"
)

func TestList(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"Иван Петров", "Мария", ".git", "__MACOSX"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	for _, f := range []string{"Мария.zip", "Петя Колева.ZIP", "solo.go", "notes.txt", ".DS_Store"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	// macOS hands names over decomposed: "й" as "и" and a combining breve.
	os.MkdirAll(filepath.Join(dir, "Николаи\u0306"), 0o755)
	subs, skipped, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range subs {
		got = append(got, s.Name+"|"+s.Kind)
	}
	want := []string{"solo|go", "Иван Петров|dir", "Мария|dir", "Мария.zip|zip", "Николай|dir", "Петя Колева|zip"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List: got %q, want %q", got, want)
	}
	if !reflect.DeepEqual(skipped, []string{"notes.txt"}) {
		t.Errorf("skipped: got %q", skipped)
	}
	if s, ok := Select(subs, "иван петров"); !ok || s.Name != "Иван Петров" {
		t.Errorf("Select: got %v, %v", s, ok)
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want Shard
		bad  bool
	}{
		{"1/1", Shard{1, 1}, false},
		{"3/8", Shard{3, 8}, false},
		{" 2 / 4 ", Shard{2, 4}, false},
		{"0/4", Shard{}, true},
		{"5/4", Shard{}, true},
		{"1/0", Shard{}, true},
		{"3", Shard{}, true},
		{"a/b", Shard{}, true},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.in)
		if got != tt.want || (err != nil) != tt.bad {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, bad=%v", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

// TestShardsPartition checks that every student falls in exactly one slice, for every cut.
func TestShardsPartition(t *testing.T) {
	var names []string
	for i := 0; i < 300; i++ {
		names = append(names, fmt.Sprintf("Студент %d", i))
	}
	for n := 1; n <= 9; n++ {
		count := make([]int, n+1)
		for _, name := range names {
			in := 0
			for k := 1; k <= n; k++ {
				if (Shard{K: k, N: n}).Has(name) {
					in++
					count[k]++
				}
			}
			if in != 1 {
				t.Fatalf("n=%d: %s is in %d slices", n, name, in)
			}
		}
		for k := 1; k <= n; k++ {
			if n > 1 && count[k] < len(names)/n/2 {
				t.Errorf("n=%d: slice %d has only %d of %d students", n, k, count[k], len(names))
			}
		}
	}
}

func TestSourceHash(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	s := Submission{Name: "x", Path: dir, Kind: KindDir}
	h1, err := SourceHash(s)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref"), 0o644)
	if h2, _ := SourceHash(s); h2 != h1 {
		t.Errorf("a hidden folder changed the hash")
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main // changed\n"), 0o644)
	if h3, _ := SourceHash(s); h3 == h1 {
		t.Errorf("a changed file kept the hash")
	}
}

// TestNamesNotUTF8: entries whose names are not UTF-8 (a folder named in a legacy code page, a name
// cut in the middle of a letter) become students with names of their own, in UTF-8, that the
// journal gives back after a rerun, each their own record, and that Select finds as the report
// shows them; a folder whose name is that text already stays apart.
func TestNamesNotUTF8(t *testing.T) {
	dir := t.TempDir()
	entries := []string{"A\xff", "A\xfe", "A\ufffd", `A\xff`, "Иван\xd0", "Иван\xd1", "\xc8\xe2\xe0\xed"} // the last: "Иван" in CP1251
	for _, d := range entries {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Skipf("this file system takes no such name: %v", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "B\xff.zip"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	subs, _, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != len(entries)+1 {
		t.Fatalf("%d submissions, want %d", len(subs), len(entries)+1)
	}
	j, err := OpenJournal(t.TempDir(), "cfg", "ex")
	if err != nil {
		t.Fatal(err)
	}
	jdir := filepath.Dir(j.path)
	seen := map[string]bool{}
	for i, s := range subs {
		if !utf8.ValidString(s.Name) || seen[s.Name] {
			t.Errorf("%q (from %q): not UTF-8 or not unique", s.Name, s.rawEntry)
		}
		seen[s.Name] = true
		if got, ok := Select(subs, s.Name); !ok || got.Path != s.Path {
			t.Errorf("Select(%q) = %q, %v", s.Name, got.Path, ok)
		}
		if err := j.Append(rec(s.Name, i)); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	j, err = OpenJournal(jdir, "cfg", "ex")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i, s := range subs {
		st, ok := j.Get(s.Name)
		if !ok {
			t.Errorf("%q: the journal has no record of it", s.Name)
		} else if st.Result.Passed != i {
			t.Errorf("%q: the journal gives back %q's record (passed %d, want %d)", s.Name, st.Name, st.Result.Passed, i)
		}
	}
}
