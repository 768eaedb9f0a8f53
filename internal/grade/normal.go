package grade

import (
	"bytes"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
)

// What copy detection reads a program as, beyond leaving out what does nothing (noise.go): the
// rewrites a copy can be put through mechanically without changing what it does are undone, so
// that a copy reads as the program it was copied from.
//
//   - Code that never runs is left out: top-level functions, types, variables and constants that
//     nothing reached from main or init uses (a copy padded with code of its own), the branch of an
//     if whose condition is a constant (if false {…}, if 1 > 2 {…}), a for whose condition is
//     constant false, statements after a return, a break, a continue, a goto, panic or os.Exit,
//     and a local variable set to a value without effects and used nowhere else.
//   - Constants are read as their values: a named constant where it is used (its declaration left
//     out), a constant expression ("a"+"b", 60*10) as its result, a number however it is written
//     (0x10, 1_6 and 16 alike).
//   - What is written in two ways is read in one: parentheses left out, x++ as x += 1, x = x + y as
//     x += y, var x = v as x := v, for true as for, for i := 0; i < n; i++ as for i := range n,
//     if c {} else {A} as if !c {A}, a package by its path whatever it is imported as (or with a
//     dot), fmt.Fprintf(os.Stdout, …) as fmt.Printf(…) (and Fprint, Fprintln), fmt.Print(
//     fmt.Sprintf(…)) as fmt.Printf(…), if !c {A} else {B} as if c {B} else {A} (and a >= b as
//     a < b, a > b as a <= b, a != b as a == b), an empty else left out, the else of an if that
//     returns read as what follows it.
//
// Code the course gives (starters, hints, lesson snippets) is read whole: what of it a student's
// program does not use is left out of the student's program, not of what is left out as given.

// edit is a span of a file that copy detection reads as something else: its tokens skipped and
// repl (normalised tokens; none for what does nothing) read in their place.
type edit struct {
	span
	repl []string
}

// parsedProgram is a program parsed once for copy detection: its files, the constants it names
// once (by value), and, when only what runs is read, the top-level declarations nothing running
// reaches.
type parsedProgram struct {
	src    Source
	fset   *token.FileSet
	files  map[string]*ast.File // nil for a file that does not parse
	consts map[string]constant.Value
	// pending are the declarations of the constants not read yet, while findConsts reads them.
	pending map[string]ast.Expr
	dead    map[ast.Node]bool // *ast.FuncDecl, *ast.GenDecl or an ast.Spec
	// declared counts the declarations of each name in the program (a package's name aside).
	declared map[string]int
}

// parseProgram parses the files of src (their text as read, see swapBranches); live leaves out the
// code that never runs (unusedDecls).
func parseProgram(src Source, live bool) *parsedProgram {
	p := &parsedProgram{src: src, fset: token.NewFileSet(), files: map[string]*ast.File{},
		consts: map[string]constant.Value{}, dead: map[ast.Node]bool{}}
	// The files as read: their if and else swapped where the condition is written negated.
	p.src.Files = make(map[string][]byte, len(src.Files))
	for _, name := range fileNames(src) {
		data := src.Files[name]
		p.src.Files[name] = data
		f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		if swapped := swapBranches(data, f); swapped != nil {
			data = swapped
			p.src.Files[name] = data
		}
		if f, err := parser.ParseFile(p.fset, name, data, parser.SkipObjectResolution); err == nil {
			p.files[name] = f
		}
	}
	p.findConsts()
	if live {
		p.unusedDecls()
	}
	return p
}

