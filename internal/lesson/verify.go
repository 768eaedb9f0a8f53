package lesson

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Langs are the languages every lesson is written in, in the order their files are checked.
var Langs = []string{"bg", "ru"}

// File is a lesson file to verify.
type File struct {
	Name       string // what problems are reported under: lessons/<topic>/bg.md
	Data       []byte
	ParityOnly bool // read only to compare the other language with; not run, its problems not reported
}

// Topic reads the lesson folder dir of fsys (bg.md and ru.md). display is the folder's name in
// problems (lessons/<topic>). A missing language is a problem of the folder, reported against the
// file that is there.
func Topic(fsys fs.FS, dir, display string) ([]File, Errors, error) {
	var files []File
	var missing []string
	for _, lang := range Langs {
		data, err := fs.ReadFile(fsys, path.Join(dir, lang+".md"))
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, lang+".md")
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		files = append(files, File{Name: path.Join(display, lang+".md"), Data: data})
	}
	var errs Errors
	if len(files) == 0 {
		return nil, nil, &fs.PathError{Op: "read", Path: display, Err: errors.New("no bg.md or ru.md: not a lesson folder")}
	}
	for _, m := range missing {
		errs = append(errs, newError(files[0].Name, 1, CodeMissingLang, "File", m))
	}
	return files, errs, nil
}

// Topics returns the lesson folders right under dir of fsys: those holding bg.md or ru.md, by name.
func Topics(fsys fs.FS, dir string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var topics []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		for _, lang := range Langs {
			if _, err := fs.Stat(fsys, path.Join(dir, e.Name(), lang+".md")); err == nil {
				topics = append(topics, e.Name())
				break
			}
		}
	}
	sort.Strings(topics)
	return topics, nil
}

// Verify checks lesson files: it parses each, runs the programs of those that parse cleanly (through
// r, so programs are built once), and compares every two languages of one topic (files in the same
// folder named bg.md and ru.md) with Parity, reporting a difference in the Bulgarian file unless only
// the Russian one is being checked. Every quiz must carry its explanations (Explained). The error is for the tool only; problems come back as Errors.
func Verify(ctx context.Context, r *Runner, files []File) (Errors, error) {
	var errs Errors
	parsed := map[string]*Lesson{} // by name, for those without problems
	var run []*Lesson
	for _, f := range files {
		l, err := Parse(f.Name, f.Data)
		if !f.ParityOnly {
			errs = append(errs, Explained(l)...)
		}
		if err != nil {
			if !f.ParityOnly {
				var list Errors
				if errors.As(err, &list) {
					errs = append(errs, list...)
				} else {
					return nil, err
				}
			}
			continue
		}
		parsed[f.Name] = l
		if !f.ParityOnly {
			run = append(run, l)
			errs = append(errs, CodeWidth(l)...)
		}
	}
	e, err := r.Check(ctx, run...)
	if err != nil {
		return nil, err
	}
	errs = append(errs, e...)
	checked := map[string]bool{}
	for _, f := range files {
		checked[f.Name] = !f.ParityOnly
	}
	for name, l := range parsed {
		if l.Lang != "bg" {
			continue
		}
		ru := parsed[path.Join(path.Dir(name), "ru.md")]
		if ru == nil {
			continue
		}
		switch {
		case checked[name]:
			errs = append(errs, Parity(l, ru)...)
		case checked[ru.File]:
			errs = append(errs, Parity(ru, l)...)
		}
	}
	errs.Sort()
	return errs, nil
}

// CheckRefs checks that what the front matter of each file names exists: every entry of exercises is
// one of exercises, every entry of requires one of topics (and not the lesson itself). Files read for
// parity only are skipped, and so are files whose front matter cannot be read (Verify reports those).
func CheckRefs(files []File, exercises, topics []string) Errors {
	var errs Errors
	for _, f := range files {
		if f.ParityOnly {
			continue
		}
		l, _ := Parse(f.Name, f.Data)
		for _, x := range l.Meta.Exercises {
			if !contains(exercises, x) {
				errs = append(errs, newError(f.Name, 1, CodeNoExercise, "Name", x))
			}
		}
		self := path.Base(path.Dir(f.Name))
		for _, x := range l.Meta.Requires {
			if !contains(topics, x) || x == self {
				errs = append(errs, newError(f.Name, 1, CodeNoTopic, "Name", x))
			}
		}
	}
	return errs
}
