package grade

import (
	"go/ast"
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

// noise lists the spans of a parsed file that copy detection skips, sorted.
func noise(f *ast.File, file *token.File) []span {
	var out []span
	add := func(n ast.Node) {
		out = append(out, span{file.Offset(n.Pos()), file.Offset(n.End())})
	}
	stmts := func(list []ast.Stmt) {
		for _, s := range list {
			if idle(s) {
				add(s)
			}
		}
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && blankDecl(gd) {
			add(gd)
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
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].from < out[j].from })
	return out
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

// inNoise reports whether the offset off falls in one of the spans (sorted), moving *i along.
func inNoise(spans []span, i *int, off int) bool {
	for *i < len(spans) && spans[*i].to <= off {
		*i++
	}
	return *i < len(spans) && spans[*i].from <= off
}