func fileNames(src Source) []string {
	names := make([]string, 0, len(src.Files))
	for n := range src.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// fileImports is what a file calls its imports: each name (its alias, or its path's last element)
// → the path's last element ("." → that of a package imported with a dot); and the names of the
// program's own packages among them.
func fileImports(f *ast.File, src Source) (map[string]string, map[string]bool) {
	imports, locals := map[string]string{}, map[string]bool{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		base := path.Base(p)
		n := base
		if imp.Name != nil {
			n = imp.Name.Name
		}
		imports[n] = base
		if _, ok := src.local(p); ok {
			locals[n] = true
		}
	}
	return imports, locals
}

// findConsts finds the constants the program declares with a value it can read, each name
// declared only once in the whole program (so that a local of the same name elsewhere is not
// taken for it).
func (p *parsedProgram) findConsts() {
	declared := map[string]int{}
	p.declared = declared
	var groups []*ast.GenDecl
	for _, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for _, id := range n.Names {
					declared[id.Name]++
				}
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							declared[id.Name]++
						}
					}
				}
			case *ast.Field:
				for _, id := range n.Names {
					declared[id.Name]++
				}
			case *ast.FuncDecl:
				declared[n.Name.Name]++
			case *ast.TypeSpec:
				declared[n.Name.Name]++
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := e.(*ast.Ident); ok {
							declared[id.Name]++
						}
					}
				}
			case *ast.GenDecl:
				if n.Tok == token.CONST {
					groups = append(groups, n)
				}
			}
			return true
		})
	}
	// A constant may be defined by another declared after it: each is read when first needed.
	p.pending = map[string]ast.Expr{}
	for _, gd := range groups {
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Values) != len(vs.Names) {
				continue // iota's repetition: not read
			}
			for i, id := range vs.Names {
				if declared[id.Name] == 1 && id.Name != "_" {
					p.pending[id.Name] = vs.Values[i]
				}
			}
		}
	}
	for _, gd := range groups {
		for _, sp := range gd.Specs {
			for _, id := range sp.(*ast.ValueSpec).Names {
				p.constNamed(id.Name)
			}
		}
	}
	p.pending = nil
}

// constNamed is the value of the program's constant name (nil when it has none read here),
// read from its declaration (pending) the first time.
func (p *parsedProgram) constNamed(name string) constant.Value {
	if v, ok := p.consts[name]; ok {
		return v
	}
	e, ok := p.pending[name]
	if !ok {
		return nil
	}
	delete(p.pending, name) // read once; a constant defined by itself has no value
	if v := p.constValue(e); v != nil {
		p.consts[name] = v
		return v
	}
	return nil
}

// Bounds of what constValue computes: a program's constants may square each other's values.
const (
	maxConstBits   = 512
	maxConstString = 4 << 10
)

// constValue is the value of a constant expression made of literals, true, false and the
// program's constants; nil when it is not one (or not one read here: division, shifts, a number of
// more than maxConstBits bits, a string of more than maxConstString bytes).
func (p *parsedProgram) constValue(e ast.Expr) constant.Value {
	v := p.constExpr(e)
	switch {
	case v == nil:
	case v.Kind() == constant.Int && constant.BitLen(v) > maxConstBits,
		v.Kind() == constant.String && len(constant.StringVal(v)) > maxConstString:
		return nil
	case v.Kind() == constant.Float:
		// A fraction's digits may grow as an integer's do.
		if f, _ := constant.Float64Val(v); !math.IsInf(f, 0) {
			return constant.MakeFloat64(f)
		}
		return nil
	}
	return v
}

func (p *parsedProgram) constExpr(e ast.Expr) constant.Value {
	switch e := e.(type) {
	case *ast.BasicLit:
		if v := constant.MakeFromLiteral(e.Value, e.Kind, 0); v.Kind() != constant.Unknown {
			return v
		}
	case *ast.Ident:
		switch e.Name {
		case "true", "false":
			return constant.MakeBool(e.Name == "true")
		}
		return p.constNamed(e.Name)
	case *ast.ParenExpr:
		return p.constValue(e.X)
	case *ast.UnaryExpr:
		x := p.constValue(e.X)
		switch {
		case x == nil:
		case e.Op == token.NOT && x.Kind() == constant.Bool,
			(e.Op == token.SUB || e.Op == token.ADD) && numeric(x):
			return constant.UnaryOp(e.Op, x, 0)
		}
	case *ast.BinaryExpr:
		x, y := p.constValue(e.X), p.constValue(e.Y)
		if x == nil || y == nil {
			return nil
		}
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			if numeric(x) && numeric(y) || x.Kind() == y.Kind() && x.Kind() == constant.String ||
				x.Kind() == constant.Bool && y.Kind() == constant.Bool && (e.Op == token.EQL || e.Op == token.NEQ) {
				return constant.MakeBool(constant.Compare(x, e.Op, y))
			}
		case token.LAND, token.LOR:
			if x.Kind() == constant.Bool && y.Kind() == constant.Bool {
				return constant.BinaryOp(x, e.Op, y)
			}
		case token.ADD:
			if x.Kind() == constant.String && y.Kind() == constant.String || numeric(x) && numeric(y) {
				return constant.BinaryOp(x, e.Op, y)
			}
		case token.SUB, token.MUL:
			if numeric(x) && numeric(y) {
				return constant.BinaryOp(x, e.Op, y)
			}
		}
	}
	return nil
}

