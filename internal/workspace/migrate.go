package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/workbook-course/workbook/internal/course"
)

// Migrate carries a workspace of the layout before language folders (every exercise's folder at
// the root, kept versions in .workbook-backup/<exercise>/<n>) over to the layout of today, losing
// nothing: each exercise folder moves into the folder of its language (the language of the
// statement it holds, else lang), and each kept version into the versions of its language. A folder
// that would land where one already is becomes a kept version instead. Files that are not the
// course's are left where they are. It returns the exercises moved.
func (w *Workspace) Migrate(c *course.Course, lang string) ([]string, error) {
	list, err := c.Exercises()
	if err != nil {
		return nil, err
	}
	var moved []string
	for _, ex := range list {
		old := filepath.Join(w.Root, ex.Name)
		if fi, err := os.Lstat(old); err != nil || !fi.IsDir() {
			continue
		}
		l := statementLang(ex, old)
		if l == "" {
			l = lang
		}
		if !IsContentLang(l) {
			l = "bg"
		}
		if err := os.MkdirAll(w.LangDir(l), 0o755); err != nil {
			return moved, &PathError{Path: w.LangDir(l), Err: err}
		}
		target := w.ExerciseDir(ex, l)
		if _, err := os.Lstat(target); err == nil {
			if err := w.keepAside(ex, l, old); err != nil {
				return moved, err
			}
		} else if err := move(old, target); err != nil {
			return moved, &PathError{Path: old, Err: err}
		}
		moved = append(moved, ex.Name)
	}
	for _, ex := range list {
		oldVersions := filepath.Join(w.BackupRoot(), ex.Name)
		entries, err := os.ReadDir(oldVersions)
		if err != nil {
			continue
		}
		var ns []int
		for _, d := range entries {
			if n, err := strconv.Atoi(d.Name()); err == nil && d.IsDir() && strconv.Itoa(n) == d.Name() {
				ns = append(ns, n)
			}
		}
		slices.Sort(ns)
		for _, n := range ns {
			dir := filepath.Join(oldVersions, strconv.Itoa(n))
			l := statementLang(ex, dir)
			if l == "" {
				l = lang
			}
			if !IsContentLang(l) {
				l = "bg"
			}
			if err := w.keepAside(ex, l, dir); err != nil {
				return moved, err
			}
		}
		os.Remove(oldVersions) // only when nothing foreign is left in it
	}
	return moved, nil
}

// keepAside moves the folder dir into the next version of ex in lang.
func (w *Workspace) keepAside(ex *course.Exercise, lang, dir string) error {
	list, err := w.Versions(ex, lang)
	if err != nil {
		return &BackupError{Dir: dir, Err: err}
	}
	next := 1
	if n := len(list); n > 0 {
		next = list[n-1].N + 1
	}
	to := filepath.Join(w.VersionsDir(ex, lang), strconv.Itoa(next))
	for {
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			break
		}
		next++
		to = filepath.Join(w.VersionsDir(ex, lang), strconv.Itoa(next))
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return &BackupError{Dir: dir, Err: err}
	}
	if err := move(dir, to); err != nil {
		return &BackupError{Dir: dir, Err: err}
	}
	return nil
}

// move renames from to to, or, where the system refuses (a folder in use on Windows), copies it and
// then empties and removes from.
func move(from, to string) error {
	if err := os.Rename(from, to); err == nil {
		return nil
	}
	if err := copyTree(os.DirFS(from), ".", to); err != nil {
		os.RemoveAll(to)
		return err
	}
	if err := empty(from); err != nil {
		return err
	}
	os.Remove(from) // a folder someone stands in may stay, empty
	return nil
}
