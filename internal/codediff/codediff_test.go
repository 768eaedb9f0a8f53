package codediff

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/workbook-course/workbook/internal/course"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"same", "a\nb\n", "a\nb\n", ""},
		{"same but CRLF", "a\r\nb\r\n", "a\nb\n", ""},
		{"one line changed", "package main\n\nfunc f() int {\n\treturn 0\n}\n", "package main\n\nfunc f() int {\n\treturn 1\n}\n",
			"--- mine/main.go\n+++ solution/main.go\n@@ -1,5 +1,5 @@\n package main\n \n func f() int {\n-\treturn 0\n+\treturn 1\n }\n"},
		{"added at the end", "a\n", "a\nb\n", "--- mine/main.go\n+++ solution/main.go\n@@ -1 +1,2 @@\n a\n+b\n"},
		{"no final newline", "a", "a\n", "--- mine/main.go\n+++ solution/main.go\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified("mine/main.go", "solution/main.go", tt.old, tt.new); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "same.go"), []byte("package main\r\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "dir.go"), 0o755)
	sol := []course.SourceFile{
		{Name: "main.go", Data: []byte("package main\n\nfunc main() { println() }\n")},
		{Name: "same.go", Data: []byte("package main\n")},
		{Name: "gone.go", Data: []byte("package main\n")},
		{Name: "dir.go", Data: []byte("package main\n")},
	}
	if runtime.GOOS != "windows" {
		os.Symlink(filepath.Join(dir, "main.go"), filepath.Join(dir, "link.go"))
		sol = append(sol, course.SourceFile{Name: "link.go", Data: []byte("package main\n")})
	}
	got := Compare(dir, "my", "solutions/x", sol)
	if len(got) != len(sol) {
		t.Fatalf("%d files, want %d", len(got), len(sol))
	}
	want := "--- my/main.go\n+++ solutions/x/main.go\n@@ -1,3 +1,3 @@\n package main\n \n-func main() {}\n+func main() { println() }\n"
	if got[0].Missing || got[0].Diff != want {
		t.Errorf("main.go: missing %v, diff\n%s\nwant\n%s", got[0].Missing, got[0].Diff, want)
	}
	if !got[1].Same() {
		t.Errorf("same.go (CRLF): not the same: %+v", got[1])
	}
	for _, f := range got[2:] { // missing, a folder, a symlink: shown whole, never followed
		if !f.Missing || f.Same() || f.Diff != "" {
			t.Errorf("%s: %+v, want missing", f.Name, f)
		}
	}
	if got[0].Mine != filepath.Join(dir, "main.go") {
		t.Errorf("Mine = %q", got[0].Mine)
	}
}
