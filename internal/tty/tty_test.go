package tty

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestIsTerminal(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, tc := range []struct {
		name string
		w    io.Writer
	}{
		{"buffer", &bytes.Buffer{}},
		{"file", file},
		{"pipe", w},
		{"discard", io.Discard},
	} {
		if IsTerminal(tc.w) {
			t.Errorf("%s: a terminal", tc.name)
		}
		if got := Width(tc.w, 80); got != 80 {
			t.Errorf("%s: width %d, want the default 80", tc.name, got)
		}
		if got := Height(tc.w, 24); got != 24 {
			t.Errorf("%s: height %d, want the default 24", tc.name, got)
		}
	}
}
