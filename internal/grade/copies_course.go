package grade

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/workbook-course/workbook/internal/course"
)

// courseCode is the code the course itself gives a student, besides the exercise's own starter
// and hints (Job.Starters, Job.Hints): every other exercise's starters and hints, and the Go
// snippets of every lesson, each block alone and each lesson program's blocks together. None of it
// is a student's own, so copy detection leaves it out. It is the course as the tool ships it: the
// versions of the course before it are not at hand when grading (an earlier hint's loop still in
// a class's programs is left out as code many students share, see commonLimit).
func courseCode(fsys fs.FS, self string) []Source {
	var out []Source
	if exs, err := course.New(fsys).Exercises(); err == nil {
		for _, ex := range exs {
			if ex.Name == self {
				continue
			}
			for _, l := range course.Langs {
				if s, err := ReadSource(fsys, ex.StarterDir(l), l); err == nil && len(s.Files) > 0 {
					out = append(out, s)
				}
				if hints, err := ex.Hints(l); err == nil {
					out = append(out, HintCode(strings.Join(hints, "\n\n"), l)...)
				}
			}
		}
	}
	files, _ := fs.Glob(fsys, "lessons/*/*.md") // the pattern is well formed
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			continue
		}
		out = append(out, lessonSnippets(string(data), strings.TrimSuffix(path.Base(f), ".md"))...)
	}
	return out
}

// lessonBlock is a fenced Go block of a lesson: its info string's words after "go", and its code.
var lessonBlock = regexp.MustCompile("(?ms)^```go([^\n]*)\n(.*?)^```")

// lessonSnippets is the Go code of a lesson's Markdown: every block as a Source of its own, and the
// blocks of each named program (```go program=NAME) one after another as one more.
func lessonSnippets(markdown, lang string) []Source {
	var out []Source
	programs := map[string][]string{}
	for _, m := range lessonBlock.FindAllStringSubmatch(markdown, -1) {
		code := m[2]
		if !strings.HasPrefix(strings.TrimSpace(code), "package ") {
			// A lesson shows a program's declarations without its package clause: with one, they
			// parse and are fingerprinted declaration by declaration, as a student's program is.
			code = "package main\n" + code
		}
		out = append(out, Source{Lang: lang, Files: map[string][]byte{"lesson.go": []byte(code)}})
		for _, word := range strings.Fields(m[1]) {
			if name, ok := strings.CutPrefix(word, "program="); ok {
				programs[name] = append(programs[name], m[2])
			}
		}
	}
	names := make([]string, 0, len(programs))
	for n := range programs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if len(programs[n]) > 1 {
			out = append(out, Source{Lang: lang, Files: map[string][]byte{"lesson.go": []byte("package main\n" + strings.Join(programs[n], "\n"))}})
		}
	}
	return out
}
