package grade

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Source is a program's Go files by name: a starter or a reference solution read from the course,
// or a student's program folder.
type Source struct {
	Lang  string
	Files map[string][]byte // by slash path relative to the program's folder
	// Module is the program's module path (a student's program, see programSource): its imports of
	// the module's own packages are the program's code, not a library's.
	Module string
}

// ReadSource reads the non-test .go files of dir in fsys.
func ReadSource(fsys fs.FS, dir, lang string) (Source, error) {
	src := Source{Lang: lang, Files: map[string][]byte{}}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return src, err
	}
	for _, e := range entries {
		if e.IsDir() || !goFile(e.Name()) {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return src, err
		}
		src.Files[e.Name()] = data
	}
	return src, nil
}

func goFile(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, ".")
}

// readDirSource reads the non-test .go files of a folder on disk.
func readDirSource(dir string) Source {
	src, _ := ReadSource(os.DirFS(dir), ".", "")
	return src
}

// funcNames returns the names of the top-level functions and methods of a program, parsed as far as
// it parses.
func funcNames(src Source) map[string]bool {
	names := map[string]bool{}
	fset := token.NewFileSet()
	for name, data := range src.Files {
		f, _ := parser.ParseFile(fset, name, data, parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				names[fd.Name.Name] = true
			}
		}
	}
	return names
}

// findProgram finds the folder, at any depth under root, that holds the student's program: a folder
// of non-test .go files in package main. When several do, the one that shares most top-level function
// names with the exercise's starter wins, then one that is not the untouched starter, then the
// shallowest, then the first by name; a folder under solutions/ (a clone of the course holds the
// reference solutions) only when there is no other. It returns the folder relative to root ("." for root itself)
// and false when there is no package main anywhere.
func findProgram(root string, shape map[string]bool, starterPrints map[string]bool) (string, bool) {
	type cand struct {
		rel     string
		score   int
		starter bool
		course  bool // under a folder named solutions
		depth   int
	}
	var cands []cand
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if !d.IsDir() {
			return nil
		}
		if rel != "." && (junkName(d.Name()) || d.Name() == "vendor" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !isMainDir(p) {
			return nil
		}
		src := programSource(p)
		c := cand{rel: filepath.ToSlash(rel), depth: strings.Count(filepath.ToSlash(rel), "/")}
		c.course = slices.Contains(strings.Split(c.rel, "/"), "solutions")
		if rel == "." {
			c.depth = -1
		}
		for n := range funcNames(src) {
			if shape[n] {
				c.score++
			}
		}
		fp := plainPrint(src)
		c.starter = fp.Hash != "" && starterPrints[fp.Hash]
		cands = append(cands, c)
		return nil
	})
	if len(cands) == 0 {
		return "", false
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.course != b.course {
			return !a.course
		}
		if a.score != b.score {
			return a.score > b.score
		}
		if a.starter != b.starter {
			return !a.starter
		}
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		return a.rel < b.rel
	})
	return cands[0].rel, true
}

// isMainDir reports whether dir holds a non-test .go file whose package clause is main.
func isMainDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !goFile(e.Name()) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.PackageClauseOnly)
		if err == nil && f.Name.Name == "main" {
			return true
		}
	}
	return false
}

// hasGoFiles reports whether any folder under root holds a .go file, to tell "no Go at all" from "Go,
// but no package main".
func hasGoFiles(root string) bool {
	found := false
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		if d.IsDir() && p != root && junkName(d.Name()) {
			return filepath.SkipDir
		}
		if !d.IsDir() && goFile(d.Name()) {
			found = true
		}
		return nil
	})
	return found
}

// DetectLang guesses the language of a program from its text: letters only Russian uses (ы, э, ё)
// against letters Bulgarian uses far more (ъ, ѝ). It returns "" when the text says nothing.
func DetectLang(src Source) string {
	ru, bg := 0, 0
	for _, data := range src.Files {
		for _, r := range string(data) {
			switch r {
			case 'ы', 'Ы', 'э', 'Э', 'ё', 'Ё':
				ru++
			case 'ъ', 'Ъ', 'ѝ', 'Ѝ':
				bg++
			}
		}
	}
	switch {
	case ru > bg:
		return "ru"
	case bg > ru:
		return "bg"
	}
	return ""
}
