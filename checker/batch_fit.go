package checker

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// In one executable every learner's package is initialised in every learner's run, before the
// dispatcher picks the one to run. So only a program whose initialisation provably does nothing but
// set up inert data joins one: fitOneExe decides it from the syntax tree, and whatever it cannot
// prove harmless builds alone (as its own executable). The rules, each with a reason code:
//
//   - "large": more than maxOneExeSource bytes of Go, or package-level variables of more than
//     maxOneExeData bytes (in one executable they would weigh on every run);
//   - "syntax": a file does not parse (the batch would fail; a build of its own gives the messages);
//   - "package": a file is not package main, or it holds no `func main()` of the right shape;
//   - "init": a function init (it would run in every learner's run);
//   - "package_var": a package-level initialiser that could run code or fail: any call but a
//     conversion to a basic type, []byte/[]rune, a non-array type of the program's own, len, cap,
//     and errors.New of a literal; an index, slice, type assertion, dereference, receive,
//     comparison, division or shift by anything but a literal; a map literal whose keys are not
//     literals; a field of anything but a package;
//   - "directive": a //go: directive other than //go:build (//go:linkname could reach into another
//     package), a //line directive;
//   - "import": unsafe, C, reflect, runtime and runtime/…, plugin, and the packages that print Go
//     type names in their errors (encoding/json, encoding/xml, encoding/gob, text/template,
//     html/template): in one executable the package is not called main, and their output would say
//     so;
//   - "verb": a %T, %#v or %+v in a string literal (they print the package's name);
//   - "go_version": a go.mod whose go version is not the toolchain's (its GODEBUG defaults, such
//     as the timers' channels before Go 1.23, belong to the main module: they would be lost).
const (
	maxOneExeSource = 256 << 10
	maxOneExeData   = 1 << 20
)

// fit is what fitOneExe learns of a program that fits: the names declared at its package level
// (the entry's name must be none of them) and whether it uses the flag package.
type fit struct {
	names    map[string]bool
	usesFlag bool
}

// badImports are the packages a program in one executable may not import (see fitOneExe).
var badImports = map[string]bool{
	"unsafe": true, "C": true, "reflect": true, "runtime": true, "plugin": true,
	"encoding/json": true, "encoding/xml": true, "encoding/gob": true, "text/template": true, "html/template": true,
}

// typeVerb finds the verbs whose output names the package: %T, %#v, %+v (with any flags, width,
// precision or argument index between).
var typeVerb = regexp.MustCompile(`%[-+# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*)?)?(?:\[\d+\])?T|%[-+ 0]*#[-+# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*)?)?v|%[- 0#]*\+[-+# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*)?)?v`)

// basicTypes are the predeclared types a package-level conversion may name.
var basicTypes = map[string]bool{
	"bool": true, "string": true, "byte": true, "rune": true, "uintptr": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true,
}

