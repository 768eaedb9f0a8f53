package lesson

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReadMeta checks that ReadMeta finds the front matter Parse finds, for odd files and for every
// lesson of the course.
func TestReadMeta(t *testing.T) {
	tests := []struct {
		name, src string
	}{
		{"yaml", "---\ntitle: T\nsummary: S\norder: 2\nexercises: [a, b]\n---\n\n# T\n"},
		{"crlf", "---\r\ntitle: T\r\norder: 3\r\n---\r\n\r\n# T\r\n"},
		{"four dashes", "----\ntitle: T\norder: 1\n----\n# T\n"},
		{"closed by another count", "---\ntitle: T\n----\norder: 1\n---\n# T\n"},
		{"toml", "+++\ntitle = \"T\"\norder = 4\n+++\n# T\n"},
		{"unknown key", "---\ntitle: T\ncolour: red\norder: 1\n---\n# T\n"},
		{"wrong type", "---\ntitle: T\norder: first\n---\n# T\n"},
		{"bad yaml", "---\ntitle: [T\n---\n# T\n"},
		{"unclosed", "---\ntitle: T\norder: 1\n\n# T\n"},
		{"no front matter", "# T\n\ntitle: T\n"},
		{"trailing space on the close", "---\ntitle: T\n--- \n# T\n"},
		{"empty", ""},
		{"only the opening", "---"},
		{"empty front matter", "---\n---\n# T\n"},
		{"after one blank line", "\n---\ntitle: T\n---\n"},
		{"after a line of spaces", "  \n---\ntitle: T\n---\n"},
		{"after two blank lines", "\n\n---\ntitle: T\n---\n"},
		{"after text", "x\n---\ntitle: T\n---\n"},
		{"indented", " ---\ntitle: T\n---\n"},
		{"four dashes never closed", "----\ntitle: T\n\n# T\n"},
		{"closed by a longer line", "---\ntitle: T\n---x\n# T\n"},
		{"toml never closed", "+++\ntitle = \"T\"\n"},
		{"byte order mark", "\ufeff---\ntitle: T\n---\n# T\n"},
		{"tab after the opening", "---\t\ntitle: T\n---\n# T\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			compareMeta(t, "lessons/x/ru.md", []byte(tt.src))
		})
	}
	root := filepath.Join("..", "..", "lessons")
	files, err := fs.Glob(os.DirFS(root), "*/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lessons under %s: %v", root, err)
	}
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		m := compareMeta(t, f, src)
		if m.Title == "" || m.Order == 0 {
			t.Errorf("%s: ReadMeta found no title or order: %+v", f, m)
		}
	}
}

func compareMeta(t *testing.T, name string, src []byte) Meta {
	t.Helper()
	l, _ := Parse(name, src)
	got := ReadMeta(src)
	if !reflect.DeepEqual(got, l.Meta) {
		t.Errorf("%s: ReadMeta = %+v, Parse's Meta = %+v", name, got, l.Meta)
	}
	return got
}
