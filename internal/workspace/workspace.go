// Package workspace finds, makes and mends a learner's workspace: the folder that holds the learner's
// programs (one folder per exercise with its starter, its statement and a go.mod of its own) and the
// progress file, which also keeps the learner's settings (content and message languages).
//
//	ws := workspace.Find(wd) // nil outside any workspace or clone of the course
//	if ws != nil && !ws.Exists() {
//		// in a clone whose workspace (./my/) is not made yet
//		_, _, err := ws.Create(c, workspace.Settings{Content: "ru"}, checker.GoVersion())
//	}
//	dir := ws.ExerciseDir(ex)
//
//	choice, err := workspace.Decide(workspace.Sources{Lang: flagLang, Getenv: os.Getenv, Stored: ws.Settings()})
//
// Course content is never read from a workspace: starters, statements, cases and solutions come from
// the course's file system (the one the binary embeds), so Create and Restore always give pristine
// starters, however much the learner has edited. In a clone of the repository the workspace is the
// git-ignored folder CloneFolder at the clone's root; elsewhere it is any folder made by Create
// (`workbook init`). The command line and the web server both find it here.
package workspace

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
)

const (
	// StatementFile is the name of the task statement in each exercise folder of a workspace.
	StatementFile = "README.md"
	// CloneFolder is the workspace's folder at the root of a clone; .gitignore names it.
	CloneFolder = "my"
	// DefaultFolder is the folder `workbook init` makes when it is given none.
	DefaultFolder = "workbook-course"
	// backupFolder keeps what Restore replaced; hidden, so go build skips it.
	backupFolder = ".workbook-backup"
	// modulePath is the module line that tells a clone of the course.
	modulePath = "module github.com/workbook-course/workbook\n"
)

// Workspace is a learner's workspace, made or still to be made.
type Workspace struct {
	Root  string // absolute
	Clone string // the root of the clone that holds the workspace as its CloneFolder; "" elsewhere
}

// StatePath is the progress file at the workspace's root.
func (w *Workspace) StatePath() string { return filepath.Join(w.Root, progress.FileName) }

// ExerciseDir is the folder of the learner's program for ex.
func (w *Workspace) ExerciseDir(ex *course.Exercise) string { return filepath.Join(w.Root, ex.Name) }

// StatementPath is the file holding the statement of ex.
func (w *Workspace) StatementPath(ex *course.Exercise) string {
	return filepath.Join(w.ExerciseDir(ex), StatementFile)
}

// BackupRoot is where Restore keeps the learner's versions.
func (w *Workspace) BackupRoot() string { return filepath.Join(w.Root, backupFolder) }

// Exists reports whether the workspace has been made: its progress file is there.
func (w *Workspace) Exists() bool {
	fi, err := os.Stat(w.StatePath())
	return err == nil && fi.Mode().IsRegular()
}

