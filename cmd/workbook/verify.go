package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/tty"
	"github.com/workbook-course/workbook/internal/verify"
)

// openCache opens verify's cache (verify.OpenCache: keyed by the running executable among the rest).
// The tests key it by the module's source instead (main_test.go), as internal/verify's TestMutation
// does: a test binary differs from clone to clone, its source does not.
var openCache = verify.OpenCache

// runVerify checks lessons and exercises as an author needs them checked.
func runVerify(ctx context.Context, e *env, args []string) error {
	fset := e.newFlags()
	asJSON := fset.Bool("json", false, e.ui.T("flag_json"))
	noCache := fset.Bool("no-cache", false, e.ui.T("flag_no_cache"))
	pos, err := e.parse(fset, args)
	if err != nil {
		return err
	}
	t, err := e.verifyTargets(pos)
	if err != nil {
		return err
	}
	v, err := e.verify(ctx, t, openCache(*noCache))
	if err != nil {
		return err
	}
	if *asJSON {
		err = v.WriteJSON(e.stdout)
	} else {
		v.WriteText(e.stdout, e.ui)
	}
	if err == nil && len(v.Problems) > 0 {
		return errFailed
	}
	return err
}

// verifyTargets finds what verify checks (verify.FindTargets): what the paths name, or with none
// the whole course (the clone's when the command runs in one, so that an author sees their edits,
// else the embedded one).
func (e *env) verifyTargets(paths []string) (*verify.Targets, error) {
	fsys := e.course.FS()
	if len(paths) == 0 {
		if root := findClone(); root != "" {
			fsys = os.DirFS(root)
		}
	}
	t, err := verify.FindTargets(fsys, paths)
	var te *verify.TargetError
	switch {
	case !errors.As(err, &te):
		return t, err
	case te.Code == "tool":
		return nil, e.usageErr("err_verify_tool", "Err", te.Err.Error())
	}
	return nil, e.usageErr("err_verify_"+te.Code, "Path", te.Path)
}

// verify runs verify.Run, telling a person at a terminal which exercise it audits.
func (e *env) verify(ctx context.Context, t *verify.Targets, cache *verify.Cache) (*verify.Report, error) {
	var progress func(name string, n, total int)
	if tty.IsTerminal(e.stderr) {
		progress = func(name string, n, total int) {
			if name == "" {
				fmt.Fprintf(e.stderr, "\r\x1b[K%s", e.ui.T("verify_progress_build", "Exercises", e.ui.N("verify_n_exercises", total)))
				return
			}
			fmt.Fprintf(e.stderr, "\r\x1b[K%s", e.ui.T("verify_progress", "Name", name, "N", n, "Total", total))
		}
	}
	v, err := verify.Run(ctx, t, cache, e.ui, progress)
	if progress != nil && len(t.Exercises) > 0 {
		fmt.Fprint(e.stderr, "\r\x1b[K")
	}
	var te *course.ToolError
	if errors.As(err, &te) {
		return nil, e.usageErr("err_verify_tool", "Err", te.Err.Error())
	}
	return v, err
}
