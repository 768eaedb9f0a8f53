package main

import (
	"archive/zip"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/testcache"
	"github.com/workbook-course/workbook/internal/verify"
)

// sourceEnv hands the scripts' workbook commands the hash of the module's source (verify.SourceHash),
// which keys verify's cache in the tests.
const sourceEnv = "WORKBOOK_TEST_SOURCE"

// moduleSource is the hash of the module's source: the key of verify's cache in this test binary and
// in the workbook commands of its scripts, computed once.
var moduleSource = sync.OnceValues(func() (string, error) {
	if code := os.Getenv(sourceEnv); code != "" {
		return code, nil // a script's workbook command, whose working folder is the script's
	}
	if inScript {
		return "", errors.New(sourceEnv + " is not set")
	}
	return verify.SourceHash(repoRoot)
})

var (
	repoRoot string // the repository's root, found from the package's folder before any test changes it
	inScript bool   // this process is a script's workbook command
)

// TestMain lets testscript run the workbook command in-process: `exec workbook …` (or plain
// `workbook …`) in a script runs run() in a fresh process of this test binary. A script that sets
// WORKBOOK_TEST_TERMINAL=1 stands for a learner at a terminal: the tool may ask them questions,
// which the script answers with its stdin command.
//
// verify's cache is keyed here by the module's source instead of the running executable, as
// internal/verify's TestMutation keys it: a test binary's bytes differ from clone to clone (it holds
// the clone's paths), while the source of one commit is the same in every clone, so a fresh clone of
// unchanged content finds what a former clone's tests stored, and any change to a Go file of the
// module misses. (verify_cache.txtar gives itself a cache folder of its own.)
func TestMain(m *testing.M) {
	repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))
	openCache = func(refresh bool) *verify.Cache {
		code, err := moduleSource()
		if err != nil {
			return verify.OpenCache(refresh) // keyed by the executable, as outside the tests
		}
		return verify.OpenCacheFor(refresh, code)
	}
	testscript.Main(m, map[string]func(){
		"workbook": func() {
			inScript = true
			e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
			if os.Getenv("WORKBOOK_TEST_TERMINAL") == "1" {
				e.tty = func() bool { return true }
			}
			os.Exit(run(context.Background(), os.Args[1:], e))
		},
	})
}

// TestScripts runs every testdata/*.txtar. Each script gets $REPO (the repository root, for
// solutions and starters), a warm shared Go build cache under a name of its own (scriptCache), no
// locale (so language comes from flags or the script's own env lines) and a HOME of its own.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gocache := checker.GoCache()
	code, err := moduleSource()
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(e *testscript.Env) error {
			e.Setenv("REPO", repo)
			e.Setenv("GOCACHE", scriptCache(e, gocache))
			e.Setenv(sourceEnv, code)
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
			// zipdir DIR ZIP writes the files under DIR into ZIP, named from DIR (an LMS's "download all").
			"zipdir": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: zipdir DIR ZIP")
				}
				ts.Check(zipDir(ts.MkAbs(args[0]), ts.MkAbs(args[1])))
			},
		},
	})
}

// scriptCache is the GOCACHE of the script that e sets up: the shared Go build cache under a name of
// the script's own (testcache.GoCache), so that the checker's caches beside it are the script's.
func scriptCache(e *testscript.Env, gocache string) string {
	named, ok := e.T().(interface{ Name() string })
	if !ok {
		return gocache
	}
	return testcache.GoCache("cmd-workbook/"+path.Base(named.Name()), gocache)
}

// zipDir writes the regular files under dir into the zip file out, named relative to dir, each with
// its modification time, as zip tools keep it.
func zipDir(dir, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: filepath.ToSlash(rel), Method: zip.Deflate, Modified: info.ModTime()})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
