package vet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Backoff finds exponential backoff without jitter (a pause that doubles, or grows as a power of
// two, in a program that draws no random number at all: every client retries in step) and a pause
// that can overflow (a time.Duration shifted left by a count that nothing bounds, or doubled in a
// loop with no ceiling: past 2^63 ns it turns negative, and the loop spins without waiting).
var Backoff = newAnalyzer("backoff", "exponential backoff without jitter, or a pause that can overflow", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	random := usesPackage(pass, "math/rand", "math/rand/v2", "crypto/rand")
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)}, func(fn ast.Node) {
		body := funcBody(fn)
		if body == nil {
			return
		}
		doubled := doubledVars(info, body)
		bounded := boundedVars(info, body)
		// Overflow: a Duration shifted by a count no comparison bounds.
		inspectSameFunc(body, func(m ast.Node) bool {
			b, ok := m.(*ast.BinaryExpr)
			if !ok || b.Op != token.SHL || !isNamed(typeOf(info, b), "time", "Duration") {
				return true
			}
			if _, c := constInt(info, b.Y); c {
				return true
			}
			if !allBounded(info, b.Y, bounded) {
				report(pass, b, "backoff_overflow")
			}
			return true
		})
		for obj, stmt := range doubled {
			if !bounded[obj] && isNamed(obj.Type(), "time", "Duration") && unboundedLoop(info, stmt.loop, bounded) {
				report(pass, stmt.stmt, "backoff_overflow")
			}
		}
		if random {
			return
		}
		// No jitter: a wait in a loop whose length doubles or is a power of two.
		var walk func(n ast.Node, inLoop bool)
		walk = func(n ast.Node, inLoop bool) {
			inspectSameFunc(n, func(m ast.Node) bool {
				switch x := m.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					if m != n {
						walk(m, true)
						return false
					}
				case *ast.CallExpr:
					if inLoop && isWait(info, x) && len(x.Args) > 0 && exponential(info, x.Args[len(x.Args)-1], doubled) {
						report(pass, x, "backoff_jitter")
					}
				}
				return true
			})
		}
		walk(body, false)
	})
})

// doubling is where a variable doubles: the statement and the loop it is in.
type doubling struct {
	stmt ast.Stmt
	loop ast.Stmt
}

// doubledVars are the variables that double in a loop of body: d *= 2, d = d * 2, d = 2 * d,
// d <<= 1, d = d << 1, d += d, d = d + d, and any of those inside min (d = min(2*d, ceiling)).
func doubledVars(info *types.Info, body *ast.BlockStmt) map[types.Object]doubling {
	vars := map[types.Object]doubling{}
	var walk func(n ast.Node, loop ast.Stmt)
	walk = func(n ast.Node, loop ast.Stmt) {
		inspectSameFunc(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, m.(ast.Stmt))
					return false
				}
			case *ast.AssignStmt:
				if loop == nil || len(x.Lhs) != 1 || len(x.Rhs) != 1 {
					return true
				}
				id, ok := x.Lhs[0].(*ast.Ident)
				if !ok {
					return true
				}
				obj := info.ObjectOf(id)
				if obj == nil {
					return true
				}
				two := func(e ast.Expr) bool { v, ok := constInt(info, e); return ok && v == 2 }
				one := func(e ast.Expr) bool { v, ok := constInt(info, e); return ok && v == 1 }
				same := func(e ast.Expr) bool { i, ok := ast.Unparen(e).(*ast.Ident); return ok && info.ObjectOf(i) == obj }
				rhs := ast.Unparen(x.Rhs[0])
				d := false
				switch x.Tok {
				case token.MUL_ASSIGN:
					d = two(rhs)
				case token.SHL_ASSIGN:
					d = one(rhs)
				case token.ADD_ASSIGN:
					d = same(rhs)
				case token.ASSIGN:
					twice := func(e ast.Expr) bool {
						b, ok := ast.Unparen(e).(*ast.BinaryExpr)
						return ok && ((b.Op == token.MUL && (same(b.X) && two(b.Y) || two(b.X) && same(b.Y))) ||
							(b.Op == token.SHL && same(b.X) && one(b.Y)) || (b.Op == token.ADD && same(b.X) && same(b.Y)))
					}
					d = twice(rhs)
					// d = min(2*d, ceiling): doubling up to a ceiling is still doubling.
					if c, ok := rhs.(*ast.CallExpr); ok && !d {
						if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "min" {
							if _, ok := info.Uses[id].(*types.Builtin); ok {
								for _, a := range c.Args {
									d = d || twice(a)
								}
							}
						}
					}
				}
				if d {
					vars[obj] = doubling{stmt: x, loop: loop}
				}
			}
			return true
		})
	}
	walk(body, nil)
	return vars
}

// boundedVars are the variables body compares (<, <=, >, >=) or passes to min: a ceiling, or a
// count with a limit.
func boundedVars(info *types.Info, body *ast.BlockStmt) map[types.Object]bool {
	vars := map[types.Object]bool{}
	mark := func(e ast.Expr) {
		ast.Inspect(e, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok {
				if obj, ok := info.ObjectOf(id).(*types.Var); ok {
					vars[obj] = true
				}
			}
			return true
		})
	}
	ast.Inspect(body, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				mark(x.X)
				mark(x.Y)
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && (id.Name == "min" || id.Name == "max") {
				if _, ok := info.Uses[id].(*types.Builtin); ok {
					for _, a := range x.Args {
						mark(a)
					}
				}
			}
		case *ast.RangeStmt:
			if x.Key != nil { // a range over something finite bounds its key
				mark(x.Key)
			}
			if x.Value != nil {
				mark(x.Value)
			}
		}
		return true
	})
	return vars
}

// allBounded is whether every variable in e is bounded (e holds at least one variable).
func allBounded(info *types.Info, e ast.Expr, bounded map[types.Object]bool) bool {
	ok, any := true, false
	ast.Inspect(e, func(m ast.Node) bool {
		if id, isID := m.(*ast.Ident); isID {
			if obj, isVar := info.ObjectOf(id).(*types.Var); isVar {
				any = true
				ok = ok && bounded[obj]
			}
		}
		return true
	})
	return ok && any
}

// unboundedLoop is whether loop runs with no bound a comparison sets: a for with no condition,
// or whose condition compares nothing bounded.
func unboundedLoop(info *types.Info, loop ast.Stmt, bounded map[types.Object]bool) bool {
	f, ok := loop.(*ast.ForStmt)
	if !ok {
		return false
	}
	if f.Cond == nil {
		return true
	}
	// for call() != nil, for !done: no ordering comparison, so no count with a limit.
	compares := false
	ast.Inspect(f.Cond, func(m ast.Node) bool {
		if b, ok := m.(*ast.BinaryExpr); ok {
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				compares = true
			}
		}
		return !compares
	})
	return !compares
}

// exponential is whether the pause e grows exponentially: it holds a doubled variable, a shift
// by a count that is not constant, or math.Pow(2, …).
func exponential(info *types.Info, e ast.Expr, doubled map[types.Object]doubling) bool {
	return contains(e, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.Ident:
			_, ok := doubled[info.ObjectOf(x)]
			return ok
		case *ast.BinaryExpr:
			if x.Op == token.SHL {
				_, c := constInt(info, x.Y)
				return !c
			}
		case *ast.CallExpr:
			if isFunc(info, x, "math", "Pow") && len(x.Args) == 2 {
				v, ok := constInt(info, x.Args[0])
				return ok && v == 2
			}
		}
		return false
	})
}
