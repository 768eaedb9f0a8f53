package vet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// BodyClose finds an *http.Response whose Body is never closed, or not closed on a path that
// leaves the function (a return or continue between the call and the Close that is not the error
// check of the call itself). A body left open keeps its connection out of the pool: under load
// the client runs out of connections or file descriptors. A response handed elsewhere (returned,
// stored, passed on) is its new owner's business and is not judged.
var BodyClose = newAnalyzer("bodyclose", "a response body not closed on every path", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	ins.WithStack([]ast.Node{(*ast.AssignStmt)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push || len(stack) < 2 {
			return true
		}
		as := n.(*ast.AssignStmt)
		if len(as.Rhs) != 1 {
			return true
		}
		if _, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !ok {
			return true
		}
		var resp, errv types.Object
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			obj := info.ObjectOf(id)
			if obj == nil {
				continue
			}
			if isNamed(obj.Type(), "net/http", "Response") {
				if _, ptr := obj.Type().(*types.Pointer); ptr {
					resp = obj
				}
			} else if types.Identical(obj.Type(), types.Universe.Lookup("error").Type()) {
				errv = obj
			}
		}
		fn := enclosingFunc(stack)
		var list []ast.Stmt
		switch p := stack[len(stack)-2].(type) {
		case *ast.BlockStmt:
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		}
		if resp == nil || fn == nil || list == nil {
			return true
		}
		body := funcBody(fn)
		if escapes(info, body, resp) {
			return true
		}
		closes := func(m ast.Node) bool { return closesBody(info, m, resp) }
		if !contains(body, closes) {
			report(pass, as, "body_close")
			return true
		}
		i := 0
		for i < len(list) && list[i] != as {
			i++
		}
		for _, s := range list[i+1:] {
			if _, ok := s.(*ast.DeferStmt); ok && contains(s, closes) {
				return true
			}
			if contains(s, closes) {
				// Closed here; an exit inside this statement before the close is still a leak.
				if exit := exitBefore(info, s, errv, closes); exit != nil {
					report(pass, exit, "body_close")
				}
				return true
			}
			if exit := exitBefore(info, s, errv, nil); exit != nil {
				report(pass, exit, "body_close")
				return true
			}
		}
		return true
	})
})

// closesBody is whether n is a call resp.Body.Close().
func closesBody(info *types.Info, n ast.Node, resp types.Object) bool {
	c, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || s.Sel.Name != "Close" {
		return false
	}
	b, ok := ast.Unparen(s.X).(*ast.SelectorExpr)
	if !ok || b.Sel.Name != "Body" {
		return false
	}
	id, ok := ast.Unparen(b.X).(*ast.Ident)
	return ok && info.ObjectOf(id) == resp
}

// escapes is whether resp leaves the function's hands: used other than as resp.Field, or its
// Body handed to a function of the program (which may close it).
func escapes(info *types.Info, body *ast.BlockStmt, resp types.Object) bool {
	esc := false
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == resp && len(stack) > 0 {
			sel, ok := stack[len(stack)-1].(*ast.SelectorExpr)
			if as, isAssign := stack[len(stack)-1].(*ast.AssignStmt); isAssign && !ok {
				for _, r := range as.Rhs {
					esc = esc || r == id
				}
			} else if !ok || sel.X != id {
				esc = true
			} else if sel.Sel.Name == "Body" && len(stack) > 1 {
				if c, ok := stack[len(stack)-2].(*ast.CallExpr); ok {
					if fn := callee(info, c); fn != nil && fn.Pkg() == resp.Pkg() {
						esc = true
					}
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	return esc
}

// exitBefore is the first return or continue in s (not in a function literal, not a continue of a
// loop inside s, not in an if that tests errv) that comes before the close (stop; nil: anywhere).
func exitBefore(info *types.Info, s ast.Stmt, errv types.Object, stop func(ast.Node) bool) ast.Node {
	var found ast.Node
	stopped := false
	var walk func(n ast.Node, inLoop bool)
	walk = func(n ast.Node, inLoop bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if m == nil || found != nil || stopped {
				return false
			}
			if stop != nil && stop(m) {
				stopped = true
				return false
			}
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, true)
					return false
				}
			case *ast.IfStmt:
				if errv != nil && mentions(info, x.Cond, errv) {
					if x.Init != nil {
						walk(x.Init, inLoop)
					}
					if x.Else != nil {
						walk(x.Else, inLoop)
					}
					return false
				}
			case *ast.ReturnStmt:
				if stop != nil && contains(x, stop) {
					stopped = true
					return false
				}
				found = x
			case *ast.BranchStmt:
				if x.Tok == token.CONTINUE && !inLoop {
					found = x
				}
			}
			return true
		})
	}
	walk(s, false)
	return found
}

// mentions is whether e uses obj.
func mentions(info *types.Info, e ast.Node, obj types.Object) bool {
	return contains(e, func(m ast.Node) bool { id, ok := m.(*ast.Ident); return ok && info.Uses[id] == obj })
}

// TimerStop finds a time.NewTimer or NewTicker whose result is kept in a variable of the function
// and never stopped there: a ticker never stopped fires for ever; a timer left running holds what
// its channel's reader would have freed, and fires after the work it guarded is over.
var TimerStop = newAnalyzer("timerstop", "a timer or ticker never stopped", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	ins.WithStack([]ast.Node{(*ast.AssignStmt)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		as := n.(*ast.AssignStmt)
		if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		rule := ""
		switch {
		case isFunc(info, call, "time", "NewTimer"):
			rule = "timer_stop"
		case isFunc(info, call, "time", "NewTicker"):
			rule = "ticker_stop"
		default:
			return true
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		fn := enclosingFunc(stack)
		if !ok || fn == nil {
			return true
		}
		obj := info.ObjectOf(id)
		if _, local := obj.(*types.Var); !local || obj.Parent() == pass.Pkg.Scope() {
			return true
		}
		stopped, esc := false, false
		var stack2 []ast.Node
		ast.Inspect(funcBody(fn), func(m ast.Node) bool {
			if m == nil {
				stack2 = stack2[:len(stack2)-1]
				return false
			}
			if u, ok := m.(*ast.Ident); ok && info.Uses[u] == obj && len(stack2) > 0 {
				sel, ok := stack2[len(stack2)-1].(*ast.SelectorExpr)
				switch {
				case !ok || sel.X != u:
					if _, isAssign := stack2[len(stack2)-1].(*ast.AssignStmt); !isAssign {
						esc = true
					}
				case sel.Sel.Name == "Stop":
					stopped = true
				}
			}
			stack2 = append(stack2, m)
			return true
		})
		if !stopped && !esc {
			report(pass, call, rule)
		}
		return true
	})
})

// AfterLoop finds time.After in a select inside a loop: every turn makes a new timer (kept alive
// until it fires), and the timeout starts again on every turn, so it may never come. One
// time.NewTimer (or a context deadline) made before the loop is what was meant.
var AfterLoop = newAnalyzer("afterloop", "time.After in a loop", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if push && isFunc(info, n.(*ast.CallExpr), "time", "After") && inSelect(stack) && enclosingLoop(stack) != nil {
			report(pass, n, "after_loop")
		}
		return true
	})
})
