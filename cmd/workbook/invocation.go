package main

import (
	"os"
	"regexp"
	"strings"

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
	if err1 == nil && err2 == nil {
		e.invoke = workspace.Invocation(exe, wd)
	}
	return e.invoke
}

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
