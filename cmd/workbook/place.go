package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/learn"
	"github.com/workbook-course/workbook/internal/paths"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/tty"
	"github.com/workbook-course/workbook/internal/workspace"
)

// decideLangs sets the message and content languages from the flags, the environment and the
// workspace the learner stands in (workspace.Here; found, not made).
func (e *env) decideLangs(flagLang, flagMessages string) error {
	e.langFlag, e.flagMessages = flagLang, flagMessages
	if wd, err := workspace.Here(); err == nil {
		e.ws = workspace.Find(wd)
	}
	var stored workspace.Settings
	if e.ws != nil && e.ws.Exists() {
		stored = e.ws.Settings()
		if stored.Content == "" {
			stored.Content = e.ws.GuessLang(e.course)
		}
	}
	c, err := workspace.Decide(workspace.Sources{Lang: flagLang, Messages: flagMessages, Getenv: e.getenv, Stored: stored})
	e.choice = c
	e.ui, e.content = e.printer(c.Messages), c.Content
	return err
}

// contentNamed reports whether the user named the content language for this run.
func (e *env) contentNamed() bool { return e.choice.ContentNamed() }

// needWorkspace is the learner's workspace for a command that keeps the learner's work: the one the
// working directory is in, made now when it is a clone's that is not made yet. Outside both it is a
// usage error that says how to make one.
func (e *env) needWorkspace() (*workspace.Workspace, error) {
	ws := e.ws
	if ws == nil {
		return nil, e.usageErr("err_no_workspace")
	}
	if !ws.Exists() {
		if err := e.makeCloneWorkspace(ws); err != nil {
			return nil, err
		}
	}
	e.enter(ws)
	return ws, nil
}

// keepWorkspace is needWorkspace for a command that also works outside any workspace (and then keeps
// nothing): nil there.
func (e *env) keepWorkspace() (*workspace.Workspace, error) {
	if e.ws == nil {
		return nil, nil
	}
	return e.needWorkspace()
}

// madeWorkspace is the workspace the working directory is in when it is made, else nil.
func (e *env) madeWorkspace() *workspace.Workspace {
	if e.ws == nil || !e.ws.Exists() {
		return nil
	}
	e.enter(e.ws)
	return e.ws
}

// enter makes the content language the workspace's, and says what entering it did
// (workspace.Enter): an old layout carried over, the language switched, a language named that the
// workspace does not keep. It enters each workspace once.
func (e *env) enter(ws *workspace.Workspace) {
	if e.entered == ws.Root {
		return
	}
	e.entered = ws.Root
	wd, err := workspace.Here()
	if err != nil {
		wd = ""
	}
	en := ws.Enter(e.course, wd, e.content, e.contentNamed(), checker.GoVersion())
	for _, err := range []error{en.MigrateErr, en.AddErr} {
		if err != nil {
			e.warn("err_migrate", "Dir", e.rel(ws.Root), "Err", err.Error())
		}
	}
	if en.MigrateErr == nil && len(en.Migrated) > 0 {
		fmt.Fprintln(e.stderr, "workbook: "+e.ui.N("workspace_migrated", len(en.Migrated), "Dir", e.rel(ws.Root), "Langs", e.rel(ws.LangDir("ru"))+", "+e.rel(ws.LangDir("bg")), "Backup", e.rel(ws.BackupRoot())))
	}
	switch {
	case en.SwitchErr != nil:
		e.warn("err_init_dir", "Dir", ws.Root, "Err", en.SwitchErr.Error())
	case en.Switched:
		e.warn("workspace_switched", "Dir", e.rel(ws.Root), "Lang", e.langName(e.content), "New", e.rel(ws.LangDir(e.content)), "Old", e.rel(ws.LangDir(en.Own)))
	}
	if en.Kept {
		e.warn("warn_workspace_lang", "Dir", e.rel(ws.Root), "Lang", e.langName(en.Own), "Asked", e.langName(e.content), "Code", e.content)
	}
	if en.Lang != "" {
		e.content = en.Lang
	}
	if en.DirMissing {
		e.warn("warn_lang_dir_missing", "Dir", e.rel(ws.LangDir(en.Lang)), "Lang", e.langName(en.Lang), "Code", en.Lang)
	}
}

