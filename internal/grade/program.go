package grade

import (
	"cmp"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// The code shown is the code that ran. A student's program is its main package and every package of
// its own module that it imports, however deep (main.go may hold nothing but impl.Main()): the
// checker's snapshot copies every .go file under the program's folder, and the go command compiles
// those of the packages the main package reaches. programSource reads exactly those files, so that
// the report's source view, the prints and the copy detection see what was built.

// defaultModule is the module path the checker gives a program without a go.mod (checker.Build).
const defaultModule = "learner"

// modulePath is the module a go.mod in dir names, defaultModule when there is none.
func modulePath(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return defaultModule
	}
	return cmp.Or(modfile.ModulePath(data), defaultModule)
}

// buildContext is how the checker's go command chooses a package's files: this machine's OS and
// architecture, cgo off (CGO_ENABLED=0), no tags.
func buildContext() build.Context {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = runtime.GOOS, runtime.GOARCH, false
	ctx.BuildTags, ctx.ToolTags = nil, build.Default.ToolTags
	return ctx
}

// programSource reads the files of the program whose main package is in dir, dir being the root of
// its module (where the checker's copy starts): the main package's and those of every package of the
// module it imports, each package's files as the go command chooses them (build constraints, file
// name suffixes, no _test.go). Names are slash paths relative to dir. A package the program imports
// that is not there, or a file that does not parse, is left to the build to report: what is read is
// what there is.
func programSource(dir string) Source {
	src := Source{Files: map[string][]byte{}, Module: modulePath(dir)}
	ctx := buildContext()
	seen := map[string]bool{}
	queue := []string{"."}
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		if seen[rel] {
			continue
		}
		seen[rel] = true
		pkgDir := filepath.Join(dir, filepath.FromSlash(rel))
		if throughLink(dir, rel) {
			continue // the checker's snapshot follows no link: the build never saw what is there
		}
		entries, err := os.ReadDir(pkgDir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !goFile(e.Name()) {
				continue
			}
			if ok, err := ctx.MatchFile(pkgDir, e.Name()); err == nil && !ok {
				continue
			}
			data, err := os.ReadFile(filepath.Join(pkgDir, e.Name()))
			if err != nil || slices.Contains(importsOf(data), "C") {
				// A cgo file: with CGO_ENABLED=0 the go command leaves it out (MatchFile does not).
				continue
			}
			src.Files[path.Join(rel, e.Name())] = data
			for _, imp := range importsOf(data) {
				if sub, ok := src.local(imp); ok && !skippedDir(sub) {
					queue = append(queue, sub)
				}
			}
		}
	}
	return src
}

// throughLink reports whether a folder of the program (rel, below dir) is a symbolic link or inside one.
func throughLink(dir, rel string) bool {
	if rel == "." {
		return false
	}
	p := dir
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// local reports whether an import path names a package of the program's own module, and its folder
// relative to the module's root.
func (s Source) local(imp string) (string, bool) {
	if s.Module == "" {
		return "", false
	}
	if imp == s.Module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(imp, s.Module+"/")
	if !ok || rel == "" || path.Clean(rel) != rel || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// skippedDir reports whether a folder is one the checker's snapshot leaves out (hidden, vendor,
// testdata, node_modules), so that a package there never took part in the build.
func skippedDir(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") || part == "vendor" || part == "testdata" || part == "node_modules" {
			return true
		}
	}
	return false
}

// importsOf lists the import paths of a Go file (none when it does not parse that far).
func importsOf(data []byte) []string {
	f, _ := parser.ParseFile(token.NewFileSet(), "", data, parser.ImportsOnly)
	if f == nil {
		return nil
	}
	var out []string
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// readProgram is programSource as findProgram calls it: a variable, so that a test can make the
// grader's own code fail on one student's program (TestGraderFaultIsOneRow).
var readProgram = programSource
