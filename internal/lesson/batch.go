package lesson

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/workbook-course/workbook/checker"
)

// Building one executable costs a go command and a link; a lesson has a dozen programs in each
// language. runBatch builds them all as one executable instead: each program becomes a package of
// its own (package main renamed pNNN, func main renamed Main) and a small main calls the one named
// by its first argument. Each run is still a process of its own under the checker's limits, and
// what a program prints does not change, with one caveat the batch checks for: every package's
// initialisation runs in every process, so a program whose initialisation prints (or fails) is
// caught by a run that calls no program, and then every program is built alone.

// batchModule is the module path checker.Build gives a folder without a go.mod.
const batchModule = "learner"

// runBatch builds the programs it can as one executable and runs each. It returns which of todo it
// ran; the others are left to be built alone. When the executable does not build (some program has
// a compile error) or its initialisation is not silent, the batch is split in two and each half is
// tried again, so one broken program costs a few builds, not one for every program.
func (r *Runner) runBatch(ctx context.Context, dir string, todo []*outcome, fixed [][]byte) ([]bool, error) {
	done := make([]bool, len(todo))
	pkgs := map[int][]byte{}
	var idx []int
	for i, src := range fixed {
		if src == nil || IsVirtual(todo[i].src) {
			continue // a program of virtual time is built with its harness, on its own
		}
		if pkg, ok := asPackage(src, pkgName(i)); ok {
			pkgs[i] = pkg
			idx = append(idx, i)
		}
	}
	n := 0
	err := r.batch(ctx, filepath.Join(dir, "b"), idx, pkgs, func(i int, out checker.RunOutput) {
		todo[i].built, todo[i].out, done[i] = true, out, true
	}, &n)
	return done, err
}

func pkgName(i int) string { return fmt.Sprintf("p%03d", i) }

// batch builds the programs idx as one executable in a new folder under base and runs each,
// reporting each run to ran. It splits the batch when it fails; a batch of one is left alone.
func (r *Runner) batch(ctx context.Context, base string, idx []int, pkgs map[int][]byte, ran func(int, checker.RunOutput), n *int) error {
	if len(idx) < 2 {
		return nil
	}
	*n++
	dir := fmt.Sprintf("%s%d", base, *n)
	names := make([]string, len(idx))
	for k, i := range idx {
		names[k] = pkgName(i)
		pdir := filepath.Join(dir, names[k])
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(pdir, "main.go"), pkgs[i], 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), dispatcher(names), 0o644); err != nil {
		return err
	}
	split := func() error {
		half := len(idx) / 2
		if err := r.batch(ctx, base, idx[:half], pkgs, ran, n); err != nil {
			return err
		}
		return r.batch(ctx, base, idx[half:], pkgs, ran, n)
	}
	r.builds.Add(1)
	prog, err := checker.Build(ctx, dir, trusted(r.Limits))
	var bf *checker.BuildFailure
	switch {
	case errors.As(err, &bf):
		return split()
	case err != nil:
		return err
	}
	defer prog.Close()
	probe := prog.Run(ctx, "", []string{batchNone}, "")
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if probe.Status != checker.Pass || probe.ExitCode != 0 || probe.Stdout != "" || probe.Stderr != "" {
		return split()
	}
	return r.each(ctx, len(idx), func(k int) error {
		ran(idx[k], prog.Run(ctx, "", []string{names[k]}, ""))
		return ctx.Err()
	})
}

// quietInit reports whether a program's initialisation surely prints nothing and changes nothing
// outside its package: no func init, and package-level variables initialised with no calls but to
// builtins and to packages without side effects. (The batch's probe run catches what this misses.)
func quietInit(f *ast.File) bool {
	quiet := true
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				return false
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || !quiet {
					return quiet
				}
				switch fun := call.Fun.(type) {
				case *ast.Ident:
					quiet = builtins[fun.Name]
				case *ast.SelectorExpr:
					pkg, ok := fun.X.(*ast.Ident)
					quiet = ok && purePackages[pkg.Name]
				case *ast.FuncLit:
					quiet = false
				}
				return quiet
			})
			if !quiet {
				return false
			}
		}
	}
	return true
}

var builtins = map[string]bool{"len": true, "cap": true, "make": true, "new": true, "append": true, "min": true,
	"max": true, "complex": true, "real": true, "imag": true, "string": true, "int": true, "int64": true, "float64": true,
	"byte": true, "rune": true}

// purePackages are standard packages whose functions a variable may be initialised with in a batch.
var purePackages = map[string]bool{"time": true, "strings": true, "strconv": true, "errors": true, "math": true,
	"rand": true, "regexp": true, "sort": true, "slices": true, "maps": true, "bytes": true, "unicode": true,
	"utf8": true, "context": true, "sync": true, "atomic": true, "big": true, "bits": true}

// batchNone is the argument on which the batch's main calls no program.
const batchNone = "-none"

// dispatcher is the main package of a batch.
func dispatcher(names []string) []byte {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"os\"\n\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s %q\n", n, batchModule+"/"+n)
	}
	b.WriteString(")\n\nfunc main() {\n\tif len(os.Args) < 2 {\n\t\tos.Exit(3)\n\t}\n")
	b.WriteString("\tname := os.Args[1]\n\tos.Args = append(os.Args[:1:1], os.Args[2:]...)\n\tswitch name {\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\tcase %q:\n\t\t%s.Main()\n", n, n)
	}
	fmt.Fprintf(&b, "\tcase %q:\n\tdefault:\n\t\tos.Exit(3)\n\t}\n}\n", batchNone)
	return []byte(b.String())
}

// asPackage turns a program into package name with its func main renamed Main, editing only those
// two names so that everything else (the //line directives above all) stays where it was. It
// reports false for a program that cannot be moved so: one that has no func main, declares Main, or
// uses the name main for anything else.
func asPackage(src []byte, name string) ([]byte, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil || f.Name.Name != "main" {
		return nil, false
	}
	var mainFunc *ast.Ident
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			mainFunc = fd.Name
		}
	}
	if mainFunc == nil || !quietInit(f) {
		return nil, false
	}
	clash := false
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id != f.Name && id != mainFunc && (id.Name == "main" || id.Name == "Main") {
			clash = true
		}
		return !clash
	})
	if clash {
		return nil, false
	}
	pkgAt := fset.Position(f.Name.Pos()).Offset
	mainAt := fset.Position(mainFunc.Pos()).Offset
	out := make([]byte, 0, len(src)+len(name))
	out = append(out, src[:pkgAt]...)
	out = append(out, name...)
	out = append(out, src[pkgAt+len("main"):mainAt]...)
	out = append(out, "Main"...)
	out = append(out, src[mainAt+len("main"):]...)
	return out, true
}
