package render

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestPageNotATerminal(t *testing.T) {
	var out, errw bytes.Buffer
	text := "line\n" + string(bytes.Repeat([]byte("more\n"), 500))
	if err := Page(text, &out, &errw, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if out.String() != text || errw.Len() != 0 {
		t.Errorf("Page to a buffer wrote %d bytes (stderr %q), want the text as it is", out.Len(), errw.String())
	}
}

func TestPager(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PAGER": exe + " -x -y"}
	cmd := pager(func(k string) string { return env[k] })
	if cmd == nil {
		t.Fatal("no pager for $PAGER naming an existing program")
	}
	if filepath.Base(cmd.Path) != filepath.Base(exe) || !slices.Equal(cmd.Args[1:], []string{"-x", "-y"}) {
		t.Errorf("pager = %s %q, want %s -x -y", cmd.Path, cmd.Args[1:], exe)
	}
	if !slices.Contains(cmd.Env, "LESS=FRX") || !slices.Contains(cmd.Env, "LESSCHARSET=utf-8") {
		t.Errorf("pager's environment lacks LESS=FRX and LESSCHARSET=utf-8")
	}
	env["LESS"] = "R"
	if cmd := pager(func(k string) string { return env[k] }); slices.Contains(cmd.Env, "LESS=FRX") {
		t.Errorf("pager overrides the learner's own $LESS")
	}
	env["WORKBOOK_PAGER"] = exe
	if cmd := pager(func(k string) string { return env[k] }); len(cmd.Args) != 1 {
		t.Errorf("$WORKBOOK_PAGER does not come before $PAGER: args %q", cmd.Args)
	}
}
