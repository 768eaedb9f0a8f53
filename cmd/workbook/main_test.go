package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/grade"
)

// TestMain lets testscript run the workbook command in-process: `exec workbook …` (or plain
// `workbook …`) in a script runs run() in a fresh process of this test binary. A script that sets
// WORKBOOK_TEST_TERMINAL=1 stands for a learner at a terminal: the tool may ask them questions,
// which the script answers with its stdin command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"workbook": func() {
			e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
			if os.Getenv("WORKBOOK_TEST_TERMINAL") == "1" {
				e.tty = func() bool { return true }
			}
			os.Exit(run(context.Background(), os.Args[1:], e))
		},
	})
}

// TestScripts runs every testdata/*.txtar. Each script gets $REPO (the repository root, for
// solutions and starters), a warm shared GOCACHE, no locale (so language comes from flags or the
// script's own env lines) and a HOME of its own.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gocache := checker.GoCache()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(e *testscript.Env) error {
			e.Setenv("REPO", repo)
			e.Setenv("GOCACHE", gocache)
			e.Setenv("HOME", filepath.Join(e.WorkDir, "home"))
			e.Setenv("NO_COLOR", "1")
			return os.MkdirAll(filepath.Join(e.WorkDir, "home"), 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// lockreport DIR holds DIR as a grading in progress would, until the script ends.
			"lockreport": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: lockreport DIR")
				}
				unlock, err := grade.LockReport(ts.MkAbs(args[0]))
				ts.Check(err)
				ts.Defer(unlock)
			},
		},
	})
}