func numeric(v constant.Value) bool { return v.Kind() == constant.Int || v.Kind() == constant.Float }

// constText is a constant's value as a normalised token: a string by its verbs and numbers
// (wordless), a number in one way however it was written.
func constText(v constant.Value) string {
	switch v.Kind() {
	case constant.String:
		return wordless(strconv.Quote(constant.StringVal(v)))
	case constant.Int:
		return v.ExactString()
	}
	return v.String()
}

// litText is a literal token as a normalised token.
func litText(tok token.Token, lit string) string {
	if tok == token.STRING {
		return wordless(lit)
	}
	if v := constant.MakeFromLiteral(lit, tok, 0); v.Kind() != constant.Unknown && tok != token.IMAG {
		return constText(v)
	}
	return lit
}

// declUnit is a top-level declaration (a function, or one spec of a type, var or const
// declaration) for unusedDecls: the names it declares, the receiver's type of a method, whether it
// runs whatever uses it (main, init, a variable whose value calls), and the names it uses.
type declUnit struct {
	node  ast.Node
	names []string
	recv  string
	root  bool
	uses  []string
}

// unusedDecls marks the top-level declarations of a program with a main that nothing reached from
// main, init or a variable's initialiser that calls uses. A name is a name whatever its package:
// a declaration is kept when anything kept uses a name it declares, so what is left out never ran.
func (p *parsedProgram) unusedDecls() {
	var units []declUnit
	hasMain := false
	specOf := map[ast.Node]*ast.GenDecl{}
	for _, name := range fileNames(p.src) {
		f := p.files[name]
		if f == nil {
			continue
		}
		imports, _ := fileImports(f, p.src)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				u := declUnit{node: d, names: []string{d.Name.Name}, uses: p.usedNames(d, imports)}
				if d.Recv != nil && len(d.Recv.List) > 0 {
					u.recv = recvType(d.Recv.List[0].Type)
				} else if d.Name.Name == "main" || d.Name.Name == "init" {
					u.root, hasMain = true, hasMain || d.Name.Name == "main"
				}
				units = append(units, u)
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					continue
				}
				for _, sp := range d.Specs {
					specOf[sp] = d
					u := declUnit{node: sp, uses: p.usedNames(sp, imports)}
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						u.names = []string{sp.Name.Name}
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							u.names = append(u.names, id.Name)
						}
						for _, v := range sp.Values {
							u.root = u.root || effects(v)
						}
					}
					units = append(units, u)
				}
			}
		}
	}
	if !hasMain {
		return
	}
	// From the roots, the declarations of each name a kept one uses, and the methods of each type
	// kept: each declaration is kept once, each name followed once.
	byName, methods := map[string][]int{}, map[string][]int{}
	for i, u := range units {
		if u.recv != "" {
			methods[u.recv] = append(methods[u.recv], i)
			continue
		}
		for _, n := range u.names {
			byName[n] = append(byName[n], i)
		}
	}
	live := make([]bool, len(units))
	var queue []int
	keep := func(i int) {
		if !live[i] {
			live[i] = true
			queue = append(queue, i)
		}
	}
	for i, u := range units {
		if u.root {
			keep(i)
		}
	}
	reached := map[string]bool{}
	for len(queue) > 0 {
		u := units[queue[0]]
		queue = queue[1:]
		for _, n := range u.uses {
			if reached[n] {
				continue
			}
			reached[n] = true
			for _, i := range byName[n] {
				keep(i)
			}
			for _, i := range methods[n] {
				keep(i)
			}
		}
	}
	deadSpecs := map[*ast.GenDecl]int{}
	for i, u := range units {
		if live[i] {
			continue
		}
		p.dead[u.node] = true
		if gd := specOf[u.node]; gd != nil {
			deadSpecs[gd]++
		}
	}
	for gd, n := range deadSpecs {
		if n == len(gd.Specs) {
			p.dead[gd] = true
		}
	}
}

