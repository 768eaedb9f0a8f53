package vet

import (
	"context"
	"io/fs"
	"path"
	"strings"
	"testing"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/lesson"
)

// TestNoFindingsOnCourse runs every rule over every reference solution (solutions/*/{bg,ru}) and
// the final form of every lesson program: advice that fires on the course's own answers would
// teach the learner to ignore it.
func TestNoFindingsOnCourse(t *testing.T) {
	fsys := workbook.Content()
	programs := map[string][]checker.SourceFile{}
	sols, err := fs.Glob(fsys, "solutions/*/*/*.go")
	if err != nil || len(sols) == 0 {
		t.Fatalf("no solutions: %v", err)
	}
	for _, f := range sols {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		programs[path.Dir(f)] = append(programs[path.Dir(f)], checker.SourceFile{Name: path.Base(f), Data: data})
	}
	mds, err := fs.Glob(fsys, "lessons/*/*.md")
	if err != nil {
		t.Fatal(err)
	}
	lessons := 0
	for _, f := range mds {
		if strings.EqualFold(path.Base(f), "README.md") {
			continue
		}
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		l, err := lesson.Parse(f, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		progs, err := lesson.Programs(l)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for name, src := range progs {
			lessons++
			programs[f+"#"+name] = []checker.SourceFile{{Name: "main.go", Data: src}}
		}
	}
	if lessons == 0 {
		t.Fatal("no lesson programs")
	}
	for name, files := range programs {
		findings, err := Files(context.Background(), files)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, f := range findings {
			t.Errorf("%s: %s: %s", name, f.Pos(), f.Rule)
		}
	}
	t.Logf("%d programs, %d of them lesson programs", len(programs), lessons)
}
