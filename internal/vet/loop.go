package vet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// BusyWait finds a loop that polls a select with an empty default: for { select { …; default: } }.
// It burns a whole CPU while it waits, and under virtual time (synctest) it never lets the clock
// move, so the program hangs.
var BusyWait = newAnalyzer("busywait", "a busy wait on a select with an empty default", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	ins.Preorder([]ast.Node{(*ast.ForStmt)(nil)}, func(n ast.Node) {
		loop := n.(*ast.ForStmt)
		for _, s := range loop.Body.List {
			sel, ok := s.(*ast.SelectStmt)
			if !ok {
				continue
			}
			for _, c := range sel.Body.List {
				cc := c.(*ast.CommClause)
				if cc.Comm == nil && !blocks(info, cc.Body) && !leaves(cc.Body) && !blocksOutside(info, loop, sel) {
					report(pass, cc, "busy_wait")
				}
			}
		}
	})
})

// blocks is whether the statements may wait: a call other than a conversion or a builtin, or a
// channel operation.
func blocks(info *types.Info, list []ast.Stmt) bool {
	for _, s := range list {
		if contains(s, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.SendStmt:
				return true
			case *ast.UnaryExpr:
				return x.Op == token.ARROW
			case *ast.CallExpr:
				if tv, ok := info.Types[x.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
					return false
				}
				return true
			}
			return false
		}) {
			return true
		}
	}
	return false
}

// leaves is whether the statements leave the loop (return, break, goto) at their top level.
func leaves(list []ast.Stmt) bool {
	for _, s := range list {
		switch x := s.(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.BranchStmt:
			if x.Tok == token.BREAK || x.Tok == token.GOTO {
				return true
			}
		}
	}
	return false
}

// blocksOutside is whether the loop's body, outside the select, may wait.
func blocksOutside(info *types.Info, loop *ast.ForStmt, sel *ast.SelectStmt) bool {
	for _, s := range loop.Body.List {
		if s != sel && blocks(info, []ast.Stmt{s}) {
			return true
		}
	}
	return false
}

// BreakerCount finds a circuit breaker that counts as a failure what is no fault of the service:
// an error in a function whose caller's context may have been cancelled (context.Canceled is the
// caller leaving, not the service failing) that never tells the two apart, or a 4xx answer (a bad
// request stays bad; the service is healthy). A breaker that counts them opens on a healthy
// service. A failure is a call of a method whose name holds "fail" on a value whose type's name
// holds "breaker".
var BreakerCount = newAnalyzer("breakercount", "a breaker that counts cancellations or 4xx as failures", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	ins.WithStack([]ast.Node{(*ast.IfStmt)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		ifs := n.(*ast.IfStmt)
		if !countsFailure(info, ifs.Body.List) {
			return true
		}
		cond := ast.Unparen(ifs.Cond)
		if b, ok := cond.(*ast.BinaryExpr); ok {
			switch {
			case b.Op == token.NEQ && isNil(info, b.Y) && types.Identical(typeOf(info, b.X), types.Universe.Lookup("error").Type()):
				fn := enclosingFunc(stack)
				if fn != nil && hasContextParam(info, fn) && !consultsContext(info, funcBody(fn), nil) {
					report(pass, ifs.Cond, "breaker_cancel")
				}
			case fourxx(info, b):
				report(pass, ifs.Cond, "breaker_4xx")
			}
		}
		return true
	})
})

// countsFailure is whether the statements call a breaker's failure method.
func countsFailure(info *types.Info, list []ast.Stmt) bool {
	for _, s := range list {
		if contains(s, func(m ast.Node) bool {
			c, ok := m.(*ast.CallExpr)
			if !ok {
				return false
			}
			sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
			if !ok || !strings.Contains(strings.ToLower(sel.Sel.Name), "fail") {
				return false
			}
			t := typeOf(info, sel.X)
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			n, ok := types.Unalias(t).(*types.Named)
			return ok && strings.Contains(strings.ToLower(n.Obj().Name()), "breaker")
		}) {
			return true
		}
	}
	return false
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// hasContextParam is whether fn takes a context.Context.
func hasContextParam(info *types.Info, fn ast.Node) bool {
	ft := funcType(fn)
	if ft == nil || ft.Params == nil {
		return false
	}
	for _, p := range ft.Params.List {
		if isContext(typeOf(info, p.Type)) {
			return true
		}
	}
	return false
}

// fourxx is whether b counts 4xx as bad: code >= 400, code > 399, code != 200 on an
// http.Response's StatusCode or a variable named like a status.
func fourxx(info *types.Info, b *ast.BinaryExpr) bool {
	v, ok := constInt(info, b.Y)
	if !ok || !statusLike(info, b.X) {
		return false
	}
	switch b.Op {
	case token.GEQ:
		return v == 400
	case token.GTR:
		return v == 399
	case token.NEQ:
		return v == 200
	}
	return false
}

// statusLike is whether e is a response's StatusCode or a variable whose name says it is a status.
func statusLike(info *types.Info, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name == "StatusCode" || strings.Contains(strings.ToLower(x.Sel.Name), "status")
	case *ast.Ident:
		n := strings.ToLower(x.Name)
		return n == "code" || strings.Contains(n, "status")
	}
	return false
}

