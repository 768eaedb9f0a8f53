package main

import (
	"os"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/workspace"
)

// invocation is how the learner runs workbook from where they stand (workspace.InvocationHere),
// once known.
func (e *env) invocation() string {
	if e.invoke == "" {
		e.invoke = workspace.InvocationHere()
	}
	return e.invoke
}

// printer is the tool's messages in lang, every command they suggest written as it runs where the
// learner stands (runnable).
func (e *env) printer(lang string) *i18n.Printer { return i18n.New(lang).Rewriting(e.runnable) }

// runnable rewrites the commands a message suggests ("workbook hint X") into the invocation that
// works where the learner stands (workspace.Runnable).
func (e *env) runnable(msg string) string {
	return workspace.Runnable(e.invocation(), commandNames(), msg)
}

// messageIn is the message id in the tool's language, every command it suggests written as it runs
// for a learner who stands in dir (init's next step: "cd DIR, then run …"), which is not where the
// tool was started.
func (e *env) messageIn(dir, id string, kv ...any) string {
	inv := "workbook"
	if exe, err := os.Executable(); err == nil {
		inv = workspace.Invocation(exe, dir)
	}
	p := i18n.New(e.ui.Lang()).Rewriting(func(msg string) string { return workspace.Runnable(inv, commandNames(), msg) })
	return p.T(id, kv...)
}