// usedNames is every identifier in a node but those in code that never runs (the branches and
// statements noise leaves out as such), so that what only dead code uses is dead too.
func (p *parsedProgram) usedNames(n ast.Node, imports map[string]string) []string {
	var out []string
	var visit func(n ast.Node) bool
	list := func(stmts []ast.Stmt) {
		for i, s := range stmts {
			ast.Inspect(s, visit)
			if terminates(s, imports) && !labelled(stmts[i+1:]) {
				return
			}
		}
	}
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			out = append(out, n.Name)
		case *ast.BlockStmt:
			list(n.List)
			return false
		case *ast.CaseClause:
			for _, e := range n.List {
				ast.Inspect(e, visit)
			}
			list(n.Body)
			return false
		case *ast.CommClause:
			if n.Comm != nil {
				ast.Inspect(n.Comm, visit)
			}
			list(n.Body)
			return false
		case *ast.IfStmt:
			if v := p.constValue(n.Cond); n.Init == nil && v != nil && v.Kind() == constant.Bool {
				if constant.BoolVal(v) {
					ast.Inspect(n.Body, visit)
				} else if n.Else != nil {
					ast.Inspect(n.Else, visit)
				}
				return false
			}
		case *ast.ForStmt:
			if v := p.constValue(n.Cond); n.Init == nil && v != nil && v.Kind() == constant.Bool && !constant.BoolVal(v) {
				return false
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return out
}

// recvType is the name of a method receiver's type (T of *T, T[K]).
func recvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// effects reports whether evaluating an expression may do something (call, receive).
func effects(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.FuncLit:
			return false // a function's value; its body runs only when called
		}
		return !found
	})
	return found
}

// deadBranch reads an if whose condition is a constant as the branch that runs, and leaves out a
// for whose condition is constant false; it reports whether s was one.
func (p *parsedProgram) deadBranch(s ast.Stmt, at func(from, to token.Pos, repl ...string)) bool {
	switch s := s.(type) {
	case *ast.IfStmt:
		v := p.constValue(s.Cond)
		if s.Init != nil || v == nil || v.Kind() != constant.Bool {
			return false
		}
		switch {
		case constant.BoolVal(v):
			at(s.Pos(), s.Body.Lbrace+1)
			at(s.Body.Rbrace, s.End())
		case s.Else == nil:
			at(s.Pos(), s.End())
		default:
			at(s.Pos(), s.Else.Pos())
			if b, ok := s.Else.(*ast.BlockStmt); ok {
				at(b.Lbrace, b.Lbrace+1)
				at(b.Rbrace, b.Rbrace+1)
			}
		}
		return true
	case *ast.ForStmt:
		v := p.constValue(s.Cond)
		if s.Init != nil || s.Cond == nil || v == nil || v.Kind() != constant.Bool || constant.BoolVal(v) {
			return false
		}
		at(s.Pos(), s.End())
		return true
	}
	return false
}

// terminates reports whether nothing after the statement in its block runs: a return, a break, a
// continue, a goto, a call of panic or os.Exit.
func terminates(s ast.Stmt, imports map[string]string) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok != token.FALLTHROUGH
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		switch fn := call.Fun.(type) {
		case *ast.Ident:
			return fn.Name == "panic"
		case *ast.SelectorExpr:
			x, ok := fn.X.(*ast.Ident)
			return ok && imports[x.Name] == "os" && fn.Sel.Name == "Exit"
		}
	}
	return false
}

// endsBlock reports whether nothing after a block of these statements runs: its last statement
// that does something terminates (see terminates).
func (p *parsedProgram) endsBlock(list []ast.Stmt, imports map[string]string) bool {
	for i := len(list) - 1; i >= 0; i-- {
		if !p.noop(list[i]) {
			return terminates(list[i], imports)
		}
	}
	return false
}

// noop reports whether a statement is one noise leaves out whole: it does nothing, or never runs.
func (p *parsedProgram) noop(s ast.Stmt) bool {
	if idle(s) || p.identity(s) {
		return true
	}
	var cond ast.Expr
	switch s := s.(type) {
	case *ast.IfStmt:
		if s.Init != nil || s.Else != nil {
			return false
		}
		cond = s.Cond
	case *ast.ForStmt:
		if s.Init != nil || s.Cond == nil {
			return false
		}
		cond = s.Cond
	default:
		return false
	}
	v := p.constValue(cond)
	return v != nil && v.Kind() == constant.Bool && !constant.BoolVal(v)
}

