package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runInit makes a learner's workspace: one folder per exercise with its pristine starter, its
// statement and a go.mod of its own, and the progress file (with the language settings) at the root.
// Run again on a workspace, it adds the exercises that are new and leaves every existing file alone.
func runInit(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return e.usageErr("err_init_args")
	}
	dir := workspace.DefaultFolder
	if len(pos) == 1 {
		dir = pos[0]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return e.usageErr("err_init_dir", "Dir", dir, "Err", err.Error())
	}
	ws := &workspace.Workspace{Root: abs}
	if root := workspace.CloneRoot(abs); root != "" {
		// A clone has one workspace, the git-ignored folder at its root.
		if abs != filepath.Join(root, workspace.CloneFolder) {
			return e.usageErr("err_init_in_clone", "Dir", dir, "Root", root, "My", filepath.Join(root, workspace.CloneFolder))
		}
		ws.Clone = root
	}
	s, existing, err := e.initSettings(ws, dir)
	if err != nil {
		return err
	}
	added, kept, err := ws.Create(e.course, s, checker.GoVersion())
	if err != nil {
		var pe *workspace.PathError
		if errors.As(err, &pe) {
			return e.usageErr("err_init_dir", "Dir", pe.Path, "Err", pe.Err.Error())
		}
		return e.usageErr("err_init_dir", "Dir", dir, "Err", err.Error())
	}
	w := e.stdout
	if existing {
		fmt.Fprintln(w, e.runnable(e.ui.N("init_updated", added, "Dir", dir, "Kept", kept)))
	} else {
		fmt.Fprintln(w, e.runnable(e.ui.N("init_done", added, "Dir", dir, "Lang", e.langName(s.Content))))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, e.messageIn(abs, "init_next", "Dir", dir))
	return nil
}

// initSettings are the language settings for init to make ws with, and whether ws exists already:
// an existing workspace keeps its content language (said when another was named); a new one gets
// the language named or chosen. A folder that is no workspace and not empty is a usage error.
func (e *env) initSettings(ws *workspace.Workspace, dir string) (s workspace.Settings, existing bool, err error) {
	if ws.Exists() {
		if _, err := e.loadState(ws); err != nil {
			return s, true, err
		}
		s.Content = ws.Settings().Content
		if s.Content == "" {
			s.Content = ws.GuessLang(e.course)
		}
		if s.Content == "" {
			s.Content = e.content
		}
		if s.Content != e.content && e.contentNamed() {
			e.warn("warn_init_lang_kept", "Dir", dir, "Lang", e.langName(s.Content))
		}
		return s, true, nil
	}
	entries, err := os.ReadDir(ws.Root)
	if err == nil && len(entries) > 0 {
		return s, false, e.usageErr("err_init_not_empty", "Dir", dir)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s, false, e.usageErr("err_init_dir", "Dir", dir, "Err", err.Error())
	}
	return e.newSettings(), false, nil
}