// GoroutineLeak finds goroutines started again and again (in a loop: one per attempt or per
// hedge) that send their answer on an unbuffered channel the starting function reads once: every
// goroutine but the first blocks on its send for ever, and each attempt leaks one more.
var GoroutineLeak = newAnalyzer("goroutineleak", "a goroutine per attempt with nothing that ends it", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	ins.WithStack([]ast.Node{(*ast.GoStmt)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push || enclosingLoop(stack) == nil {
			return true
		}
		g := n.(*ast.GoStmt)
		lit, ok := g.Call.Fun.(*ast.FuncLit)
		fn := enclosingFunc(stack)
		if !ok || fn == nil {
			return true
		}
		unbuf := unbufferedChans(info, funcBody(fn))
		var sent types.Object
		inspectSameFunc(lit.Body, func(m ast.Node) bool {
			if s, ok := m.(*ast.SendStmt); ok {
				if id, ok := ast.Unparen(s.Chan).(*ast.Ident); ok && unbuf[info.Uses[id]] && !inSelectComm(lit.Body, s) {
					sent = info.Uses[id]
				}
			}
			return sent == nil
		})
		if sent != nil && readOnce(info, funcBody(fn), lit, sent) {
			report(pass, g, "goroutine_leak")
		}
		return true
	})
})

// unbufferedChans are the channels body makes with make(chan T) or make(chan T, 0).
func unbufferedChans(info *types.Info, body *ast.BlockStmt) map[types.Object]bool {
	chans := map[types.Object]bool{}
	inspectSameFunc(body, func(m ast.Node) bool {
		as, ok := m.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			c, ok := ast.Unparen(r).(*ast.CallExpr)
			if !ok || len(c.Args) == 0 {
				continue
			}
			if id, ok := c.Fun.(*ast.Ident); !ok || id.Name != "make" {
				continue
			}
			if _, ok := typeOf(info, c.Args[0]).Underlying().(*types.Chan); !ok {
				continue
			}
			if len(c.Args) == 2 {
				if v, ok := constInt(info, c.Args[1]); !ok || v != 0 {
					continue
				}
			}
			if id, ok := as.Lhs[i].(*ast.Ident); ok {
				chans[info.ObjectOf(id)] = true
			}
		}
		return true
	})
	return chans
}

// inSelectComm is whether s is the communication of a select case within body.
func inSelectComm(body ast.Node, s *ast.SendStmt) bool {
	return contains(body, func(m ast.Node) bool { cc, ok := m.(*ast.CommClause); return ok && cc.Comm == s })
}

// readOnce is whether body, outside lit, receives from ch only outside any loop (and never ranges
// over it or closes it), so that at most a few of many senders are ever read.
func readOnce(info *types.Info, body *ast.BlockStmt, lit *ast.FuncLit, ch types.Object) bool {
	inLoopRead, read := false, false
	var walk func(n ast.Node, inLoop bool)
	walk = func(n ast.Node, inLoop bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if m == nil || m == lit {
				return false
			}
			switch x := m.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					if r, ok := m.(*ast.RangeStmt); ok && mentions(info, r.X, ch) {
						inLoopRead = true
					}
					walk(m, true)
					return false
				}
			case *ast.UnaryExpr:
				if x.Op == token.ARROW && mentions(info, x.X, ch) {
					read = true
					inLoopRead = inLoopRead || inLoop
				}
			case *ast.CallExpr:
				if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "close" && len(x.Args) == 1 && mentions(info, x.Args[0], ch) {
					inLoopRead = true
				}
			}
			return true
		})
	}
	walk(body, false)
	return read && !inLoopRead
}
