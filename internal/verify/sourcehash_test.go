package verify

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSourceHash checks what the key of the tests' results covers, on a module laid out as this
// one: the folders of the packages verify is built from (verify itself, course and the checker, with
// their subfolders and embedded files), go.mod and go.sum change it; a package verify does not import
// does not.
func TestSourceHash(t *testing.T) {
	files := map[string]string{
		"go.mod":                      "module github.com/workbook-course/workbook\n\ngo 1.22\n",
		"internal/verify/verify.go":   "package verify\n\nimport _ \"github.com/workbook-course/workbook/internal/course\"\n",
		"internal/course/course.go":   "package course\n\nimport _ \"github.com/workbook-course/workbook/checker\"\n",
		"checker/checker.go":          "package checker\n",
		"checker/internal/init/x.txt": "embedded\n",
		"internal/grade/grade.go":     "package grade\n",
		"cmd/workbook/main.go":        "package main\n\nfunc main() {}\n",
	}
	write := func(root string, over map[string]string) {
		for name, data := range files {
			if d, ok := over[name]; ok {
				data = d
			}
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for name, data := range over {
			if _, ok := files[name]; !ok {
				p := filepath.Join(root, filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	hash := func(over map[string]string) string {
		root := t.TempDir()
		write(root, over)
		h, err := SourceHash(root)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := hash(nil)
	tests := []struct {
		name    string
		over    map[string]string
		changes bool
	}{
		{"the same files", nil, false},
		{"a package verify does not import", map[string]string{"internal/grade/grade.go": "package grade\n\nvar X = 1\n"}, false},
		{"the command", map[string]string{"cmd/workbook/main.go": "package main\n\nfunc main() { println() }\n"}, false},
		{"the checker", map[string]string{"checker/checker.go": "package checker\n\nvar X = 1\n"}, true},
		{"a file the checker embeds", map[string]string{"checker/internal/init/x.txt": "changed\n"}, true},
		{"a new file in the checker's folder", map[string]string{"checker/testdata/case.txtar": "x\n"}, true},
		{"course itself", map[string]string{"internal/course/course.go": "package course\n\nimport _ \"github.com/workbook-course/workbook/checker\"\n\nvar X = 1\n"}, true},
		{"verify itself", map[string]string{"internal/verify/verify.go": "package verify\n\nimport _ \"github.com/workbook-course/workbook/internal/course\"\n\nvar X = 1\n"}, true},
		{"a new file in verify's folder", map[string]string{"internal/verify/testdata/x.txt": "x\n"}, true},
		{"a new dependency of verify", map[string]string{"internal/verify/verify.go": "package verify\n\nimport (\n\t_ \"github.com/workbook-course/workbook/internal/course\"\n\t_ \"github.com/workbook-course/workbook/internal/grade\"\n)\n"}, true},
		{"a new dependency of course", map[string]string{"internal/course/course.go": "package course\n\nimport (\n\t_ \"github.com/workbook-course/workbook/checker\"\n\t_ \"github.com/workbook-course/workbook/internal/grade\"\n)\n"}, true},
		{"go.mod", map[string]string{"go.mod": "module github.com/workbook-course/workbook\n\ngo 1.23\n"}, true},
		{"go.sum", map[string]string{"go.sum": "example.com/x v1.0.0 h1:x\n"}, true},
	}
	for _, tt := range tests {
		if got := hash(tt.over) != base; got != tt.changes {
			t.Errorf("%s: the hash changed: %v, want %v", tt.name, got, tt.changes)
		}
	}
	// Once verify imports a package, a change there changes the hash too.
	dep := map[string]string{"internal/verify/verify.go": "package verify\n\nimport (\n\t_ \"github.com/workbook-course/workbook/internal/course\"\n\t_ \"github.com/workbook-course/workbook/internal/grade\"\n)\n"}
	changed := map[string]string{"internal/grade/grade.go": "package grade\n\nvar X = 1\n"}
	for k, v := range dep {
		changed[k] = v
	}
	if hash(dep) == hash(changed) {
		t.Error("a change in a package verify has come to import leaves the hash as it was")
	}
}
