package vet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/workbook-course/workbook/checker"
)

// Limits on what is type-checked: a program larger than this is no exercise, and vetting it would
// only cost time.
const (
	maxFiles = 100
	maxBytes = 4 << 20
)

// ErrImport means the program imports a package other than the standard library and the course's
// own (the flaky service, the scenario harness): vet has no types for it, and fetches nothing.
var ErrImport = errors.New("imports a package vet cannot read")

// ErrTooLarge means the program is larger than vet reads (maxFiles, maxBytes).
var ErrTooLarge = errors.New("program too large to vet")

// TypeError means the program does not compile; Msgs are the type checker's first messages.
type TypeError struct{ Msgs []string }

func (e *TypeError) Error() string { return "does not compile: " + strings.Join(e.Msgs, "; ") }

// ImportError names the import vet cannot read (errors.Is(err, ErrImport)).
type ImportError struct{ Path string }

func (e *ImportError) Error() string { return fmt.Sprintf("%s %q", ErrImport, e.Path) }
func (e *ImportError) Unwrap() error { return ErrImport }

// Package is a parsed and type-checked program.
type Package struct {
	Fset  *token.FileSet
	Files []*ast.File
	Types *types.Package
	Info  *types.Info
}

// stdPath is what a standard library import path looks like: no dot in its first element, no
// leading dash (which the go command would read as a flag), nothing but path characters.
var stdPath = regexp.MustCompile(`^[a-z0-9_]+(/[a-zA-Z0-9_.\-]+)*$`)

// Load parses and type-checks the program made of files (as checker.ReadSource gives them): the
// package main in the program's own folder; files of sub-folders and files the build would leave
// out for this platform take no part.
func Load(ctx context.Context, files []checker.SourceFile) (*Package, error) {
	ctxt := build.Default
	ctxt.CgoEnabled = false
	mem := map[string][]byte{}
	for _, f := range files {
		mem[path.Join("/src", f.Name)] = f.Data
	}
	ctxt.JoinPath = path.Join
	ctxt.OpenFile = func(p string) (io.ReadCloser, error) {
		if d, ok := mem[p]; ok {
			return io.NopCloser(bytes.NewReader(d)), nil
		}
		return nil, os.ErrNotExist
	}
	fset := token.NewFileSet()
	pkg := &Package{Fset: fset}
	total := 0
	for _, f := range files {
		if strings.Contains(f.Name, "/") {
			continue
		}
		if ok, err := ctxt.MatchFile("/src", f.Name); err != nil || !ok {
			continue
		}
		total += len(f.Data)
		if len(pkg.Files) >= maxFiles || total > maxBytes {
			return nil, ErrTooLarge
		}
		file, err := parser.ParseFile(fset, f.Name, f.Data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, &TypeError{Msgs: []string{err.Error()}}
		}
		pkg.Files = append(pkg.Files, file)
	}
	if len(pkg.Files) == 0 {
		return nil, &TypeError{Msgs: []string{"no Go files"}}
	}
	imp, err := newImporter(ctx, fset, pkg.Files)
	if err != nil {
		return nil, err
	}
	var msgs []string
	conf := types.Config{
		Importer: imp,
		Sizes:    types.SizesFor("gc", runtime.GOARCH),
		Error: func(err error) {
			if len(msgs) < 5 {
				msgs = append(msgs, err.Error())
			}
		},
	}
	pkg.Info = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		Instances:    map[*ast.Ident]types.Instance{},
		FileVersions: map[*ast.File]string{},
	}
	pkg.Types, _ = conf.Check("main", fset, pkg.Files, pkg.Info)
	if imp.err != nil {
		return nil, imp.err
	}
	if len(msgs) > 0 {
		return nil, &TypeError{Msgs: msgs}
	}
	return pkg, nil
}

// progImporter gives the standard library from export data and the course's packages (the flaky
// service, the scenario harness) from source.
type progImporter struct {
	ctx     context.Context
	fset    *token.FileSet
	exports map[string]string // import path -> export data file
	gc      types.Importer
	course  map[string]*types.Package // the course's own packages, type-checked from source
	err     error                     // the first import that failed for a reason of the tool's
}

