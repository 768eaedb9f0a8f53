// Package testcache gives a package's tests, or one test script, caches of the checker's of their
// own that outlive the run:
//
//	func TestMain(m *testing.M) {
//		testcache.Use("internal-lesson")
//		os.Exit(m.Run())
//	}
//
// The checker keeps its caches beside GOCACHE when GOCACHE is named go-build (the executables it
// built, the reference solutions' executables, verify's results, the sandbox's init), each keyed
// by content. The cache of executables keeps the 256 used last, and one `go test ./...` builds
// hundreds of programs, so a package's programs are gone by its next run. GoCache names a folder
// of the tests' own beside the checker's caches (…/workbook/test/NAME, this user's alone), holding
// a symbolic link named go-build to the shared Go build cache: with it as GOCACHE, the Go build
// cache is the one it was, and the checker's caches beside it are the tests' own, so the few dozen programs they build
// stay there from one run to the next. What is cached there is what the checker would cache
// anyway, under the same conditions: a folder of this user's alone that learners' programs cannot
// reach (the sandbox lets a build write to the Go build cache, which the link resolves to, and to
// nothing beside it).
package testcache

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/workbook-course/workbook/checker"
)

// GoCache returns the GOCACHE of the tests named name (a relative slash-separated path, such as
// "cmd-workbook/learner_solved"): the link to gocache in their folder, made if need be. It returns
// gocache itself where gocache is not named go-build (the checker would not keep its caches beside
// it), where the folder is not this user's alone, or where no link can be made.
//
// It does not ask the checker where its caches are (checker.CacheDir): the checker settles GOCACHE at
// its first use, and a TestMain sets it before. (checker.TrustedDir only looks at a folder.)
func GoCache(name, gocache string) string {
	if filepath.Base(gocache) != "go-build" || !filepath.IsAbs(gocache) {
		return gocache
	}
	base := filepath.Join(filepath.Dir(gocache), "workbook", "test")
	dir := filepath.Join(base, filepath.FromSlash(name))
	link := filepath.Join(dir, "go-build")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return gocache
	}
	// Every folder from base down is this user's alone, so no one else can change the link.
	for d := dir; ; d = filepath.Dir(d) {
		if !checker.TrustedDir(d) {
			return gocache
		}
		if d == base {
			break
		}
	}
	if target, err := os.Readlink(link); err == nil && target == gocache {
		return link
	}
	os.Remove(link)
	if err := os.Symlink(gocache, link); err != nil && !errors.Is(err, fs.ErrExist) {
		return gocache
	}
	if target, err := os.Readlink(link); err != nil || target != gocache {
		return gocache
	}
	return link
}

// Use sets GOCACHE for the rest of this process to GoCache(name, …) of the Go build cache it names
// now (GOCACHE, else `go env GOCACHE`). Call it first thing in TestMain, before anything asks the
// checker for a cache.
func Use(name string) {
	gocache := os.Getenv("GOCACHE")
	if gocache == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			gocache = strings.TrimSpace(string(out))
		}
	}
	if gocache == "" || gocache == "off" {
		return
	}
	if c := GoCache(name, gocache); c != gocache {
		os.Setenv("GOCACHE", c)
	}
}
