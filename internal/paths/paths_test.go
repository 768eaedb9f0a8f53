package paths

import (
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	root := filepath.FromSlash("/work/course")
	for _, tc := range []struct {
		root, p string
		rel     string
		ok      bool
	}{
		{root, root, ".", true},
		{root, filepath.FromSlash("/work/course/my/main.go"), "my/main.go", true},
		{root, filepath.FromSlash("/work/course/./my/../lessons"), "lessons", true},
		{root, filepath.FromSlash("/work/course/..data/x"), "..data/x", true}, // a name that opens with two dots
		{root, filepath.FromSlash("/work/courses/x"), "", false},             // a sibling sharing the prefix
		{root, filepath.FromSlash("/work"), "", false},
		{root, filepath.FromSlash("/work/course/../other"), "", false},
		{root, "", "", false},
		{"", root, "", false},
	} {
		rel, ok := Within(tc.root, tc.p)
		if rel != tc.rel || ok != tc.ok {
			t.Errorf("Within(%q, %q) = %q, %v; want %q, %v", tc.root, tc.p, rel, ok, tc.rel, tc.ok)
		}
	}
}