// labelled reports whether a goto could jump into the statements.
func labelled(list []ast.Stmt) bool {
	for _, s := range list {
		found := false
		ast.Inspect(s, func(n ast.Node) bool {
			_, ok := n.(*ast.LabeledStmt)
			found = found || ok
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// constDecl leaves out the declarations of the constants read as their values where used.
func (p *parsedProgram) constDecl(gd *ast.GenDecl, add func(ast.Node)) {
	if gd.Tok != token.CONST {
		return
	}
	var read []ast.Node
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		all := true
		for _, id := range vs.Names {
			_, ok := p.consts[id.Name]
			all = all && ok
		}
		if all {
			read = append(read, vs)
		}
	}
	if len(read) == len(gd.Specs) {
		add(gd)
		return
	}
	for _, n := range read {
		add(n)
	}
}

// rewrites are the edits that read what is written in two ways in one: parentheses, x = x op y,
// constant expressions, fmt.Fprint*(os.Stdout, …).
func (p *parsedProgram) rewrites(f *ast.File, file *token.File, imports map[string]string) []edit {
	var out []edit
	at := func(from, to token.Pos, repl ...string) {
		out = append(out, edit{span{file.Offset(from), file.Offset(to)}, repl})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			// A constant's own declaration is left out or read as it is written.
			return n.Tok != token.CONST
		case *ast.ParenExpr:
			at(n.Lparen, n.Lparen+1)
			at(n.Rparen, n.Rparen+1)
		case *ast.BinaryExpr:
			if v := p.constValue(n); v != nil {
				at(n.Pos(), n.End(), constText(v))
				return false
			}
		case *ast.AssignStmt:
			// x = x + y is x += y.
			if n.Tok != token.ASSIGN || len(n.Lhs) != 1 || len(n.Rhs) != 1 {
				break
			}
			b, ok := ast.Unparen(n.Rhs[0]).(*ast.BinaryExpr)
			if ok && opAssign[b.Op] != 0 && sameExpr(n.Lhs[0], b.X) {
				at(n.TokPos, b.OpPos+token.Pos(len(b.Op.String())), opAssign[b.Op].String())
			}
		case *ast.IfStmt:
			// if c {A} else {} is if c {A}.
			if b, ok := n.Else.(*ast.BlockStmt); ok && len(b.List) == 0 {
				at(n.Body.End(), b.End())
			}
			// if c {…; return} else {B} is if c {…; return}; B.
			if b, ok := n.Else.(*ast.BlockStmt); ok && len(b.List) > 0 && p.endsBlock(n.Body.List, imports) {
				at(n.Body.End(), b.Lbrace+1, ";")
				at(b.Rbrace, b.Rbrace+1)
			}
			if n.Init != nil || len(n.Body.List) > 0 || n.Else == nil {
				break
			}
			// if c {} else {A} is if !c {A}.
			if _, ok := n.Else.(*ast.BlockStmt); !ok {
				break
			}
			if u, ok := n.Cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
				at(u.OpPos, u.OpPos+1)
			} else {
				at(n.If, n.If+2, "if", "!")
			}
			at(n.Body.Lbrace, n.Else.Pos())
		case *ast.ForStmt:
			// for true {} is for {}.
			if v := p.constValue(n.Cond); v != nil && v.Kind() == constant.Bool && constant.BoolVal(v) {
				at(n.Cond.Pos(), n.Cond.End())
			}
			// for i := 0; i < n; i++ {} is for i := range n {}.
			if i, cond, ok := countLoop(n); ok {
				at(i.Rhs[0].Pos(), cond.OpPos+1, "range")
				at(cond.End(), n.Post.End())
			}
		case *ast.DeclStmt:
			// var x = v is x := v.
			gd, ok := n.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 || gd.Lparen.IsValid() {
				break
			}
			if vs := gd.Specs[0].(*ast.ValueSpec); len(vs.Names) == 1 && len(vs.Values) == 1 && vs.Type == nil {
				at(gd.TokPos, gd.TokPos+3)
				at(vs.Names[0].End(), vs.Values[0].Pos(), ":=")
			}
		case *ast.CallExpr:
			// fmt.Print(fmt.Sprintf(…)) is fmt.Printf(…).
			if fn, ok := n.Fun.(*ast.SelectorExpr); ok && len(n.Args) == 1 && isPkgSel(fn, "fmt", imports) && fn.Sel.Name == "Print" {
				in, ok := n.Args[0].(*ast.CallExpr)
				if !ok {
					break
				}
				if inFn, ok := in.Fun.(*ast.SelectorExpr); ok && isPkgSel(inFn, "fmt", imports) && inFn.Sel.Name == "Sprintf" && !in.Ellipsis.IsValid() {
					at(fn.Sel.Pos(), in.Lparen+1, "Printf", "(")
					at(in.Rparen, n.Rparen+1, ")")
					break
				}
			}
			// fmt.Fprintf(os.Stdout, …) is fmt.Printf(…).
			fn, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || len(n.Args) == 0 || !isPkgSel(fn, "fmt", imports) || !stdoutPrint[fn.Sel.Name] {
				break
			}
			if out, ok := ast.Unparen(n.Args[0]).(*ast.SelectorExpr); !ok || !isPkgSel(out, "os", imports) || out.Sel.Name != "Stdout" {
				break
			}
			at(fn.Sel.Pos(), fn.Sel.End(), "P"+fn.Sel.Name[2:])
			if len(n.Args) > 1 {
				at(n.Args[0].Pos(), n.Args[1].Pos())
			} else {
				at(n.Args[0].Pos(), n.Args[0].End())
			}
		}
		return true
	})
	return out
}

