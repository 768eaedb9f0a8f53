package course

import (
	"context"
	"path"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/lesson"
)

// VerifyLessons checks the lesson files (lesson.Verify) folder by folder: the problems of a lesson
// whose files are byte for byte those of an earlier verify are taken from cache, and the others are
// checked together. cached is how many of the files to check came from the cache.
func VerifyLessons(ctx context.Context, files []lesson.File, cache *Cache) (errs lesson.Errors, cached int, err error) {
	var dirs []string
	groups := map[string][]lesson.File{}
	for _, f := range files {
		dir := path.Dir(f.Name)
		if groups[dir] == nil {
			dirs = append(dirs, dir)
		}
		groups[dir] = append(groups[dir], f)
	}
	// What a folder's problems depend on besides the code: its files, and which are checked.
	input := func(dir string) map[string][]byte {
		in := map[string][]byte{}
		for _, f := range groups[dir] {
			name := f.Name
			if f.ParityOnly {
				name += " (parity only)"
			}
			in[name] = f.Data
		}
		return in
	}
	checked := func(dir string) int {
		n := 0
		for _, f := range groups[dir] {
			if !f.ParityOnly {
				n++
			}
		}
		return n
	}
	var todo []lesson.File
	var todoDirs []string
	for _, dir := range dirs {
		var kept lesson.Errors
		if cache.Load("lesson", input(dir), &kept) {
			for _, le := range kept {
				le.Args = plainNamed(le.Args)
			}
			errs = append(errs, kept...)
			cached += checked(dir)
			continue
		}
		todo = append(todo, groups[dir]...)
		todoDirs = append(todoDirs, dir)
	}
	if len(todo) == 0 {
		return errs, cached, nil
	}
	fresh, err := lesson.Verify(ctx, &lesson.Runner{}, todo)
	if err != nil {
		return nil, 0, err
	}
	errs = append(errs, fresh...)
	byDir := map[string]lesson.Errors{}
	steady := map[string]bool{}
	for _, dir := range todoDirs {
		byDir[dir], steady[dir] = lesson.Errors{}, true
	}
	for _, le := range fresh {
		dir := path.Dir(le.File)
		if _, ok := byDir[dir]; !ok {
			return errs, cached, nil // a problem outside the folders checked: keep nothing
		}
		byDir[dir] = append(byDir[dir], le)
		if v, _ := le.Args["Verdict"].(string); le.Code == lesson.CodeRun && v == string(checker.Timeout) {
			steady[dir] = false // a busy machine may have caused it
		}
	}
	for _, dir := range todoDirs {
		if steady[dir] {
			cache.Store("lesson", input(dir), byDir[dir])
		}
	}
	return errs, cached, nil
}

// plainNamed gives a lesson problem's named values read back from the cache the types they had.
func plainNamed(args map[string]any) map[string]any {
	for k, v := range args {
		args[k] = plainNumber(v)
	}
	return args
}
