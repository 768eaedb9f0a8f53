package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
)

// Version is one kept version of the learner's program for an exercise in a language: a whole copy
// of the exercise's folder, numbered from 1 (the highest number is the newest).
type Version struct {
	N    int
	Dir  string
	Time time.Time // when it was kept
}

// Files are the Go files of the version, relative to its folder with forward slashes, sorted.
func (v Version) Files() []string {
	var files []string
	filepath.WalkDir(v.Dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(path, ".go") {
			rel, _ := filepath.Rel(v.Dir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	return files
}

// IsVersionArg reports whether a names a version on the command line: its number, or "last" for
// the newest.
func IsVersionArg(a string) bool {
	if a == "last" {
		return true
	}
	n, err := strconv.Atoi(a)
	return err == nil && n > 0
}

// VersionsDir is the folder holding the kept versions of ex in lang.
func (w *Workspace) VersionsDir(ex *course.Exercise, lang string) string {
	return filepath.Join(w.BackupRoot(), lang, ex.Name)
}

// Versions lists the kept versions of ex in lang, oldest first.
func (w *Workspace) Versions(ex *course.Exercise, lang string) ([]Version, error) {
	entries, err := os.ReadDir(w.VersionsDir(ex, lang))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var list []Version
	for _, d := range entries {
		n, err := strconv.Atoi(d.Name())
		if err != nil || n < 1 || !d.IsDir() || strconv.Itoa(n) != d.Name() {
			continue // not a version of ours: left alone
		}
		v := Version{N: n, Dir: filepath.Join(w.VersionsDir(ex, lang), d.Name())}
		if fi, err := d.Info(); err == nil {
			v.Time = fi.ModTime()
		}
		list = append(list, v)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].N < list[j].N })
	return list, nil
}

// Pristine reports whether the folder of ex in lang holds exactly what Create writes there: the
// starter's files, the statement and go.mod, unchanged.
func (w *Workspace) Pristine(c *course.Course, ex *course.Exercise, lang string) bool {
	statement, err := w.Statement(ex, lang)
	if err != nil {
		return false
	}
	raw, _ := ex.Statement(lang) // as versions before wrote it
	if got, err := os.ReadFile(w.StatementPath(ex, lang)); err != nil || string(got) != statement && string(got) != raw {
		return false
	}
	// The statement, go.mod and, for a virtual-time exercise, the flaky service aside.
	also := []string{StatementFile, "go.mod"}
	for name := range checker.LocalWorld() {
		also = append(also, name)
	}
	return w.pristineDir(c, ex, lang, w.ExerciseDir(ex, lang), also...)
}

// Keep copies the folder of ex in lang, whole, into a new numbered version, unless there is nothing
// of the learner's in it: a missing folder, the pristine starter, or the same files as a version
// already kept. It returns the version that holds what the folder holds now (zero when the
// folder held nothing of the learner's) and whether it was made now.
func (w *Workspace) Keep(c *course.Course, ex *course.Exercise, lang string) (v Version, made bool, err error) {
	dir := w.ExerciseDir(ex, lang)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || w.Pristine(c, ex, lang) {
		return Version{}, false, nil
	}
	list, err := w.Versions(ex, lang)
	if err != nil {
		return Version{}, false, &BackupError{Dir: dir, Err: err}
	}
	for i := len(list) - 1; i >= 0; i-- {
		if sameTree(dir, list[i].Dir) {
			return list[i], false, nil // kept already (restored and not changed since)
		}
	}
	next := 1
	if n := len(list); n > 0 {
		next = list[n-1].N + 1
	}
	v = Version{N: next, Dir: filepath.Join(w.VersionsDir(ex, lang), strconv.Itoa(next)), Time: time.Now()}
	for {
		if _, err := os.Lstat(v.Dir); errors.Is(err, fs.ErrNotExist) {
			break
		}
		v.N++ // a foreign file of that name: never written over
		v.Dir = filepath.Join(w.VersionsDir(ex, lang), strconv.Itoa(v.N))
	}
	if err := copyTree(os.DirFS(dir), ".", v.Dir); err != nil {
		os.RemoveAll(v.Dir)
		return Version{}, false, &BackupError{Dir: dir, Err: err}
	}
	return v, true, nil
}

// Reset puts the pristine starter of ex in lang back in its folder, after keeping what the folder
// held (see Keep). The folder is emptied rather than moved, because the learner's shell or editor
// may stand in it.
func (w *Workspace) Reset(c *course.Course, ex *course.Exercise, lang, goLine string) (Version, error) {
	v, _, err := w.Keep(c, ex, lang)
	if err != nil {
		return v, err
	}
	dir := w.ExerciseDir(ex, lang)
	if err := empty(dir); err != nil {
		return v, err
	}
	return v, w.writeExercise(c, ex, lang, dir, goLine)
}

// RestoreVersion brings the kept version n of ex in lang back into its folder, after keeping what
// the folder held (see Keep); the version restored stays kept too. It returns the version that now
// holds what the folder held before (zero when that was nothing of the learner's).
func (w *Workspace) RestoreVersion(c *course.Course, ex *course.Exercise, lang string, n int) (Version, error) {
	list, err := w.Versions(ex, lang)
	if err != nil {
		return Version{}, err
	}
	var from *Version
	for i := range list {
		if list[i].N == n {
			from = &list[i]
		}
	}
	if from == nil {
		return Version{}, &NoVersionError{Exercise: ex.Name, Lang: lang, N: n, Have: len(list)}
	}
	kept, _, err := w.Keep(c, ex, lang)
	if err != nil {
		return kept, err
	}
	dir := w.ExerciseDir(ex, lang)
	if err := empty(dir); err != nil {
		return kept, err
	}
	return kept, copyTree(os.DirFS(from.Dir), ".", dir)
}

// NoVersionError means the version asked for was never kept.
type NoVersionError struct {
	Exercise, Lang string
	N, Have        int
}

func (e *NoVersionError) Error() string {
	return fmt.Sprintf("%s (%s): no version %d kept (%d kept)", e.Exercise, e.Lang, e.N, e.Have)
}

// Switch makes to the workspace's content language: the folder of to gets the starters of the
// exercises it lacks (the first time), the progress file names to as the learner's choice, and the
// progress in each language stays its own. Nothing of the language left is touched, so switching
// back finds every program as it was. It returns how many starters were written.
func (w *Workspace) Switch(c *course.Course, to, goLine string) (int, error) {
	added, _, err := w.AddLang(c, to, goLine)
	if err != nil {
		return added, err
	}
	_, err = progress.Update(w.StatePath(), func() *progress.State { return progress.New(to, time.Now()) }, func(st *progress.State) error {
		st.SwitchLang(to)
		st.Assumed = false
		return nil
	})
	return added, err
}

// empty removes everything inside dir, making it when it is missing.
func empty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	for _, d := range entries {
		if err := os.RemoveAll(filepath.Join(dir, d.Name())); err != nil {
			return err
		}
	}
	return nil
}

// sameTree reports whether folders a and b hold the same regular files with the same contents.
func sameTree(a, b string) bool {
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			if data, err := os.ReadFile(p); err == nil {
				m[filepath.ToSlash(rel)] = data
			}
			return nil
		})
		return m
	}
	fa, fb := files(a), files(b)
	if len(fa) != len(fb) {
		return false
	}
	for k, v := range fa {
		if w, ok := fb[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

// HasWork reports whether the folder of ex in lang holds something of the learner's: it is there and
// is not the pristine starter. A command that would replace it asks first.
func (w *Workspace) HasWork(c *course.Course, ex *course.Exercise, lang string) bool {
	fi, err := os.Stat(w.ExerciseDir(ex, lang))
	return err == nil && fi.IsDir() && !w.Pristine(c, ex, lang)
}