// countLoop reports whether a for loop counts from 0 up to a bound by one (for i := 0; i < n; i++),
// and its start and condition.
func countLoop(n *ast.ForStmt) (*ast.AssignStmt, *ast.BinaryExpr, bool) {
	init, ok := n.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil, nil, false
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	zero, ok2 := init.Rhs[0].(*ast.BasicLit)
	if !ok || !ok2 || zero.Value != "0" {
		return nil, nil, false
	}
	cond, ok := n.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.LSS || !sameExpr(cond.X, id) {
		return nil, nil, false
	}
	switch post := n.Post.(type) {
	case *ast.IncDecStmt:
		ok = post.Tok == token.INC && sameExpr(post.X, id)
	case *ast.AssignStmt:
		if post.Tok != token.ADD_ASSIGN || len(post.Lhs) != 1 || len(post.Rhs) != 1 {
			return nil, nil, false
		}
		one, isLit := post.Rhs[0].(*ast.BasicLit)
		ok = sameExpr(post.Lhs[0], id) && isLit && one.Value == "1"
	default:
		ok = false
	}
	return init, cond, ok
}

// opAssign is the assignment operator of each binary operator that has one.
var opAssign = map[token.Token]token.Token{
	token.ADD: token.ADD_ASSIGN, token.SUB: token.SUB_ASSIGN, token.MUL: token.MUL_ASSIGN,
	token.QUO: token.QUO_ASSIGN, token.REM: token.REM_ASSIGN, token.AND: token.AND_ASSIGN,
	token.OR: token.OR_ASSIGN, token.XOR: token.XOR_ASSIGN, token.SHL: token.SHL_ASSIGN,
	token.SHR: token.SHR_ASSIGN, token.AND_NOT: token.AND_NOT_ASSIGN,
}

// stdoutPrint are fmt's functions that print to a writer, which os.Stdout makes fmt's Print*.
var stdoutPrint = map[string]bool{"Fprint": true, "Fprintf": true, "Fprintln": true}

// isPkgSel reports whether a selector selects from the package whose path ends in pkg.
func isPkgSel(s *ast.SelectorExpr, pkg string, imports map[string]string) bool {
	x, ok := s.X.(*ast.Ident)
	return ok && imports[x.Name] == pkg
}

// sameExpr reports whether two expressions are written alike, parentheses aside.
func sameExpr(a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	switch a := a.(type) {
	case *ast.Ident:
		b, ok := b.(*ast.Ident)
		return ok && a.Name == b.Name
	case *ast.SelectorExpr:
		b, ok := b.(*ast.SelectorExpr)
		return ok && a.Sel.Name == b.Sel.Name && sameExpr(a.X, b.X)
	case *ast.StarExpr:
		b, ok := b.(*ast.StarExpr)
		return ok && sameExpr(a.X, b.X)
	}
	return false // an index or a call may differ between two evaluations
}