// makeCloneWorkspace makes the workspace of a clone, in the content language the learner chooses,
// and says so in one line.
func (e *env) makeCloneWorkspace(ws *workspace.Workspace) error {
	if l := ws.OldLang(e.course); l != "" && !e.contentNamed() {
		// A clone worked in the old way: its language is the one the learner's programs are in.
		e.content, e.choice.Content, e.choice.ContentFrom = l, l, workspace.FromWorkspace
		if e.choice.FollowsContent() {
			e.choice.Messages, e.ui = l, e.printer(l)
		}
	}
	s := e.newSettings()
	if _, _, err := ws.Create(e.course, s, checker.GoVersion()); err != nil {
		return e.usageErr("err_init_dir", "Dir", ws.Root, "Err", err.Error())
	}
	e.warn("workspace_made", "Dir", e.rel(ws.Root)+string(filepath.Separator), "Lang", e.langName(s.Content), "Progs", e.rel(ws.LangDir(s.Content))+string(filepath.Separator))
	moved, err := ws.Adopt(e.course, s.Content)
	if err != nil {
		return e.usageErr("err_init_dir", "Dir", ws.Root, "Err", err.Error())
	}
	if len(moved) > 0 {
		fmt.Fprintln(e.stderr, "workbook: "+e.ui.N("workspace_adopted", len(moved), "List", strings.Join(moved, ", "), "Dir", e.rel(ws.Root)))
	}
	return nil
}

// newSettings are the language settings of a new workspace (workspace.Choice.NewSettings), in
// the content language named or chosen.
func (e *env) newSettings() workspace.Settings {
	content := e.chooseContent() // asking may change the choice
	return e.choice.NewSettings(content)
}

// chooseContent is the content language for a new workspace: the one named or inferred, else the
// learner's answer on a terminal, else Bulgarian with a word on how to choose.
func (e *env) chooseContent() string {
	if e.choice.ContentFrom != workspace.FromDefault {
		return e.content
	}
	if e.isTerminal() {
		if l := e.askContent(); l != "" {
			e.choice.Content, e.choice.ContentFrom = l, workspace.FromWorkspace
			e.content = l
			if e.choice.FollowsContent() {
				// The learner answered in a language and nothing else names one for messages: the tool
				// speaks it too. A locale (English included) keeps the messages its own.
				e.choice.Messages, e.choice.MessagesFrom = l, workspace.FromWorkspace
				e.ui = e.printer(l)
			}
			return l
		}
	}
	e.noteDefaultContent()
	return e.content
}

// askContent asks for the content language on the terminal, in both languages, until it gets an
// answer; "" when the input ends.
func (e *env) askContent() string {
	bg, ru := i18n.New("bg"), i18n.New("ru")
	in := bufio.NewReader(e.stdin)
	for range 3 {
		if e.ui.Lang() == "en" {
			fmt.Fprintln(e.stderr, e.ui.T("ask_content_lang"))
		}
		fmt.Fprintln(e.stderr, ru.T("ask_content_lang"))
		fmt.Fprintln(e.stderr, bg.T("ask_content_lang"))
		fmt.Fprintln(e.stderr, "  1) русский")
		fmt.Fprintln(e.stderr, "  2) български")
		fmt.Fprint(e.stderr, "[1/2]: ")
		line, err := in.ReadString('\n')
		if l := workspace.ContentAnswer(line); l != "" {
			return l
		}
		if err != nil {
			fmt.Fprintln(e.stderr)
			return ""
		}
	}
	return ""
}

// noteDefaultContent says, once, that the content is Bulgarian because nothing named a language, and
// how to choose: in the message language when something (a locale, a flag) named it, else in both
// content languages, since nothing tells which the learner reads.
func (e *env) noteDefaultContent() {
	if e.noted {
		return
	}
	e.noted = true
	if !e.choice.FollowsContent() {
		e.warn("note_default_content")
		return
	}
	for _, l := range []string{"bg", "ru"} {
		fmt.Fprintln(e.stderr, "workbook: "+i18n.New(l).T("note_default_content"))
	}
}

