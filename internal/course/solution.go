package course

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SourceFile is a file of a program in the course: its path inside the program's folder, with
// forward slashes, and its contents.
type SourceFile struct {
	Name string
	Data []byte
}

// ErrNoSolution means an exercise has no reference solution in the language asked for.
var ErrNoSolution = errors.New("no reference solution")

// Solution is the reference solution of the exercise in lang, every file of it in path order.
// A solution that is missing or empty is ErrNoSolution.
func (e *Exercise) Solution(lang string) ([]SourceFile, error) {
	fsys, dir := e.course.fsys, e.SolutionDir(lang)
	var files []SourceFile
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files = append(files, SourceFile{Name: strings.TrimPrefix(p, dir+"/"), Data: data})
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(files) == 0 {
		return nil, ErrNoSolution
	}
	return files, err
}

// extract copies the folder dir of fsys to dst on disk.
func extract(fsys fs.FS, dir, dst string) error {
	if _, err := fs.Stat(fsys, dir); err != nil {
		return err
	}
	return fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// Extract copies the folder dir of the course to dst on disk (a starter into a workspace, a
// solution to show).
func (c *Course) Extract(dir, dst string) error { return extract(c.fsys, dir, dst) }
