package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/progress"
)

// placeKind tells a learner's workspace (made by `workbook init`) from a clone of the repository.
type placeKind int

const (
	inWorkspace placeKind = iota + 1
	inClone
)

// place is where the learner works: a workspace or a clone, with its root and content language.
// Progress lives in the state file at the root of either.
type place struct {
	kind placeKind
	root string
	lang string // content language: the workspace's own, or the user's in a clone
}

func (p *place) statePath() string { return filepath.Join(p.root, progress.FileName) }

// exerciseDir is the folder of the learner's program for ex in this place.
func (p *place) exerciseDir(ex *course.Exercise) string {
	if p.kind == inClone {
		return filepath.Join(p.root, filepath.FromSlash(ex.StarterDir(p.lang)))
	}
	return filepath.Join(p.root, ex.Name)
}

// taskFile is the file holding the statement of ex in this place.
func (p *place) taskFile(ex *course.Exercise) string {
	if p.kind == inClone {
		return filepath.Join(p.root, filepath.FromSlash(ex.Dir()), p.lang+".md")
	}
	return filepath.Join(p.root, ex.Name, statementFile)
}

// backupRoot is where reset keeps the learner's versions; hidden, so go build and go:embed skip it.
func (p *place) backupRoot() string { return filepath.Join(p.root, ".workbook-backup") }

// findPlace walks up from start to the nearest workspace or clone root, or returns nil.
func findPlace(start string) *place {
	dir, err := filepath.Abs(start)
	if err != nil {
		return nil
	}
	for {
		if isClone(dir) {
			return &place{kind: inClone, root: dir}
		}
		if fi, err := os.Stat(filepath.Join(dir, progress.FileName)); err == nil && fi.Mode().IsRegular() {
			return &place{kind: inWorkspace, root: dir}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// isClone reports whether dir is the root of a clone of this repository.
func isClone(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(data), "module github.com/workbook-course/workbook\n") {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, "exercises"))
	return err == nil && fi.IsDir()
}

// where finds the learner's place from the working directory (or from start when it is not empty)
// and sets the content language to the workspace's. When the user asked for no language at all, the
// messages follow the workspace too. It returns nil outside any workspace or clone.
func (e *env) where(start string) *place {
	if start == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil
		}
		start = wd
	}
	p := findPlace(start)
	if p == nil {
		return nil
	}
	p.lang = e.content
	if p.kind == inWorkspace {
		if l := workspaceLang(p); l != "" {
			p.lang = l
		} else {
			p.lang = guessLang(e, p)
		}
		if p.lang != e.content {
			e.content = p.lang
			if !e.langChosen() {
				e.ui = i18n.New(p.lang)
			}
		}
	}
	return p
}

// workspaceUI makes messages speak the workspace's language when the working directory is in a
// workspace and the user asked for no language, so that even a usage error is in that language.
func (e *env) workspaceUI() {
	if e.langChosen() {
		return
	}
	wd, err := os.Getwd()
	if err != nil {
		return
	}
	if p := findPlace(wd); p != nil && p.kind == inWorkspace {
		if l := workspaceLang(p); l != "" {
			e.ui = i18n.New(l)
		}
	}
}

// workspaceLang reads the language of a workspace from its state file without judging the file: a
// damaged one is set aside and reported by loadState, once. It returns "" when it cannot tell.
func workspaceLang(p *place) string {
	var peek struct {
		Lang string `json:"lang"`
	}
	data, err := os.ReadFile(p.statePath())
	if err != nil || json.Unmarshal(data, &peek) != nil || !isContentLang(peek.Lang) {
		return ""
	}
	return peek.Lang
}

// langChosen reports whether the user named a language: --lang, WORKBOOK_LANG or a locale.
func (e *env) langChosen() bool {
	if e.langFlag != "" {
		return true
	}
	for _, k := range []string{"WORKBOOK_LANG", "LC_ALL", "LC_MESSAGES", "LANG"} {
		v := strings.ToLower(e.getenv(k))
		if i := strings.IndexAny(v, "_-.@"); i >= 0 {
			v = v[:i]
		}
		if v != "" && v != "c" && v != "posix" {
			return true
		}
	}
	return false
}

func isContentLang(l string) bool {
	for _, c := range course.Langs {
		if l == c {
			return true
		}
	}
	return false
}