// contentLang is the content language for a command outside a workspace; when nothing named one,
// it says how to choose.
func (e *env) contentLang() string {
	if e.choice.ContentFrom == workspace.FromDefault && e.entered == "" {
		e.noteDefaultContent()
	}
	return e.content
}

// isTerminal reports whether the learner can be asked: stdin and stderr are a terminal.
func (e *env) isTerminal() bool {
	if e.tty != nil {
		return e.tty()
	}
	in, ok := e.stdin.(*os.File)
	return ok && tty.IsTerminal(in) && tty.IsTerminal(e.stderr)
}

// rel is path relative to the folder the learner stands in (workspace.Here) when it is below it,
// else path itself.
func (e *env) rel(path string) string {
	wd, err := workspace.Here()
	if err != nil {
		return path
	}
	return paths.FromDir(wd, path)
}

// freshState is the state of a learner who starts now in ws.
func (e *env) freshState(ws *workspace.Workspace) func() *progress.State {
	return func() *progress.State { return progress.New(e.content, time.Now()) }
}

// session is the learner in the workspace ws (nil: outside any), in the content and message
// languages decided: the one owner of their use cases and state (learn.Session), which the
// browser's server shares.
func (e *env) session(ws *workspace.Workspace) *learn.Session {
	s := &learn.Session{Course: e.course, Lang: e.content, UI: e.ui,
		Warn: func(ce *progress.CorruptError) {
			e.warn("warn_state_corrupt", "Path", ce.Path, "Backup", ce.Backup, "Err", ce.Err.Error())
		}}
	if ws != nil {
		s.Place = e.learnPlace(ws)
	}
	return s
}

// learnPlace is the workspace ws as a learner's place: the same folders and state file every
// command and the browser use, in the workspace's content language.
func (e *env) learnPlace(ws *workspace.Workspace) *learn.Place {
	return &learn.Place{
		Root:      ws.Root,
		StatePath: ws.StatePath(),
		Lang:      e.content,
		Dir:       func(ex *course.Exercise, lang string) string { return ws.ExerciseDir(ex, lang) },
		Fresh:     e.freshState(ws),
		Pristine:  func(ex *course.Exercise, lang string) bool { return ws.Pristine(e.course, ex, lang) },
		Workspace: ws,
	}
}

// loadState reads the progress in ws (learn.Session.State). A missing file is a fresh start; a
// corrupt one is reported on stderr, kept aside under a new name and replaced by a fresh state at
// once, so that the workspace stays a workspace.
func (e *env) loadState(ws *workspace.Workspace) (*progress.State, error) {
	st, err := e.session(ws).State()
	if err != nil {
		return nil, e.usageErr("err_state_read", "Path", ws.StatePath(), "Err", err.Error())
	}
	return st, nil
}

// updateState changes the progress in ws and saves it (learn.Session.Update); a corrupt file is
// reported as loadState does.
func (e *env) updateState(ws *workspace.Workspace, change func(*progress.State) error) (*progress.State, error) {
	st, err := e.session(ws).Update(change)
	if err != nil {
		return nil, e.stateErr(ws.StatePath(), err)
	}
	return st, nil
}

// stateErr is the learner's message for the progress file path that could not be written.
func (e *env) stateErr(path string, err error) error {
	var ee *cli.ExitError
	switch {
	case errors.As(err, &ee):
		return err
	case errors.Is(err, progress.ErrLocked):
		return e.usageErr("err_state_locked", "Path", path)
	}
	return e.usageErr("err_state_write", "Path", path, "Err", err.Error())
}

// warn prints a warning in the user's language on stderr.
func (e *env) warn(id string, kv ...any) {
	fmt.Fprintln(e.stderr, "workbook: "+e.runnable(e.ui.T(id, kv...)))
}

// exerciseHere is the exercise whose folder in ws holds the working directory, or nil.
func (e *env) exerciseHere(ws *workspace.Workspace) *course.Exercise {
	wd, err := workspace.Here()
	if err != nil || ws == nil {
		return nil
	}
	list, err := e.course.Exercises()
	if err != nil {
		return nil
	}
	ex, _ := ws.ExerciseAt(wd, list)
	return ex
}
