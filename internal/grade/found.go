package grade

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// Found is what a submission without a program holds, for the student's feedback to name ("your
// archive holds report.pdf and a folder photos/ with 12 files; no .go file") so that the student
// knows what to hand in instead: the files at its top, its folders with how many files each, and
// how many entries more were not named. A submission whose top is one folder is described from
// inside it (Dir).
type Found struct {
	Dir   string     `json:"dir,omitempty"` // the one folder entered, slashes ("" for the top)
	Files []string   `json:"files,omitempty"`
	Dirs  []FoundDir `json:"dirs,omitempty"`
	More  int        `json:"more,omitempty"`
}

// FoundDir is a folder of a submission and how many files it holds at any depth (up to maxFoundCount).
type FoundDir struct {
	Name  string `json:"name"`
	Files int    `json:"files"`
}

const (
	maxFoundNames = 6     // files and folders named
	maxFoundCount = 10000 // entries counted in all
)

// foundIn describes what the submission s holds: what was unpacked of it into root, or, when nothing
// was (a folder's build files are all that is copied), the submission itself.
func foundIn(root string, s Submission) *Found {
	if entries, err := os.ReadDir(root); err == nil && len(entries) > 0 {
		return describe(root)
	}
	switch s.Kind {
	case KindDir:
		return describe(s.Path)
	case KindGroup:
		f := &Found{}
		counted := 0
		for i, p := range s.Files {
			f.add(p, s.Names[i], &counted)
		}
		return f.sorted()
	}
	return &Found{}
}

// describe is what the folder dir holds, entered while its top is one folder alone.
func describe(dir string) *Found {
	f := &Found{}
	for {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return f
		}
		var kept []fs.DirEntry
		for _, e := range entries {
			if !junkName(e.Name()) {
				kept = append(kept, e)
			}
		}
		if len(kept) == 1 && kept[0].IsDir() && strings.Count(f.Dir, "/") < 8 {
			f.Dir = strings.TrimPrefix(f.Dir+"/"+kept[0].Name(), "/")
			dir = filepath.Join(dir, kept[0].Name())
			continue
		}
		counted := 0
		for _, e := range kept {
			f.add(filepath.Join(dir, e.Name()), e.Name(), &counted)
		}
		return f.sorted()
	}
}

// add puts the entry at p, called name, into f: a file by its name, a folder with its count.
func (f *Found) add(p, name string, counted *int) {
	info, err := os.Lstat(p)
	if err != nil {
		return
	}
	if !info.IsDir() {
		f.Files = append(f.Files, name)
		return
	}
	n := 0
	filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || *counted >= maxFoundCount {
			return filepath.SkipAll
		}
		*counted++
		if d.IsDir() && q != p && junkName(d.Name()) {
			return filepath.SkipDir
		}
		if !d.IsDir() && !junkName(d.Name()) {
			n++
		}
		return nil
	})
	f.Dirs = append(f.Dirs, FoundDir{Name: name, Files: n})
}

// sorted keeps at most maxFoundNames files and folders, by name, folders first, and counts the rest.
func (f *Found) sorted() *Found {
	sort.Strings(f.Files)
	sort.Slice(f.Dirs, func(i, j int) bool { return f.Dirs[i].Name < f.Dirs[j].Name })
	if len(f.Dirs) > maxFoundNames {
		f.More += len(f.Dirs) - maxFoundNames
		f.Dirs = f.Dirs[:maxFoundNames]
	}
	if keep := max(0, maxFoundNames-len(f.Dirs)); len(f.Files) > keep {
		f.More += len(f.Files) - keep
		f.Files = f.Files[:keep]
	}
	return f
}

// List is the description in pr's language: "report.pdf, notes.txt and a folder photos/ with 12
// files".
func (f *Found) List(pr *i18n.Printer) string {
	var parts []string
	for _, d := range f.Dirs {
		parts = append(parts, pr.N("grade_found_dir", d.Files, "Name", report.EscapeLine(d.Name)))
	}
	for _, n := range f.Files {
		parts = append(parts, report.EscapeLine(n))
	}
	if f.More > 0 {
		parts = append(parts, pr.N("grade_found_more", f.More))
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " " + pr.T("grade_found_and") + " " + parts[len(parts)-1]
}

// foundNote tells the student of a submission without a program what it holds (see Found), near the
// top of the feedback: it is what the student has to act on.
func foundNote(w *bytes.Buffer, pr *i18n.Printer, st Student) {
	if st.Found == nil || st.Result == nil {
		return
	}
	id := "grade_fb_found_" + st.Result.Message // no_go_files, no_main
	if !i18n.Has(pr.Lang(), id) {
		return
	}
	list := st.Found.List(pr)
	if list == "" {
		id = "grade_fb_found_empty"
	}
	where := st.Found.Dir
	if where != "" {
		where += "/"
	}
	fmt.Fprintf(w, "\n%s\n", report.MarkdownEscape(pr.T(id, "List", list, "Dir", where)))
}
