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
		{root, filepath.FromSlash("/work/courses/x"), "", false},              // a sibling sharing the prefix
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

func TestUnderSame(t *testing.T) {
	wd, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		root, p     string
		under, same bool
	}{
		{".", ".", true, true},
		{".", "sub/x", true, false},
		{"sub", "sub/../sub/x", true, false},
		{"sub", ".", false, false},
		{".", wd, true, true},
		{"sub", "subway", false, false},
		{"a", "b", false, false},
	} {
		if got := Under(tc.root, tc.p); got != tc.under {
			t.Errorf("Under(%q, %q) = %v, want %v", tc.root, tc.p, got, tc.under)
		}
		if got := Same(tc.root, tc.p); got != tc.same {
			t.Errorf("Same(%q, %q) = %v, want %v", tc.root, tc.p, got, tc.same)
		}
	}
}