// mustPlace is where() for the commands that need a workspace or a clone; outside both it is a usage
// error that tells the learner to make a workspace.
func (e *env) mustPlace() (*place, error) {
	p := e.where("")
	if p == nil {
		return nil, e.usageErr("err_no_workspace")
	}
	return p, nil
}

// freshState is the state of a learner who starts now in p.
func (e *env) freshState(p *place) func() *progress.State {
	return func() *progress.State {
		lang := p.lang
		if p.kind == inClone {
			lang = ""
		}
		return progress.New(lang, time.Now())
	}
}

// loadState reads the progress in p. A missing file is a fresh start; a corrupt one is reported on
// stderr, kept aside under a new name and replaced by a fresh state at once, so that the workspace
// stays a workspace.
func (e *env) loadState(p *place) (*progress.State, error) {
	st, err := progress.Load(p.statePath())
	var ce *progress.CorruptError
	switch {
	case err == nil:
		return st, nil
	case errors.Is(err, fs.ErrNotExist):
		return e.freshState(p)(), nil
	case errors.As(err, &ce) && ce.Backup != "":
		e.warn("warn_state_corrupt", "Path", ce.Path, "Backup", ce.Backup, "Err", ce.Err.Error())
		return e.updateState(p, func(*progress.State) error { return nil })
	}
	return nil, e.usageErr("err_state_read", "Path", p.statePath(), "Err", err.Error())
}

// updateState changes the progress in p and saves it; a corrupt file is reported as loadState does.
func (e *env) updateState(p *place, change func(*progress.State) error) (*progress.State, error) {
	fresh := e.freshState(p)
	if p.kind == inWorkspace {
		fresh = func() *progress.State {
			return progress.New(guessLang(e, p), time.Now())
		}
	}
	st, err := progress.Update(p.statePath(), fresh, change)
	var ce *progress.CorruptError
	if errors.As(err, &ce) {
		e.warn("warn_state_corrupt", "Path", ce.Path, "Backup", ce.Backup, "Err", ce.Err.Error())
		return st, nil
	}
	if err != nil {
		if errors.Is(err, progress.ErrLocked) {
			return nil, e.usageErr("err_state_locked", "Path", p.statePath())
		}
		return nil, e.usageErr("err_state_write", "Path", p.statePath(), "Err", err.Error())
	}
	return st, nil
}

// guessLang finds the language of a workspace whose state file was lost: the language of the
// statements init wrote, else the place's language.
func guessLang(e *env, p *place) string {
	list, err := e.course.Exercises()
	if err != nil {
		return p.lang
	}
	for _, ex := range list {
		data, err := os.ReadFile(filepath.Join(p.root, ex.Name, statementFile))
		if err != nil {
			continue
		}
		for _, l := range course.Langs {
			if s, err := ex.Statement(l); err == nil && s == string(data) {
				return l
			}
		}
	}
	return p.lang
}

// warn prints a warning in the user's language on stderr.
func (e *env) warn(id string, kv ...any) {
	fmt.Fprintln(e.stderr, "workbook: "+e.ui.T(id, kv...))
}

// exerciseHere is the exercise whose folder holds the working directory, or nil.
func (e *env) exerciseHere(p *place) *course.Exercise {
	wd, err := os.Getwd()
	if err != nil || p == nil {
		return nil
	}
	list, err := e.course.Exercises()
	if err != nil {
		return nil
	}
	for _, ex := range list {
		if within(wd, p.exerciseDir(ex)) {
			return ex
		}
	}
	return nil
}

// within reports whether path is dir or lies inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// sameDir reports whether a and b name the same folder.
func sameDir(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// recordCheck notes the verdict of a check of ex in the learner's place, when the folder checked is
// the learner's own folder for ex there (a check of some other folder, such as a solution, is not
// the learner's progress).
func (e *env) recordCheck(ex *course.Exercise, src, verdict string) {
	p := e.where(src)
	if p == nil || !sameDir(src, p.exerciseDir(ex)) {
		return
	}
	if _, err := e.updateState(p, func(st *progress.State) error {
		st.Record(ex.Name, verdict, time.Now())
		return nil
	}); err != nil {
		// The check itself is done and reported; a progress file that cannot be written is a warning.
		var ee *exitError
		if errors.As(err, &ee) {
			fmt.Fprintln(e.stderr, "workbook: "+ee.msg)
		}
	}
}
