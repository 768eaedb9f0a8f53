package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"

	"github.com/workbook-course/workbook/internal/workspace"
)

// invocation is how the learner runs workbook from where they stand (workspace.Invocation), once
// known.
func (e *env) invocation() string {
	if e.invoke != "" {
		return e.invoke
	}
	e.invoke = "workbook"
	exe, err1 := os.Executable()
	wd, err2 := os.Getwd()
	// `go -C ../../.. run ./cmd/workbook` starts the tool at the clone's root, but the learner stands
	// where the shell was, which the go command leaves in PWD: the commands suggested are pasted there.
	if pwd := os.Getenv("PWD"); err2 == nil && filepath.IsAbs(pwd) && pwd != wd {
		if info, err := os.Stat(pwd); err == nil && info.IsDir() {
			wd = pwd
		}
	}
	if err1 == nil && err2 == nil {
		e.invoke = workspace.Invocation(exe, wd)
	}
	return e.invoke
}

// printer is the tool's messages in lang, every command they suggest written as it runs where the
// learner stands (runnable).
func (e *env) printer(lang string) *i18n.Printer { return i18n.New(lang).Rewriting(e.runnable) }

// runnable rewrites the commands a message suggests ("workbook hint X") into the invocation that
// works where the learner stands; unchanged when workbook is installed.
func (e *env) runnable(msg string) string {
	inv := e.invocation()
	if inv == "workbook" {
		return msg
	}
	if e.words == nil {
		// The command "workbook" at the start of a suggested command: followed by one of its
		// commands, so that prose ("the workbook course") is left alone.
		e.words = regexp.MustCompile(`(^|[\s«„“"'(])workbook( (?:` + strings.Join(commandNames(), "|") + `)\b)`)
	}
	return e.words.ReplaceAllString(msg, "${1}"+inv+"${2}")
}
