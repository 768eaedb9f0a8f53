package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
)

var initCmd = &command{name: "init", usage: "init_usage", summary: "init_summary"}

func init() {
	initCmd.run = runInit
	register(initCmd)
}

// statementFile is the name of the task statement in each exercise folder of a workspace.
const statementFile = "README.md"

// defaultWorkspace is the folder init makes when it is given none.
const defaultWorkspace = "workbook-course"

// runInit makes a learner's workspace: one folder per exercise with its starter, its statement and a
// go.mod of its own, and the progress file at the root. Run again on a workspace, it adds the
// exercises that are new and leaves every existing file alone.
func runInit(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags(initCmd)
	pos, err := e.parse(initCmd, flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return e.usageErr("err_init_args")
	}
	dir := defaultWorkspace
	if len(pos) == 1 {
		dir = pos[0]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return e.usageErr("err_init_dir", "Dir", dir, "Err", err.Error())
	}
	if p := findPlace(abs); p != nil && p.kind == inClone {
		return e.usageErr("err_init_in_clone", "Dir", dir, "Root", p.root)
	}
	lang := e.content
	existing := false
	statePath := filepath.Join(abs, progress.FileName)
	if _, err := os.Stat(statePath); err == nil {
		existing = true
		p := &place{kind: inWorkspace, root: abs, lang: lang}
		st, err := e.loadState(p)
		if err != nil {
			return err
		}
		if isContentLang(st.Lang) && st.Lang != lang {
			e.warn("warn_init_lang_kept", "Dir", dir, "Lang", e.ui.T("lang_"+st.Lang))
			lang = st.Lang
		}
	} else if entries, err := os.ReadDir(abs); err == nil && len(entries) > 0 {
		return e.usageErr("err_init_not_empty", "Dir", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return e.usageErr("err_init_dir", "Dir", dir, "Err", err.Error())
	}
	list, err := e.course.Exercises()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return e.usageErr("err_init_dir", "Dir", dir, "Err", err.Error())
	}
	goLine := checker.GoVersion()
	added, kept := 0, 0
	for _, ex := range list {
		target := filepath.Join(abs, ex.Name)
		if _, err := os.Stat(target); err == nil {
			kept++
			continue
		}
		if err := writeExercise(e.course.FS(), ex, lang, target, goLine); err != nil {
			os.RemoveAll(target) // never leave half an exercise: the next init makes it whole
			return e.usageErr("err_init_dir", "Dir", target, "Err", err.Error())
		}
		added++
	}
	if !existing {
		if err := progress.Save(statePath, progress.New(lang, time.Now())); err != nil {
			return e.usageErr("err_state_write", "Path", statePath, "Err", err.Error())
		}
	}
	w := e.stdout
	if existing {
		fmt.Fprintln(w, e.ui.N("init_updated", added, "Dir", dir, "Kept", kept))
	} else {
		fmt.Fprintln(w, e.ui.N("init_done", added, "Dir", dir, "Lang", e.ui.T("lang_"+lang)))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, e.ui.T("init_next", "Dir", dir))
	return nil
}

// writeExercise copies the starter of ex in lang to target, with the statement and a go.mod.
func writeExercise(fsys fs.FS, ex *course.Exercise, lang, target, goLine string) error {
	if err := copyTree(fsys, ex.StarterDir(lang), target); err != nil {
		return err
	}
	statement, err := ex.Statement(lang)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(target, statementFile), []byte(statement), 0o644); err != nil {
		return err
	}
	mod := filepath.Join(target, "go.mod")
	if _, err := os.Stat(mod); err == nil {
		return nil
	}
	return os.WriteFile(mod, []byte("module "+ex.Name+"\n\ngo "+goLine+"\n"), 0o644)
}

// copyTree copies the folder dir of fsys to target on disk.
func copyTree(fsys fs.FS, dir, target string) error {
	return fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := "."
		if p != dir {
			rel = strings.TrimPrefix(p, strings.TrimSuffix(dir, "/")+"/")
			if dir == "." {
				rel = p
			}
		}
		to := filepath.Join(target, filepath.FromSlash(rel))
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}
