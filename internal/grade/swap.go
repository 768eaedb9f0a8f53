package grade

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// reportFiles are the entries of a report folder that Write makes: a new report replaces them all
// (a moodle.csv of an earlier run of another class never stays beside grades.csv of this one).
// Every other entry (the journal, the lock, an instructor's own notes) is carried over.
var reportFiles = map[string]bool{GradesFile: true, ResultsFile: true, HTMLFile: true, FeedbackDir: true,
	DetailsDir: true, MoodleFile: true, MoodleFeedbackFile: true, CanvasFile: true, CanvasFeedbackFile: true}

// Write writes the report into dir as a whole: its files are made in a new folder beside dir and
// swapped in only when every one of them is complete, so that a run that fails half-way (a full
// disk, a kill) leaves the report of the run before as it was, and a reader never sees half of
// each. Where the two folders cannot be swapped whole (a Windows folder with a file open in it, a
// parent folder that cannot be written), the new report's entries are moved into dir one by one,
// grades.csv last, each one a rename of a complete file or folder.
func Write(dir string, rep *Report, uiLang string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// A report folder that is a link to one: the folder it names is the one swapped.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	stage, inside, err := stageDir(dir)
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := writeReport(stage, rep, uiLang); err != nil {
		return err
	}
	if !inside {
		if err := carryOver(dir, stage); err == nil {
			if old, err := swapDirs(dir, stage); err == nil {
				os.RemoveAll(old)
				return nil
			}
		}
	}
	return swapEntries(dir, stage)
}

// stageDir makes the folder a new report is written in: beside dir (inside false), or inside it
// (hidden, inside true) when dir's parent cannot be written.
func stageDir(dir string) (stage string, inside bool, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false, err
	}
	if stage, err := os.MkdirTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".new-*"); err == nil {
		return stage, false, nil
	}
	stage, err = os.MkdirTemp(abs, ".new-*")
	return stage, true, err
}

// carryOver gives stage the entries of dir that are not the report's own: hard links to the same
// files where it can (the lock stays the same locked file, the journal the same journal), copies of
// regular files otherwise; a folder of the instructor's is carried by the per-entry swap alone.
func carryOver(dir, stage string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if reportFiles[name] || strings.HasPrefix(name, "."+GradesFile) || isTemp(name) {
			continue
		}
		from, to := filepath.Join(dir, name), filepath.Join(stage, name)
		if !e.Type().IsRegular() {
			return errors.New("not a regular file: " + name)
		}
		if err := os.Link(from, to); err != nil {
			if name == LockFile {
				return err // a copy of the lock would not be locked
			}
			if err := copyFile(from, to); err != nil {
				return err
			}
		}
	}
	return nil
}

// isTemp reports the temporary files writeAtomic leaves while it writes (".NAME.tmp-…").
func isTemp(name string) bool { return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") }

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// swapEntries moves the new report's entries from stage into dir one by one, each a rename, and
// sets aside the entries of the report before that the new one does not have; grades.csv comes
// last, as its presence means the rest is there.
func swapEntries(dir, stage string) error {
	trash, err := os.MkdirTemp(dir, ".old-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(trash)
	names := []string{}
	for n := range reportFiles {
		if n != GradesFile {
			names = append(names, n)
		}
	}
	for _, n := range append(names, GradesFile) {
		from, to := filepath.Join(stage, n), filepath.Join(dir, n)
		if _, err := os.Lstat(to); err == nil {
			if err := os.Rename(to, filepath.Join(trash, n)); err != nil {
				return err
			}
		}
		if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(from, to); err != nil {
			return err
		}
	}
	return nil
}

// swapDirsRename puts stage where dir was by two renames: dir aside, stage in its place (and dir
// back where it was when the second fails). Between the two, for a moment, there is no dir.
func swapDirsRename(dir, stage string) (old string, err error) {
	old = stage + ".old"
	if err := os.Rename(dir, old); err != nil {
		return "", err
	}
	if err := os.Rename(stage, dir); err != nil {
		if rerr := os.Rename(old, dir); rerr != nil {
			return "", errors.Join(err, rerr)
		}
		return "", err
	}
	return old, nil
}
