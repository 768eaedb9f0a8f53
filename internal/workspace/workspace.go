// Package workspace finds, makes and mends a learner's workspace: the folder that holds the learner's
// programs and the progress file, which also keeps the learner's settings (content and message
// languages). Each content language has its own folder of programs, one folder per exercise with its
// starter, its statement and a go.mod of its own:
//
//	my/.workbook.json               progress and settings
//	my/ru/exercise-deadline/        the learner's program in Russian
//	my/bg/exercise-deadline/        and in Bulgarian, made the first time the learner switches
//	my/.workbook-backup/ru/exercise-deadline/1/   a kept version (Keep, Reset, RestoreVersion)
//
//	ws := workspace.Find(wd) // nil outside any workspace or clone of the course
//	if ws != nil && !ws.Exists() {
//		// in a clone whose workspace (./my/) is not made yet
//		_, _, err := ws.Create(c, workspace.Settings{Content: "ru"}, checker.GoVersion())
//	}
//	dir := ws.ExerciseDir(ex, "ru")
//
// Nothing the learner wrote is overwritten or hidden: switching languages (Switch) only changes which
// folder is in use; Reset and RestoreVersion keep what they replace as a numbered version first, and
// Migrate carries a workspace of the older layout (exercise folders at the root) over, losing nothing.
//
//	choice, err := workspace.Decide(workspace.Sources{Lang: flagLang, Getenv: os.Getenv, Stored: ws.Settings()})
//
// Course content is never read from a workspace: starters, statements, cases and solutions come from
// the course's file system (the one the binary embeds), so Create and Reset always give pristine
// starters, however much the learner has edited. In a clone of the repository the workspace is the
// git-ignored folder CloneFolder at the clone's root; elsewhere it is any folder made by Create
// (`workbook init`). The command line and the web server both find it here.
package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/paths"
	"github.com/workbook-course/workbook/internal/progress"
)

