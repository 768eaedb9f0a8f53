package grade

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

func TestSkipKind(t *testing.T) {
	tests := []struct {
		mode fs.FileMode
		want string
	}{
		{fs.ModeSymlink | 0o777, SkipSymlink},
		{fs.ModeNamedPipe | 0o644, SkipFIFO},
		{fs.ModeDevice | fs.ModeCharDevice | 0o666, SkipDevice},
		{fs.ModeDevice | 0o660, SkipDevice},
		{fs.ModeSocket | 0o755, SkipSocket},
		{fs.ModeIrregular, SkipOther},
	}
	for _, tt := range tests {
		if got := skipKind(tt.mode); got != tt.want {
			t.Errorf("skipKind(%v) = %q, want %q", tt.mode, got, tt.want)
		}
	}
}

func TestBuildFile(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"main.go", true},
		{"main_test.go", true}, // read, so that the checker can leave it out and say so
		{"go.mod", true},
		{"go.sum", true},
		{"notes.txt", false},
		{"asm_amd64.s", false},
		{"x.syso", false},
		{"GO.MOD", false},
		{"main.go.bak", false},
	}
	for _, tt := range tests {
		if got := buildFile(tt.name); got != tt.want {
			t.Errorf("buildFile(%q) = %t, want %t", tt.name, got, tt.want)
		}
	}
}

func TestReadAtMost(t *testing.T) {
	tests := []struct {
		in    string
		limit int64
		ok    bool
	}{
		{"", 0, true},
		{"abc", 3, true},
		{"abcd", 3, false},
		{strings.Repeat("x", 1<<20), 1 << 20, true},
		{strings.Repeat("x", 1<<20+1), 1 << 20, false},
	}
	for _, tt := range tests {
		data, err := readAtMost(strings.NewReader(tt.in), tt.limit, "f.go")
		var tb *tooBigError
		switch {
		case tt.ok && (err != nil || string(data) != tt.in):
			t.Errorf("readAtMost(%d bytes, %d) = %d bytes, %v; want all of it", len(tt.in), tt.limit, len(data), err)
		case !tt.ok && !errors.As(err, &tb):
			t.Errorf("readAtMost(%d bytes, %d) = %v, want a tooBigError", len(tt.in), tt.limit, err)
		}
	}
}