// fitOneExe reports whether the program in src (a snapshot, standard library only) may be built
// as a package of one executable with others, and if not, why (a reason code above).
func fitOneExe(src string) (fit, string) {
	f := fit{names: map[string]bool{}}
	if data, err := os.ReadFile(filepath.Join(src, "go.mod")); err == nil && !sameGoVersion(string(data)) {
		return f, "go_version"
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return f, "syntax"
	}
	fset := token.NewFileSet()
	var files []*ast.File
	size := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return f, "syntax"
		}
		if size += len(data); size > maxOneExeSource {
			return f, "large"
		}
		if strings.Contains(string(data), oneExePackage) {
			return f, "package" // the package's own name would be turned into main in its output
		}
		file, err := parser.ParseFile(fset, name, data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return f, "syntax"
		}
		if file.Name.Name != "main" {
			return f, "package"
		}
		files = append(files, file)
	}
	if len(files) == 0 {
		return f, "package"
	}
	types := map[string]ast.Expr{}
	consts := map[string]bool{}
	hasMain := false
	for _, file := range files {
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if badImports[p] || strings.HasPrefix(p, "runtime/") {
				return f, "import"
			}
			if p == "flag" {
				f.usesFlag = true
			}
			f.names[importName(imp, p)] = true
		}
		for _, cg := range file.Comments {
			for _, c := range cg.List {
				if t := c.Text; (strings.HasPrefix(t, "//go:") && !strings.HasPrefix(t, "//go:build")) ||
					strings.HasPrefix(t, "//line ") || strings.HasPrefix(t, "/*line ") {
					return f, "directive"
				}
			}
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					continue
				}
				switch d.Name.Name {
				case "init":
					return f, "init"
				case "main":
					t := d.Type
					if t.TypeParams == nil && t.Params.NumFields() == 0 && t.Results.NumFields() == 0 && d.Body != nil {
						hasMain = true
					}
				}
				f.names[d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						f.names[s.Name.Name] = true
						if s.TypeParams == nil {
							types[s.Name.Name] = s.Type
						} else {
							types[s.Name.Name] = &ast.StarExpr{} // generic: sized as a pointer, never converted to
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							f.names[n.Name] = true
							if d.Tok == token.CONST {
								consts[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	if !hasMain || f.names["init"] {
		if f.names["init"] {
			return f, "init"
		}
		return f, "package"
	}
	v := inertCheck{names: f.names, types: types, consts: consts, imports: map[string]string{}}
	data := 0
	for _, file := range files {
		clear(v.imports)
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			v.imports[importName(imp, p)] = p
		}
		bad := ""
		ast.Inspect(file, func(n ast.Node) bool {
			if bad != "" {
				return false
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && typeVerb.MatchString(s) {
					bad = "verb"
				}
			}
			return true
		})
		if bad != "" {
			return f, bad
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if vs.Type != nil {
					data += len(vs.Names) * v.size(vs.Type, 0)
				}
				for _, val := range vs.Values {
					if !v.inert(val, nil) {
						return f, "package_var"
					}
					data += v.exprSize(val)
				}
				if data > maxOneExeData {
					return f, "large"
				}
			}
		}
	}
	return f, ""
}

// sameGoVersion reports whether a go.mod's go directive names the toolchain's language version.
func sameGoVersion(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		if m := goModGo.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			return "1."+m[1] == GoVersion()
		}
	}
	return false
}

// importName is the name a file knows an import by.
func importName(imp *ast.ImportSpec, path string) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2] // math/rand/v2 is rand
	}
	return name
}

// inertCheck decides whether package-level initialisers can run code or fail.
type inertCheck struct {
	names   map[string]bool     // the package's own top-level names (they may shadow builtins)
	types   map[string]ast.Expr // the package's own type declarations
	consts  map[string]bool     // the package's own constants
	imports map[string]string   // the current file's imports by name
}

// inert reports whether evaluating e can neither run code nor fail. typ is e's type when known
// (for the keys of the composite literals written inside it without their type).
func (v *inertCheck) inert(e ast.Expr, typ ast.Expr) bool {
	switch e := e.(type) {
	case nil:
		return true
	case *ast.BasicLit, *ast.FuncLit:
		return true
	case *ast.Ident:
		return true
	case *ast.ParenExpr:
		return v.inert(e.X, typ)
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return false
		}
		_, isPkg := v.imports[x.Name]
		_, isType := v.types[x.Name]
		return isPkg || isType // a package's name, or a method expression
	case *ast.UnaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.NOT, token.XOR, token.AND:
			return v.inert(e.X, nil)
		}
		return false
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ:
			// Interfaces holding values that cannot be compared panic.
			return v.isLit(e.X) && v.isLit(e.Y)
		case token.QUO, token.REM, token.SHL, token.SHR:
			return v.inert(e.X, nil) && v.isLit(e.Y) && !isZeroLit(e.Y)
		}
		return v.inert(e.X, nil) && v.inert(e.Y, nil)
	case *ast.CompositeLit:
		t := e.Type
		if t == nil {
			t = typ
		}
		if t != nil && v.size(t, 0) > maxOneExeData {
			return false
		}
		under := v.underlying(t)
		var elem ast.Expr
		litKeys := true // map keys must be literals: an interface key holding a slice panics
		switch u := under.(type) {
		case *ast.StructType:
			litKeys = false
		case *ast.ArrayType:
			litKeys, elem = false, u.Elt // an index must be a constant, checked by the compiler
		case *ast.MapType:
			elem = u.Value
		}
		for _, el := range e.Elts {
			val := el
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if litKeys && !v.isLit(kv.Key) {
					return false
				}
				if _, ok := kv.Key.(*ast.Ident); !ok && !litKeys && !v.inert(kv.Key, nil) {
					return false
				}
				val = kv.Value
			}
			if !v.inert(val, elem) {
				return false
			}
		}
		return true
	case *ast.CallExpr:
		if len(e.Args) != 1 || e.Ellipsis.IsValid() {
			return false
		}
		arg := e.Args[0]
		switch fun := e.Fun.(type) {
		case *ast.Ident:
			if v.names[fun.Name] {
				t := v.types[fun.Name]
				if t == nil {
					return false // a function of the program's own
				}
				switch u := v.underlying(t).(type) {
				case *ast.StructType, *ast.FuncType, *ast.MapType, *ast.ChanType, *ast.InterfaceType:
				case *ast.ArrayType:
					if u.Len != nil {
						return false // a slice converted to an array panics when it is too short
					}
				case *ast.Ident:
					if !basicTypes[u.Name] || v.names[u.Name] {
						return false
					}
				default:
					return false
				}
				return v.inert(arg, nil)
			}
			if basicTypes[fun.Name] || fun.Name == "len" || fun.Name == "cap" {
				return v.inert(arg, nil)
			}
		case *ast.ArrayType:
			if id, ok := fun.Elt.(*ast.Ident); ok && fun.Len == nil && !v.names[id.Name] &&
				(id.Name == "byte" || id.Name == "rune" || id.Name == "uint8" || id.Name == "int32") {
				return v.inert(arg, nil)
			}
		case *ast.SelectorExpr:
			if x, ok := fun.X.(*ast.Ident); ok && v.imports[x.Name] == "errors" && fun.Sel.Name == "New" {
				lit, ok := arg.(*ast.BasicLit)
				return ok && lit.Kind == token.STRING
			}
		}
		return false
	}
	return false
}

