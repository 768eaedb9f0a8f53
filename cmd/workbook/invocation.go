package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/workbook-course/workbook/internal/paths"
	"github.com/workbook-course/workbook/internal/workspace"
)

// invocation is how the learner runs workbook from where they stand, for the commands the tool
// suggests to work when pasted there: "workbook" when it is installed; when it runs through
// `go run` in a clone, `go run ./cmd/workbook` at the clone's root and `go -C REL run ./cmd/workbook`
// below it (a plain `go run ../../cmd/workbook` fails in an exercise folder, which is a module of
// its own: "outside main module").
func (e *env) invocation() string {
	if e.invoke != "" {
		return e.invoke
	}
	e.invoke = "workbook"
	exe, err := os.Executable()
	if err != nil || !viaGoRun(exe) {
		return e.invoke
	}
	wd, err := os.Getwd()
	if err != nil {
		return e.invoke
	}
	if root := workspace.CloneRoot(wd); root != "" {
		e.invoke = goRunFrom(wd, root)
	}
	return e.invoke
}

// viaGoRun reports whether exe is a binary `go run` built: it lives in a go-build folder of the
// temporary folder.
func viaGoRun(exe string) bool {
	return strings.Contains(filepath.ToSlash(exe), "/go-build") && paths.Under(os.TempDir(), exe)
}

// goRunFrom is the `go run` command that runs the clone's workbook from the folder wd in it.
func goRunFrom(wd, root string) string {
	rel, err := filepath.Rel(wd, root)
	if err != nil || rel == "." {
		return "go run ./cmd/workbook"
	}
	return "go -C " + filepath.ToSlash(rel) + " run ./cmd/workbook"
}

// commandWord finds the command "workbook" at the start of a suggested command in a message:
// followed by one of its commands, so that prose ("the workbook course") is left alone.
var commandWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s«„“"'(])workbook( (?:` + strings.Join(commandNames(), "|") + `)\b)`)
})

// runnable rewrites the commands a message suggests ("workbook hint X") into the invocation that
// works where the learner stands; unchanged when workbook is installed.
func (e *env) runnable(msg string) string {
	inv := e.invocation()
	if inv == "workbook" {
		return msg
	}
	return commandWord().ReplaceAllString(msg, "${1}"+inv+"${2}")
}