// Find returns the workspace that holds start: the nearest folder at or above start with a progress
// file, or, inside a clone of the course, the clone's CloneFolder (made or not). It returns nil
// outside both.
func Find(start string) *Workspace {
	dir, err := filepath.Abs(start)
	if err != nil {
		return nil
	}
	for {
		if IsClone(dir) {
			return &Workspace{Root: filepath.Join(dir, CloneFolder), Clone: dir}
		}
		if fi, err := os.Stat(filepath.Join(dir, progress.FileName)); err == nil && fi.Mode().IsRegular() {
			ws := &Workspace{Root: dir}
			if parent := filepath.Dir(dir); filepath.Base(dir) == CloneFolder && IsClone(parent) {
				ws.Clone = parent
			}
			return ws
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// IsClone reports whether dir is the root of a clone of the course repository.
func IsClone(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(data), modulePath) {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, "exercises"))
	return err == nil && fi.IsDir()
}

// CloneRoot is the root of the clone of the course that holds start, or "".
func CloneRoot(start string) string {
	dir, err := filepath.Abs(start)
	if err != nil {
		return ""
	}
	for {
		if IsClone(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Settings are what a workspace remembers of the learner's choices.
type Settings struct {
	Content  string // bg or ru: statements, starters, transcripts; "" when not known
	Messages string // en, ru or bg: the tool's words; "" to follow the environment
	Assumed  bool   // Content is the default, not a language the learner named or chose
}

// Settings reads the workspace's settings from its progress file without judging the file: a damaged
// one is set aside and reported by progress.Load, once. Unknown values read as "".
func (w *Workspace) Settings() Settings {
	var peek struct {
		Lang     string `json:"lang"`
		Messages string `json:"messages"`
		Assumed  bool   `json:"lang_assumed"`
	}
	data, err := os.ReadFile(w.StatePath())
	if err != nil || json.Unmarshal(data, &peek) != nil {
		return Settings{}
	}
	var s Settings
	if IsContentLang(peek.Lang) {
		s.Content, s.Assumed = peek.Lang, peek.Assumed
	}
	if IsMessageLang(peek.Messages) {
		s.Messages = peek.Messages
	}
	return s
}

// Create makes the workspace, or adds to it the exercises it lacks: one folder per exercise with the
// pristine starter in lang, the statement and a go.mod naming goLine. Existing folders are left
// alone; the progress file is written with s when there is none. It returns how many exercises were
// added and how many were already there.
func (w *Workspace) Create(c *course.Course, s Settings, goLine string) (added, kept int, err error) {
	list, err := c.Exercises()
	if err != nil {
		return 0, 0, err
	}
	if err := os.MkdirAll(w.Root, 0o755); err != nil {
		return 0, 0, err
	}
	for _, ex := range list {
		target := w.ExerciseDir(ex)
		if _, err := os.Lstat(target); err == nil {
			kept++
			continue
		}
		if err := writeExercise(c, ex, s.Content, target, goLine); err != nil {
			os.RemoveAll(target) // never leave half an exercise: the next Create makes it whole
			return added, kept, &PathError{Path: target, Err: err}
		}
		added++
	}
	if !w.Exists() {
		st := progress.New(s.Content, time.Now())
		st.Messages, st.Assumed = s.Messages, s.Assumed
		if err := progress.Save(w.StatePath(), st); err != nil {
			return added, kept, &PathError{Path: w.StatePath(), Err: err}
		}
	}
	return added, kept, nil
}

// OldState is where versions before the workspace kept a clone's progress: at the clone's root,
// with the learner's programs in the course's own exercises/<name>/<lang>/.
func (w *Workspace) OldState() string {
	if w.Clone == "" {
		return ""
	}
	return filepath.Join(w.Clone, progress.FileName)
}

// Adopt carries a clone used the old way over into its workspace, once: every exercise whose
// folder exercises/<name>/<lang>/ in the clone differs from the course's starter is copied over
// the workspace's copy (the learner's work, now where it belongs), and the old progress file moves
// into the workspace. It returns the exercises carried over. The course never reads those files:
// they are the learner's, copied once into the learner's folder.
func (w *Workspace) Adopt(c *course.Course, lang string) ([]string, error) {
	old := w.OldState()
	if fi, err := os.Stat(old); old == "" || err != nil || !fi.Mode().IsRegular() {
		return nil, nil
	}
	var moved []string
	for _, ex := range w.oldEdits(c, lang) {
		if err := copyTree(os.DirFS(w.oldDir(ex, lang)), ".", w.ExerciseDir(ex)); err != nil {
			return moved, err
		}
		moved = append(moved, ex.Name)
	}
	if err := os.Rename(old, w.StatePath()); err != nil {
		return moved, err
	}
	_, err := progress.Update(w.StatePath(), func() *progress.State { return progress.New(lang, time.Now()) }, func(st *progress.State) error {
		st.Lang, st.Assumed = lang, false
		return nil
	})
	return moved, err
}

// OldLang is the content language a clone used the old way was worked in: the language whose
// starters in exercises/ the learner changed more of, or "" when they changed none (or there is no
// old progress file).
func (w *Workspace) OldLang(c *course.Course) string {
	if fi, err := os.Stat(w.OldState()); w.Clone == "" || err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	best, most := "", 0
	for _, l := range course.Langs {
		if n := len(w.oldEdits(c, l)); n > most {
			best, most = l, n
		}
	}
	return best
}

// oldDir is the course's own starter folder of ex in lang, in the clone, where the old way had the
// learner edit.
func (w *Workspace) oldDir(ex *course.Exercise, lang string) string {
	return filepath.Join(w.Clone, filepath.FromSlash(ex.StarterDir(lang)))
}

// oldEdits are the exercises whose starter folder in the clone is not the course's starter.
func (w *Workspace) oldEdits(c *course.Course, lang string) []*course.Exercise {
	list, err := c.Exercises()
	if err != nil {
		return nil
	}
	var edited []*course.Exercise
	for _, ex := range list {
		dir := w.oldDir(ex, lang)
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() && !w.pristineDir(c, ex, lang, dir) {
			edited = append(edited, ex)
		}
	}
	return edited
}

// pristineDir reports whether dir holds exactly the starter of ex in lang (and, besides, the files
// also may be there).
func (w *Workspace) pristineDir(c *course.Course, ex *course.Exercise, lang, dir string, also ...string) bool {
	want := map[string]bool{}
	for _, f := range also {
		want[f] = true
	}
	same := fs.WalkDir(c.FS(), ex.StarterDir(lang), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, ex.StarterDir(lang)+"/")
		want[rel] = true
		orig, err := fs.ReadFile(c.FS(), p)
		if err != nil {
			return err
		}
		if got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))); err != nil || string(got) != string(orig) {
			return errors.New("changed")
		}
		return nil
	}) == nil
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if rel, _ := filepath.Rel(dir, p); !want[filepath.ToSlash(rel)] {
			same = false
		}
		return nil
	})
	return same
}

