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

var initCmd = &command{name: "init", usage: "init_usage", summary: "init_summary"}

func init() {
	initCmd.run = runInit
	register(initCmd)
}

// runInit makes a learner's workspace: one folder per exercise with its pristine starter, its
// statement and a go.mod of its own, and the progress file (with the language settings) at the root.
// Run again on a workspace, it adds the exercises that are new and leaves every existing file alone.
func runInit(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags(initCmd)
	pos, err := e.parse(initCmd, flags, args)
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
	existing := ws.Exists()
	s := workspace.Settings{}
	if existing {
		if _, err := e.loadState(ws); err != nil {
			return err
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
	} else if entries, err := os.ReadDir(abs); err == nil && len(entries) > 0 {
		return e.usageErr("err_init_not_empty", "Dir", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return e.usageErr("err_init_dir", "Dir", dir, "Err", err.Error())
	} else {
		s.Content = e.chooseContent()
		s.Assumed = e.choice.ContentFrom == workspace.FromDefault
		switch e.choice.MessagesFrom {
		case workspace.FromFlag, workspace.FromMessages, workspace.FromEnv, workspace.FromEnvMsg, workspace.FromWorkspace:
			s.Messages = e.choice.Messages
		}
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
	fmt.Fprintln(w, e.runnable(e.ui.T("init_next", "Dir", dir)))
	return nil
}
