package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runRestore lists the kept versions of the learner's program for an exercise (`restore EXERCISE`),
// or brings one back (`restore EXERCISE N`, the newest when N is "last"). What the folder holds is
// kept as a version first, so restoring loses nothing either; it asks before replacing the
// learner's files, as reset does.
func runRestore(ctx context.Context, e *env, args []string) error {
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
	version := ""
	if n := len(pos); n > 0 && workspace.IsVersionArg(pos[n-1]) && (n == 2 || e.exerciseHere(p) != nil) {
		version, pos = pos[n-1], pos[:n-1]
	}
	ex, err := e.exerciseArg(p, pos, "err_restore_args")
	if err != nil {
		return err
	}
	s := e.session(p)
	list, err := s.Versions(ex)
	if err != nil {
		return e.usageErr("err_restore_read", "Dir", e.rel(p.VersionsDir(ex, e.content)), "Err", err.Error())
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, e.runnable(e.ui.T("restore_none", "Name", ex.Name, "Lang", e.langName(e.content))))
		return nil
	}
	if version == "" {
		e.printVersions(p, ex.Name, list)
		return nil
	}
	n := list[len(list)-1].N
	if version != "last" {
		n, _ = strconv.Atoi(version)
	}
	dir := p.ExerciseDir(ex, e.content)
	if s.HasWork(ex) {
		if ok, err := e.confirmReplace(*yes, "restore_confirm", "Dir", e.place(dir), "Name", ex.Name, "N", n, "Cmd", fmt.Sprintf("workbook restore %s %d --yes", ex.Name, n)); !ok || err != nil {
			return err
		}
	}
	kept, err := s.Restore(ex, n)
	if err != nil {
		return &cli.ExitError{Code: 2, Msg: e.runnable(s.RestoreFailed(ex, n, list[len(list)-1].N, err, e.place))}
	}
	fmt.Fprintln(e.stdout, e.runnable(s.RestoreSays(ex, n, kept, e.place)))
	return nil
}

// printVersions lists the kept versions, newest last, each with when it was kept and its files.
func (e *env) printVersions(p *workspace.Workspace, name string, list []workspace.Version) {
	w := e.stdout
	fmt.Fprintln(w, e.runnable(e.ui.N("restore_list", len(list), "Name", name, "Lang", e.langName(e.content))))
	for _, v := range list {
		fmt.Fprintf(w, "  %3d  %s  %s\n", v.N, v.Time.Local().Format("2006-01-02 15:04:05"), strings.Join(v.Files(), ", "))
	}
	fmt.Fprintln(w, e.runnable(e.ui.T("restore_how", "Name", name, "N", list[len(list)-1].N)))
}