// underlying follows the program's own type names (a few steps) to the type they stand for.
func (v *inertCheck) underlying(t ast.Expr) ast.Expr {
	for i := 0; i < 10; i++ {
		switch x := t.(type) {
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			d, ok := v.types[x.Name]
			if !ok {
				return t
			}
			t = d
		default:
			return t
		}
	}
	return nil
}

// size is an upper bound of the bytes a value of type t takes, huge when it cannot be bounded
// (an array whose length is not a literal).
func (v *inertCheck) size(t ast.Expr, depth int) int {
	const huge = maxOneExeData + 1
	if depth > 20 {
		return huge
	}
	switch t := t.(type) {
	case *ast.ParenExpr:
		return v.size(t.X, depth+1)
	case *ast.Ident:
		if d, ok := v.types[t.Name]; ok {
			return v.size(d, depth+1)
		}
		return 16
	case *ast.ArrayType:
		if t.Len == nil {
			return 24
		}
		if _, ok := t.Len.(*ast.Ellipsis); ok {
			return v.size(t.Elt, depth+1) // its elements are in the source, which is bounded
		}
		lit, ok := t.Len.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			return huge
		}
		n, err := strconv.ParseInt(lit.Value, 0, 64)
		if err != nil || n > maxOneExeData {
			return huge
		}
		return min(huge, int(n)*v.size(t.Elt, depth+1))
	case *ast.StructType:
		total := 0
		for _, fl := range t.Fields.List {
			total += max(1, len(fl.Names)) * v.size(fl.Type, depth+1)
			if total > maxOneExeData {
				return huge
			}
		}
		return total
	case *ast.SelectorExpr:
		return 64
	}
	return 24
}

// exprSize bounds the bytes the composite literals in e allocate by their types.
func (v *inertCheck) exprSize(e ast.Expr) int {
	total := 0
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CompositeLit); ok && c.Type != nil {
			total += v.size(c.Type, 0)
		}
		return total <= maxOneExeData
	})
	return total
}

// isLit reports whether e is a constant: a literal or a constant of the package's own, negated or not.
func (v *inertCheck) isLit(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return v.consts[e.Name]
	case *ast.ParenExpr:
		return v.isLit(e.X)
	case *ast.UnaryExpr:
		return e.Op == token.SUB && v.isLit(e.X)
	}
	return false
}

// isZeroLit reports whether e is a literal that is (or may be, when it does not parse) zero.
func isZeroLit(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.BasicLit:
			f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSuffix(x.Value, "i"), "_", ""), 64)
			if err != nil {
				n, err := strconv.ParseInt(x.Value, 0, 64)
				return err != nil || n == 0
			}
			return f == 0
		}
		return false
	}
}
