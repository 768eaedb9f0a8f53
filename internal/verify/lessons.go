package verify

import (
	"context"
	"path"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/lesson"
)

// Lessons checks the lesson files (lesson.Verify) folder by folder: the problems of a lesson
// whose files are byte for byte those of an earlier verify are taken from cache, and the others are
// checked together. cached is how many of the files to check came from the cache.
func Lessons(ctx context.Context, files []lesson.File, cache *Cache) (errs lesson.Errors, cached int, err error) {
	g := lessonGroups{byDir: map[string][]lesson.File{}}
	for _, f := range files {
		dir := path.Dir(f.Name)
		if g.byDir[dir] == nil {
			g.dirs = append(g.dirs, dir)
		}
		g.byDir[dir] = append(g.byDir[dir], f)
	}
	var todo []lesson.File
	var todoDirs []string
	for _, dir := range g.dirs {
		var kept lesson.Errors
		if cache.Load("lesson", g.input(dir), &kept) {
			for _, le := range kept {
				le.Args = plainNamed(le.Args)
			}
			errs = append(errs, kept...)
			cached += g.checked(dir)
			continue
		}
		todo = append(todo, g.byDir[dir]...)
		todoDirs = append(todoDirs, dir)
	}
	if len(todo) == 0 {
		return errs, cached, nil
	}
	fresh, err := lesson.Verify(ctx, &lesson.Runner{}, todo)
	if err != nil {
		return nil, 0, err
	}
	g.store(cache, todoDirs, fresh)
	return append(errs, fresh...), cached, nil
}

// lessonGroups are lesson files by folder, the folders in the order of their first file.
type lessonGroups struct {
	dirs  []string
	byDir map[string][]lesson.File
}

// input is what a folder's problems depend on besides the code: its files, and which are checked.
func (g lessonGroups) input(dir string) map[string][]byte {
	in := map[string][]byte{}
	for _, f := range g.byDir[dir] {
		name := f.Name
		if f.ParityOnly {
			name += " (parity only)"
		}
		in[name] = f.Data
	}
	return in
}

// checked is how many of a folder's files are checked, not read for parity only.
func (g lessonGroups) checked(dir string) int {
	n := 0
	for _, f := range g.byDir[dir] {
		if !f.ParityOnly {
			n++
		}
	}
	return n
}

// store keeps in cache the problems fresh found in each of the folders dirs, but those of a folder
// where a run ran out of time (a busy machine may have caused it), and nothing when a problem lies
// outside the folders checked.
func (g lessonGroups) store(cache *Cache, dirs []string, fresh lesson.Errors) {
	byDir := map[string]lesson.Errors{}
	steady := map[string]bool{}
	for _, dir := range dirs {
		byDir[dir], steady[dir] = lesson.Errors{}, true
	}
	for _, le := range fresh {
		dir := path.Dir(le.File)
		if _, ok := byDir[dir]; !ok {
			return
		}
		byDir[dir] = append(byDir[dir], le)
		if v, _ := le.Args["Verdict"].(string); le.Code == lesson.CodeRun && v == string(checker.Timeout) {
			steady[dir] = false
		}
	}
	for _, dir := range dirs {
		if steady[dir] {
			cache.Store("lesson", g.input(dir), byDir[dir])
		}
	}
}

// plainNamed gives a lesson problem's named values read back from the cache the types they had.
func plainNamed(args map[string]any) map[string]any {
	for k, v := range args {
		args[k] = plainNumber(v)
	}
	return args
}