// newImporter lists the export data of every standard package the files (and the flaky service,
// when imported) import, with one go command.
func newImporter(ctx context.Context, fset *token.FileSet, files []*ast.File) (*progImporter, error) {
	imp := &progImporter{ctx: ctx, fset: fset, exports: map[string]string{}, course: map[string]*types.Package{}}
	want := map[string]bool{}
	courseFiles := map[string][]*ast.File{}
	for _, f := range files {
		for _, spec := range f.Imports {
			p := strings.Trim(spec.Path.Value, "`\"")
			if src, ok := courseSources[p]; ok {
				if courseFiles[p] != nil {
					continue
				}
				for _, sf := range src() {
					ff, err := parser.ParseFile(fset, "$COURSE/"+strings.TrimPrefix(p, courseModule+"/")+"/"+sf.Name, sf.Data, parser.SkipObjectResolution)
					if err != nil {
						return nil, err
					}
					courseFiles[p] = append(courseFiles[p], ff)
					for _, s := range ff.Imports {
						want[strings.Trim(s.Path.Value, "`\"")] = true
					}
				}
				continue
			}
			if p == "unsafe" {
				continue
			}
			if p == "C" || !stdPath.MatchString(p) || strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
				return nil, &ImportError{Path: p}
			}
			want[p] = true
		}
	}
	if err := imp.list(want); err != nil {
		return nil, err
	}
	imp.gc = importer.ForCompiler(fset, "gc", func(p string) (io.ReadCloser, error) {
		file, ok := imp.exports[p]
		if !ok {
			if err := imp.list(map[string]bool{p: true}); err != nil {
				return nil, err
			}
			if file, ok = imp.exports[p]; !ok {
				return nil, &ImportError{Path: p}
			}
		}
		return os.Open(file)
	})
	for p, fs := range courseFiles {
		conf := types.Config{Importer: imp.gc}
		pkg, err := conf.Check(p, fset, fs, nil)
		if err != nil {
			return nil, fmt.Errorf("the course's package %s: %w", p, err)
		}
		imp.course[p] = pkg
	}
	return imp, nil
}

// courseModule is the module of the course's own packages.
const courseModule = "github.com/workbook-course/workbook"

// courseSources are the source files of the course's packages a program may import (the flaky
// service, the harness of scenario exercises), by import path.
var courseSources = map[string]func() []checker.SourceFile{
	checker.FlakyImport: func() []checker.SourceFile {
		return []checker.SourceFile{{Name: "flaky.go", Data: checker.FlakySource()}}
	},
	checker.ScenarioImport: checker.ScenarioSources,
}

func (imp *progImporter) Import(p string) (*types.Package, error) {
	if pkg, ok := imp.course[p]; ok {
		return pkg, nil
	}
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	pkg, err := imp.gc.Import(p)
	if err != nil && imp.err == nil && !errors.Is(err, ErrImport) {
		var ie *ImportError
		if !errors.As(err, &ie) {
			imp.err = err
		}
	}
	return pkg, err
}

// exportCache keeps what go list said for the life of the process: the export data of the
// standard library does not change under a running tool.
var exportCache sync.Map // import path -> export file

// list finds the export data of the standard packages want with one go list, run in an empty
// scratch folder with the checker's offline environment. A path that is not a standard package
// is an ImportError.
func (imp *progImporter) list(want map[string]bool) error {
	var args []string
	for p := range want {
		if f, ok := exportCache.Load(p); ok {
			imp.exports[p] = f.(string)
			continue
		}
		if !stdPath.MatchString(p) {
			return &ImportError{Path: p}
		}
		args = append(args, p)
	}
	if len(args) == 0 {
		return nil
	}
	sort.Strings(args)
	goBin, err := checker.GoTool()
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "workbook-vet-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	for _, d := range []string{"home", "tmp", "work"} {
		if err := os.MkdirAll(scratch+"/"+d, 0o755); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(imp.ctx, goBin, append([]string{"list", "-e", "-export",
		"-f", "{{.ImportPath}}\t{{.Export}}\t{{.Standard}}\t{{with .Error}}{{.Err}}{{end}}"}, args...)...)
	cmd.Dir = scratch + "/work"
	cmd.Env = checker.ToolEnv(goBin, scratch)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if imp.ctx.Err() != nil {
			return imp.ctx.Err()
		}
		return fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.SplitN(line, "\t", 4)
		if len(f) < 3 {
			continue
		}
		if f[2] != "true" || f[1] == "" {
			return &ImportError{Path: f[0]}
		}
		exportCache.Store(f[0], f[1])
		imp.exports[f[0]] = f[1]
	}
	return nil
}
