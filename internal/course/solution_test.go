package course

import (
	"errors"
	"testing"
	"testing/fstest"
)

func TestSolution(t *testing.T) {
	fsys := testFS()
	fsys["solutions/a/bg/main.go"] = &fstest.MapFile{Data: []byte("package main\n")}
	fsys["solutions/a/bg/lib/util.go"] = &fstest.MapFile{Data: []byte("package lib\n")}
	c := New(fsys)
	a, err := c.Exercise("a")
	if err != nil {
		t.Fatal(err)
	}
	files, err := a.Solution("bg")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Name+"="+string(f.Data))
	}
	want := []string{"lib/util.go=package lib\n", "main.go=package main\n"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Solution(bg) = %q, want %q", got, want)
	}
	if _, err := a.Solution("ru"); !errors.Is(err, ErrNoSolution) {
		t.Errorf("Solution(ru) error = %v, want ErrNoSolution", err)
	}
}
