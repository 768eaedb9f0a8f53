package main

import (
	"context"
	"fmt"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runLang shows the two language settings, or changes what the workspace keeps: `lang ru` makes
// ru its content language (the programs in ru are used, made from the starters the first time; the
// other language's programs stay in their own folder, untouched), `lang --messages en` keeps
// English messages, `--messages auto` lets them follow the environment again.
func runLang(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 || len(pos) == 1 && !workspace.IsContentLang(workspace.Normalize(pos[0])) {
		return e.usageErr("err_lang_args")
	}
	messages := e.flagMessages != ""
	if len(pos) == 0 && !messages {
		if ws := e.madeWorkspace(); ws != nil {
			fmt.Fprintln(e.stdout, e.runnable(e.ui.T("lang_workspace", "Dir", e.rel(ws.Root))))
		}
		e.printSettings(e.stdout)
		return nil
	}
	if e.ws != nil && !e.ws.Exists() && len(pos) == 1 {
		// A clone's workspace not made yet is made in the language asked for.
		e.content, e.choice.Content, e.choice.ContentFrom = workspace.Normalize(pos[0]), workspace.Normalize(pos[0]), workspace.FromFlag
	}
	ws, err := e.needWorkspace()
	if err != nil {
		return err
	}
	if len(pos) == 1 {
		if err := e.switchContent(ws, workspace.Normalize(pos[0])); err != nil {
			return err
		}
	}
	if messages {
		return e.keepMessages(ws)
	}
	return nil
}

// switchContent makes to the content language of ws: its programs in to are used, made from the
// starters the first time; the same language again only writes the starters missing.
func (e *env) switchContent(ws *workspace.Workspace, to string) error {
	from := ws.Settings().Content
	if from == "" {
		from = ws.GuessLang(e.course)
	}
	if to != from {
		added, err := ws.Switch(e.course, to, checker.GoVersion())
		if err != nil {
			return e.usageErr("err_init_dir", "Dir", ws.Root, "Err", err.Error())
		}
		e.content = to
		args := []any{"Dir", e.rel(ws.Root), "Lang", e.langName(to), "New", e.rel(ws.LangDir(to)), "Old", e.rel(ws.LangDir(from)), "OldLang", e.langName(from)}
		if added > 0 {
			fmt.Fprintln(e.stdout, e.runnable(e.ui.T("lang_switched_new", args...)))
		} else {
			fmt.Fprintln(e.stdout, e.runnable(e.ui.T("lang_switched_back", args...)))
		}
	} else {
		// The same language: only the starters missing from its folder are written.
		if _, _, err := ws.AddLang(e.course, to, checker.GoVersion()); err != nil {
			return e.usageErr("err_init_dir", "Dir", ws.Root, "Err", err.Error())
		}
		fmt.Fprintln(e.stdout, e.runnable(e.ui.T("lang_same", "Dir", e.rel(ws.Root), "Lang", e.langName(to))))
	}
	return nil
}

// keepMessages stores in ws the message language named by --messages, or none for auto.
func (e *env) keepMessages(ws *workspace.Workspace) error {
	keep := ""
	if e.choice.MessagesFrom == workspace.FromMessages {
		keep = e.choice.Messages
	}
	if _, err := e.updateState(ws, func(st *progress.State) error {
		st.Messages = keep
		return nil
	}); err != nil {
		return err
	}
	if keep == "" {
		fmt.Fprintln(e.stdout, e.runnable(e.ui.T("lang_messages_auto", "Dir", e.rel(ws.Root))))
	} else {
		fmt.Fprintln(e.stdout, e.runnable(e.ui.T("lang_messages_kept", "Dir", e.rel(ws.Root), "Lang", e.langName(keep))))
	}
	return nil
}