// PathError says which file or folder of the workspace could not be written.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// Restore puts the pristine starter of ex in lang back in its folder. What the folder held is
// copied, whole, into a numbered backup first (the highest number is the newest); backup is "" when
// the folder was missing. The folder is emptied rather than moved, because the learner's shell or
// editor may stand in it.
func (w *Workspace) Restore(c *course.Course, ex *course.Exercise, lang, goLine string) (backup string, err error) {
	dir := w.ExerciseDir(ex)
	if _, err := os.Stat(dir); err == nil {
		for n := 1; ; n++ {
			backup = filepath.Join(w.BackupRoot(), ex.Name, strconv.Itoa(n))
			if _, err := os.Lstat(backup); errors.Is(err, fs.ErrNotExist) {
				break
			}
		}
		if err := copyTree(os.DirFS(dir), ".", backup); err != nil {
			return "", &BackupError{Dir: dir, Err: err}
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return "", &BackupError{Dir: dir, Err: err}
		}
		for _, d := range entries {
			if err := os.RemoveAll(filepath.Join(dir, d.Name())); err != nil {
				return backup, err
			}
		}
	}
	return backup, writeExercise(c, ex, lang, dir, goLine)
}

// Switch rewrites the workspace in the content language to: every exercise folder gets the starter
// and statement in to, through Restore, so that what the learner wrote is kept in a backup (a folder
// that still holds the pristine starter in from is replaced without one). The progress file then
// names to as the learner's choice. It returns the backups made.
func (w *Workspace) Switch(c *course.Course, from, to, goLine string) ([]string, error) {
	list, err := c.Exercises()
	if err != nil {
		return nil, err
	}
	var backups []string
	for _, ex := range list {
		if w.pristine(c, ex, from) {
			if err := os.RemoveAll(w.ExerciseDir(ex)); err != nil {
				return backups, err
			}
		}
		backup, err := w.Restore(c, ex, to, goLine)
		if backup != "" {
			backups = append(backups, backup)
		}
		if err != nil {
			return backups, err
		}
	}
	_, err = progress.Update(w.StatePath(), func() *progress.State { return progress.New(to, time.Now()) }, func(st *progress.State) error {
		st.Lang, st.Assumed = to, false
		return nil
	})
	return backups, err
}

// pristine reports whether the folder of ex holds exactly what Create writes in lang: the starter's
// files, the statement and go.mod, unchanged.
func (w *Workspace) pristine(c *course.Course, ex *course.Exercise, lang string) bool {
	dir := w.ExerciseDir(ex)
	statement, err := ex.Statement(lang)
	if err != nil {
		return false
	}
	if got, err := os.ReadFile(w.StatementPath(ex)); err != nil || string(got) != statement {
		return false
	}
	// The statement and go.mod aside, the folder is the starter.
	also := []string{StatementFile, "go.mod"}
	for name := range checker.LocalWorld() {
		also = append(also, name)
	}
	return w.pristineDir(c, ex, lang, dir, also...)
}

// BackupError means Restore could not keep the learner's version, so it changed nothing.
type BackupError struct {
	Dir string
	Err error
}

func (e *BackupError) Error() string { return e.Dir + ": " + e.Err.Error() }
func (e *BackupError) Unwrap() error { return e.Err }

// ExerciseAt is the exercise of list whose folder holds path, or nil.
func (w *Workspace) ExerciseAt(path string, list []*course.Exercise) *course.Exercise {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	for _, ex := range list {
		if Within(abs, w.ExerciseDir(ex)) {
			return ex
		}
	}
	return nil
}

// GuessLang finds the content language of a workspace whose progress file lost it: the language of
// the statements the workspace holds, or "" when none tells.
func (w *Workspace) GuessLang(c *course.Course) string {
	list, err := c.Exercises()
	if err != nil {
		return ""
	}
	for _, ex := range list {
		data, err := os.ReadFile(w.StatementPath(ex))
		if err != nil {
			continue
		}
		for _, l := range course.Langs {
			if s, err := ex.Statement(l); err == nil && s == string(data) {
				return l
			}
		}
	}
	return ""
}

// Within reports whether path is dir or lies inside it.
func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// writeExercise copies the starter of ex in lang from the course to target, with the statement and
// a go.mod.
func writeExercise(c *course.Course, ex *course.Exercise, lang, target, goLine string) error {
	if err := copyTree(c.FS(), ex.StarterDir(lang), target); err != nil {
		return err
	}
	statement, err := ex.Statement(lang)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(target, StatementFile), []byte(statement), 0o644); err != nil {
		return err
	}
	if ex.Virtual() {
		// The flaky service, for the learner's own go build and gopls (see checker.LocalWorld).
		for name, data := range checker.LocalWorld() {
			p := filepath.Join(target, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return err
			}
		}
	}
	mod := filepath.Join(target, "go.mod")
	if _, err := os.Stat(mod); err == nil {
		return nil
	}
	return os.WriteFile(mod, []byte("module "+ex.Name+"\n\ngo "+goLine+"\n"), 0o644)
}

// copyTree copies the folder dir of fsys to target on disk: folders and regular files only.
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
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case !d.Type().IsRegular():
			return nil // a symlink or device in the learner's folder is not theirs to keep
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}