const (
	// StatementFile is the name of the task statement in each exercise folder of a workspace.
	StatementFile = "README.md"
	// CloneFolder is the workspace's folder at the root of a clone; .gitignore names it.
	CloneFolder = "my"
	// DefaultFolder is the folder `workbook init` makes when it is given none.
	DefaultFolder = "workbook-course"
	// backupFolder keeps the learner's versions (see Keep); hidden, so go build skips it.
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

// LangDir is the folder of the learner's programs in the content language lang: each language
// keeps its own copy, so that switching languages replaces nothing.
func (w *Workspace) LangDir(lang string) string { return filepath.Join(w.Root, lang) }

// ExerciseDir is the folder of the learner's program for ex in the content language lang.
func (w *Workspace) ExerciseDir(ex *course.Exercise, lang string) string {
	return filepath.Join(w.LangDir(lang), ex.Name)
}

// StatementPath is the file holding the statement of ex in lang.
func (w *Workspace) StatementPath(ex *course.Exercise, lang string) string {
	return filepath.Join(w.ExerciseDir(ex, lang), StatementFile)
}

// BackupRoot is where the learner's kept versions live (see Keep).
func (w *Workspace) BackupRoot() string { return filepath.Join(w.Root, backupFolder) }

// RootOrNone is the workspace's folder, or "" for no workspace (w nil).
func (w *Workspace) RootOrNone() string {
	if w == nil {
		return ""
	}
	return w.Root
}

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

// Create makes the workspace, or adds to it the exercises it lacks: in the folder of the content
// language s.Content, one folder per exercise with the pristine starter, the statement and a go.mod
// naming goLine. Existing folders are left alone; the progress file is written with s when there is
// none. It returns how many exercises were added and how many were already there.
func (w *Workspace) Create(c *course.Course, s Settings, goLine string) (added, kept int, err error) {
	if err := os.MkdirAll(w.Root, 0o755); err != nil {
		return 0, 0, &PathError{Path: w.Root, Err: err}
	}
	if _, err := w.Migrate(c, s.Content); err != nil {
		return 0, 0, err
	}
	added, kept, err = w.AddLang(c, s.Content, goLine)
	if err != nil {
		return added, kept, err
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

// AddLang writes, in the folder of lang, the starter of every exercise that has no folder there yet;
// existing folders are left alone.
func (w *Workspace) AddLang(c *course.Course, lang, goLine string) (added, kept int, err error) {
	if !IsContentLang(lang) {
		return 0, 0, fmt.Errorf("unknown content language %q", lang)
	}
	list, err := c.Exercises()
	if err != nil {
		return 0, 0, err
	}
	if err := os.MkdirAll(w.LangDir(lang), 0o755); err != nil {
		return 0, 0, &PathError{Path: w.LangDir(lang), Err: err}
	}
	for _, ex := range list {
		target := w.ExerciseDir(ex, lang)
		if _, err := os.Lstat(target); err == nil {
			kept++
			continue
		}
		if err := w.writeExercise(c, ex, lang, target, goLine); err != nil {
			os.RemoveAll(target) // never leave half an exercise: the next Create makes it whole
			return added, kept, &PathError{Path: target, Err: err}
		}
		added++
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
		if _, _, err := w.Keep(c, ex, lang); err != nil {
			return moved, err
		}
		if err := copyTree(os.DirFS(w.oldDir(ex, lang)), ".", w.ExerciseDir(ex, lang)); err != nil {
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

// BackupError means the learner's version could not be kept, so nothing was changed.
type BackupError struct {
	Dir string
	Err error
}

func (e *BackupError) Error() string { return e.Dir + ": " + e.Err.Error() }
func (e *BackupError) Unwrap() error { return e.Err }

// ExerciseAt is the exercise of list whose folder, in either content language, holds path, and that
// language; nil and "" when none does.
func (w *Workspace) ExerciseAt(path string, list []*course.Exercise) (*course.Exercise, string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, ""
	}
	for _, lang := range course.Langs {
		for _, ex := range list {
			if within(w.ExerciseDir(ex, lang), abs) {
				return ex, lang
			}
		}
	}
	return nil, ""
}

// LangAt is the content language whose folder holds path, or "".
func (w *Workspace) LangAt(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	for _, lang := range course.Langs {
		if within(w.LangDir(lang), abs) {
			return lang
		}
	}
	return ""
}

// GuessLang finds the content language of a workspace whose progress file lost it: the only
// language folder it has, else the language of the statements in its exercise folders (of the
// layout before language folders), or "" when none tells.
func (w *Workspace) GuessLang(c *course.Course) string {
	var have []string
	for _, l := range course.Langs {
		if fi, err := os.Stat(w.LangDir(l)); err == nil && fi.IsDir() {
			have = append(have, l)
		}
	}
	if len(have) == 1 {
		return have[0]
	}
	list, err := c.Exercises()
	if err != nil {
		return ""
	}
	for _, ex := range list {
		if l := statementLang(ex, filepath.Join(w.Root, ex.Name)); l != "" {
			return l
		}
	}
	return ""
}

// statementLang is the language of the statement of ex found in dir, or "".
func statementLang(ex *course.Exercise, dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, StatementFile))
	if err != nil {
		return ""
	}
	for _, l := range course.Langs {
		if s, err := ex.Statement(l); err == nil && s == string(data) {
			return l
		}
	}
	return ""
}

// Mine reports whether src is the learner's own folder for ex in lang in the workspace (a check of
// any other folder, such as a solution, is not the learner's progress).
func (w *Workspace) Mine(ex *course.Exercise, lang, src string) bool {
	a, err1 := os.Stat(src)
	b, err2 := os.Stat(w.ExerciseDir(ex, lang))
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// within reports whether path is dir or lies below it (paths.Within).
func within(dir, path string) bool {
	_, ok := paths.Within(dir, path)
	return ok
}

// cloneRun is how a statement tells a learner in a clone to run the tool: from the clone's root.
const cloneRun = "go run ./cmd/workbook"

// Statement is the statement of ex in lang as the workspace holds it, beside the learner's program.
// In a clone, its commands for the clone (`go run ./cmd/workbook …`, written for the clone's root)
// become ones that work in the exercise's folder, where the learner reads them: the folder is a
// module of its own, so `go -C ../../.. run ./cmd/workbook …` runs the clone's tool from there.
func (w *Workspace) Statement(ex *course.Exercise, lang string) (string, error) {
	s, err := ex.Statement(lang)
	if err != nil || w.Clone == "" {
		return s, err
	}
	return strings.ReplaceAll(s, cloneRun, "go -C ../../.. run ./cmd/workbook"), nil
}

// writeExercise copies the starter of ex in lang from the course to target, with the statement and
// a go.mod.
func (w *Workspace) writeExercise(c *course.Course, ex *course.Exercise, lang, target, goLine string) error {
	if err := copyTree(c.FS(), ex.StarterDir(lang), target); err != nil {
		return err
	}
	statement, err := w.Statement(ex, lang)
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
