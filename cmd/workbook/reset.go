package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/learn"
)

// runReset puts the pristine starter of an exercise back, from the course the binary carries. When
// the folder holds the learner's work, it asks first on a terminal (and refuses without one unless
// --yes), and the learner's folder is kept, whole, as a numbered version that `workbook restore`
// brings back (learn.Session.Reset). Progress keeps its verdicts: a pass stays a pass (see
// progress.State.RecordCheck).
func runReset(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	yes := flags.Bool("yes", false, e.ui.T("flag_yes_replace"))
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	p, err := e.needWorkspace()
	if err != nil {
		return err
	}
	ex, err := e.exerciseArg(p, pos, "err_reset_args")
	if err != nil {
		return err
	}
	s := e.session(p)
	dir := p.ExerciseDir(ex, e.content)
	if s.HasWork(ex) {
		if ok, err := e.confirmReplace(*yes, "reset_confirm", "Dir", e.place(dir), "Name", ex.Name, "Cmd", "workbook reset "+ex.Name+" --yes"); !ok || err != nil {
			return err
		}
	}
	kept, err := s.Reset(ex, checker.GoVersion())
	var re *learn.RecordError
	switch {
	case errors.As(err, &re):
		return e.stateErr(p.StatePath(), re.Err)
	case err != nil:
		return &cli.ExitError{Code: 2, Msg: e.runnable(s.ResetFailed(ex, kept, err, e.place))}
	}
	fmt.Fprintln(e.stdout, e.runnable(s.ResetSays(ex, kept, e.place)))
	return nil
}

// confirmReplace asks, on a terminal, whether a command may replace the learner's files (message
// id says which); without a terminal it refuses unless yes. It returns true to go on; false with a
// nil error when the learner said no (and was told that nothing changed).
func (e *env) confirmReplace(yes bool, id string, kv ...any) (bool, error) {
	if yes {
		return true, nil
	}
	if !e.isTerminal() {
		return false, e.usageErr("err_replace_needs_yes", kv...)
	}
	fmt.Fprint(e.stderr, e.ui.T(id, kv...)+" "+e.ui.T("confirm_yes_no")+" ")
	answer, _ := readAnswer(e.stdin)
	if !cli.Confirmed(answer) {
		fmt.Fprintln(e.stdout, e.runnable(e.ui.T("replace_declined")))
		return false, nil
	}
	return true, nil
}

// readAnswer reads one line of the learner's answer.
func readAnswer(r io.Reader) (string, error) { return bufio.NewReader(r).ReadString('\n') }

// place names a folder for the learner: relative to where they stand, or whole when they stand in it.
func (e *env) place(dir string) string {
	if r := e.rel(dir); r != "." {
		return r
	}
	return dir
}