// unusedLocals leaves out the local variables of each function that are set to a value without
// effects and used nowhere but in what is left out already (done: the file's edits, sorted).
func unusedLocals(f *ast.File, file *token.File, done []edit) []edit {
	var out []edit
	var merged []span // done and out, as disjoint spans in order
	merge := func() {
		all := append(slices.Clone(done), out...)
		sortEdits(all)
		merged = merged[:0]
		for _, e := range all {
			if n := len(merged); n > 0 && e.from <= merged[n-1].to {
				merged[n-1].to = max(merged[n-1].to, e.to)
				continue
			}
			merged = append(merged, e.span)
		}
	}
	covered := func(pos token.Pos) bool {
		off := file.Offset(pos)
		i := sort.Search(len(merged), func(i int) bool { return merged[i].to > off })
		return i < len(merged) && merged[i].from <= off
	}
	// Twice: a variable used only by one left out is left out in turn.
	for range 2 {
		merge()
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			count := map[string]int{}
			ast.Inspect(fd, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && !covered(id.Pos()) {
					count[id.Name]++
				}
				return true
			})
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if s, ok := n.(ast.Stmt); ok && !covered(s.Pos()) {
					if name := unusedLocal(s); name != "" && count[name] == 1 {
						out = append(out, edit{span{file.Offset(s.Pos()), file.Offset(s.End())}, nil})
					}
				}
				return true
			})
		}
	}
	return out
}

// unusedLocal is the name a statement declares a variable of, when it declares one, with a value
// without effects (x := 1, var x = y, var x T); "" when not.
func unusedLocal(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE || len(s.Lhs) != 1 || len(s.Rhs) != 1 || !pure(s.Rhs[0]) {
			return ""
		}
		if id, ok := s.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
			return id.Name
		}
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return ""
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Names) != 1 || vs.Names[0].Name == "_" || len(vs.Values) > 1 || len(vs.Values) == 1 && !pure(vs.Values[0]) {
			return ""
		}
		return vs.Names[0].Name
	}
	return ""
}

// swapBranches is a file's text (of f, parsed from data) with each if c {A} else {B} whose condition
// is written negated (!x, a >= b, a > b, a != b) written if x {B} else {A} (a < b, a <= b, a == b),
// so that the two ways of writing it read alike; nil when there is none. Its lines are as many:
// only the lines inside such an if move.
func swapBranches(data []byte, f *ast.File) []byte {
	base := int(f.FileStart)
	off := func(p token.Pos) int { return int(p) - base }
	var list []*ast.IfStmt // in the order of the text, the outer before the inner
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.IfStmt); ok && s.Init == nil && negated(s.Cond) {
			if _, ok := s.Else.(*ast.BlockStmt); ok {
				list = append(list, s)
			}
		}
		return true
	})
	if len(list) == 0 {
		return nil
	}
	var render func(b *bytes.Buffer, from, to int)
	render = func(b *bytes.Buffer, from, to int) {
		at := from
		i := sort.Search(len(list), func(i int) bool { return off(list[i].Pos()) >= from })
		for ; i < len(list) && off(list[i].Pos()) < to; i++ {
			s := list[i]
			if off(s.Pos()) < at {
				continue // inside one rendered already
			}
			b.Write(data[at:off(s.Pos())])
			b.WriteString("if ")
			switch c := ast.Unparen(s.Cond).(type) {
			case *ast.UnaryExpr:
				render(b, off(c.X.Pos()), off(c.X.End()))
			case *ast.BinaryExpr:
				render(b, off(c.X.Pos()), off(c.X.End()))
				b.WriteString(" " + flipped[c.Op].String() + " ")
				render(b, off(c.Y.Pos()), off(c.Y.End()))
			}
			b.WriteString(" ")
			render(b, off(s.Else.Pos()), off(s.Else.End()))
			b.WriteString(" else ")
			render(b, off(s.Body.Pos()), off(s.Body.End()))
			at = off(s.End())
		}
		b.Write(data[at:to])
	}
	var b bytes.Buffer
	render(&b, 0, len(data))
	return b.Bytes()
}

// flipped is the comparison that is true where one written negated is false.
var flipped = map[token.Token]token.Token{token.GEQ: token.LSS, token.GTR: token.LEQ, token.NEQ: token.EQL}

// negated reports whether a condition is written as the negation of another (see swapBranches).
func negated(e ast.Expr) bool {
	switch c := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		return c.Op == token.NOT
	case *ast.BinaryExpr:
		return flipped[c.Op] != 0
	}
	return false
}
