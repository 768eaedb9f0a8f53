package grade

import (
	"go/ast"
	"go/constant"
	"go/token"
	"sort"
)

// What copy detection leaves out of a program because it changes nothing the program does: empty
// statements and blocks ({} and ; after every statement, a one-line sed), assignments of side-effect
// free values to the blank identifier (_ = 0, _ = x, var _ = 1), an if whose condition does nothing
// and whose branches are empty (if false {}), a switch without cases, and blocks left empty once
// those are gone. A statement that calls, receives or allocates stays, blank or not: `_ = f()` runs f.

// span is a byte range of a file, [from, to).
type span struct{ from, to int }

// noise lists what copy detection reads otherwise in a parsed file of the program p (imports: the
// file's, see fileImports), sorted: what does nothing and what never runs left out, the rewrites of
// normal.go undone.
func noise(f *ast.File, file *token.File, p *parsedProgram, imports map[string]string) []edit {
	var out []edit
	at := func(from, to token.Pos, repl ...string) {
		out = append(out, edit{span{file.Offset(from), file.Offset(to)}, repl})
	}
	add := func(n ast.Node) { at(n.Pos(), n.End()) }
	stmts := func(list []ast.Stmt) {
		for i, s := range list {
			switch {
			case idle(s) || p.identity(s):
				add(s)
			case p.deadBranch(s, at):
			case terminates(s, imports) && i+1 < len(list) && !labelled(list[i+1:]):
				// What follows a return never runs.
				at(list[i+1].Pos(), list[len(list)-1].End())
				return
			}
		}
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && blankDecl(gd) || p.dead[d] {
			add(d)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			stmts(n.List)
		case *ast.CaseClause:
			stmts(n.Body)
		case *ast.CommClause:
			stmts(n.Body)
		case *ast.GenDecl:
			p.constDecl(n, add)
		case ast.Spec:
			if p.dead[n] {
				add(n)
			}
		}
		return true
	})
	sortEdits(out)
	out = append(out, unusedLocals(f, file, out)...)
	out = append(out, p.rewrites(f, file, imports)...)
	sortEdits(out)
	return out
}

// sortEdits sorts edits by where they start, the outer of two that start together first.
func sortEdits(out []edit) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].from != out[j].from {
			return out[i].from < out[j].from
		}
		return out[i].to > out[j].to
	})
}

// idle reports whether a statement does nothing.
func idle(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.EmptyStmt:
		return true
	case *ast.BlockStmt:
		for _, in := range s.List {
			if !idle(in) {
				return false
			}
		}
		return true
	case *ast.AssignStmt:
		if s.Tok != token.ASSIGN {
			return false
		}
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				return false
			}
		}
		for _, r := range s.Rhs {
			if !pure(r) {
				return false
			}
		}
		return true
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		return ok && blankDecl(gd)
	case *ast.IfStmt:
		// if false {}, if x > 0 {} else {}: a condition without effects, and nothing either way.
		return s.Init == nil && pure(s.Cond) && idle(s.Body) && (s.Else == nil || idle(s.Else))
	case *ast.SwitchStmt:
		// switch {}, switch x {}: no case, nothing done.
		return s.Init == nil && (s.Tag == nil || pure(s.Tag)) && len(s.Body.List) == 0
	}
	return false
}

// identity reports whether a statement is x += 0, x *= 1 or another assignment of a constant that
// leaves a variable as it is.
func (p *parsedProgram) identity(s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !pure(as.Lhs[0]) {
		return false
	}
	v := p.constValue(as.Rhs[0])
	if v == nil || v.Kind() != constant.Int {
		return false
	}
	switch as.Tok {
	case token.ADD_ASSIGN, token.SUB_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN:
		return constant.Sign(v) == 0
	case token.MUL_ASSIGN, token.QUO_ASSIGN:
		return constant.Compare(v, token.EQL, constant.MakeInt64(1))
	}
	return false
}

// blankDecl reports whether a var or const declaration declares nothing but the blank identifier,
// with values that do nothing.
func blankDecl(gd *ast.GenDecl) bool {
	if gd.Tok != token.VAR && gd.Tok != token.CONST || len(gd.Specs) == 0 {
		return false
	}
	for _, sp := range gd.Specs {
		vs, ok := sp.(*ast.ValueSpec)
		if !ok {
			return false
		}
		for _, n := range vs.Names {
			if n.Name != "_" {
				return false
			}
		}
		for _, v := range vs.Values {
			if !pure(v) {
				return false
			}
		}
	}
	return true
}

// pure reports whether evaluating an expression can do nothing but yield a value: literals, names,
// and arithmetic of them (no call, no receive, no selection or index that may panic, no division).
func pure(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit, *ast.Ident:
		return true
	case *ast.ParenExpr:
		return pure(e.X)
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && pure(e.X)
	case *ast.BinaryExpr:
		// Division may panic on zero.
		return e.Op != token.QUO && e.Op != token.REM && pure(e.X) && pure(e.Y)
	}
	return false
}

// inNoise reports whether the offset off falls in one of the edits (sorted), and which (the
// outermost), moving *i along.
func inNoise(edits []edit, i *int, off int) (int, bool) {
	for *i < len(edits) && edits[*i].to <= off {
		*i++
	}
	if *i < len(edits) && edits[*i].from <= off {
		return *i, true
	}
	return 0, false
}
