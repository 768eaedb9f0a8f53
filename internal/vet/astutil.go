package vet

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// newAnalyzer is an analyzer of this package: it needs the inspector and reports findings whose
// Category is their rule.
func newAnalyzer(name, doc string, run func(*analysis.Pass, *inspector.Inspector)) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      doc,
		Requires: []*analysis.Analyzer{inspect.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			run(pass, pass.ResultOf[inspect.Analyzer].(*inspector.Inspector))
			return nil, nil
		},
	}
}

// report reports a finding of rule at n.
func report(pass *analysis.Pass, n ast.Node, rule string) {
	pass.Report(analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Category: rule, Message: rule})
}

// callee is the function or method a call calls statically, or nil.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr:
		if s, ok := f.X.(*ast.SelectorExpr); ok {
			id = s.Sel
		} else if i, ok := f.X.(*ast.Ident); ok {
			id = i
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// isFunc is whether call calls the package-level function pkg.name for one of names.
func isFunc(info *types.Info, call *ast.CallExpr, pkg string, names ...string) bool {
	fn := callee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkg {
		return false
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// isMethod is whether call calls a method name of the named type pkg.typ (or a pointer to it).
func isMethod(info *types.Info, call *ast.CallExpr, pkg, typ string, names ...string) bool {
	fn := callee(info, call)
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !isNamed(sig.Recv().Type(), pkg, typ) {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// isNamed is whether t is (a pointer to) the named type pkg.name.
func isNamed(t types.Type, pkg, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// isContext is whether t is context.Context.
func isContext(t types.Type) bool { return t != nil && isNamed(t, "context", "Context") }

// typeOf is the type of e, or nil.
func typeOf(info *types.Info, e ast.Expr) types.Type {
	if tv, ok := info.Types[e]; ok {
		return tv.Type
	}
	return nil
}

// isPkgObj is whether e names the package-level object pkg.name (context.Canceled, http.DefaultClient).
func isPkgObj(info *types.Info, e ast.Expr, pkg, name string) bool {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		id = x.Sel
	case *ast.Ident:
		id = x
	default:
		return false
	}
	obj := info.Uses[id]
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == pkg && obj.Name() == name
}

// constInt is e's constant integer value, if it has one.
func constInt(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

// constString is e's constant string value, if it has one.
func constString(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// enclosingLoop is the innermost for or range statement of stack (the inspector's, n last) in the
// same function, or nil.
func enclosingLoop(stack []ast.Node) ast.Stmt {
	for i := len(stack) - 2; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.ForStmt:
			return s
		case *ast.RangeStmt:
			return s
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		}
	}
	return nil
}

// enclosingFunc is the innermost function of stack: a *ast.FuncDecl or *ast.FuncLit, or nil.
func enclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 2; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return stack[i]
		}
	}
	return nil
}

// funcBody is the body of a *ast.FuncDecl or *ast.FuncLit.
func funcBody(fn ast.Node) *ast.BlockStmt {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

// funcType is the type of a *ast.FuncDecl or *ast.FuncLit.
func funcType(fn ast.Node) *ast.FuncType {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		return f.Type
	case *ast.FuncLit:
		return f.Type
	}
	return nil
}

// inspectSameFunc walks n but not the function literals inside it.
func inspectSameFunc(n ast.Node, f func(ast.Node) bool) {
	ast.Inspect(n, func(m ast.Node) bool {
		if m == nil {
			return false
		}
		if _, ok := m.(*ast.FuncLit); ok && m != n {
			return false
		}
		return f(m)
	})
}

// contains is whether f holds for some node in n (function literals included).
func contains(n ast.Node, f func(ast.Node) bool) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if found || m == nil {
			return false
		}
		if f(m) {
			found = true
		}
		return !found
	})
	return found
}

// consultsContext is whether n asks a context whether it is done: a call of Done, Err or Deadline
// on a context.Context, context.Cause, or a use of context.Canceled or DeadlineExceeded, or of a
// variable in deadlines (the times some ctx.Deadline() gave).
func consultsContext(info *types.Info, n ast.Node, deadlines map[types.Object]bool) bool {
	return contains(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.CallExpr:
			if s, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && isContext(typeOf(info, s.X)) {
				switch s.Sel.Name {
				case "Done", "Err", "Deadline":
					return true
				}
			}
			return isFunc(info, x, "context", "Cause")
		case *ast.Ident:
			if deadlines[info.Uses[x]] {
				return true
			}
			return isPkgObj(info, x, "context", "Canceled") || isPkgObj(info, x, "context", "DeadlineExceeded")
		}
		return false
	})
}

// deadlineVars are the variables assigned from a ctx.Deadline() anywhere in the files.
func deadlineVars(pass *analysis.Pass) map[types.Object]bool {
	vars := map[types.Object]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
				return true
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return true
			}
			if s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && s.Sel.Name == "Deadline" && isContext(typeOf(pass.TypesInfo, s.X)) {
				if id, ok := as.Lhs[0].(*ast.Ident); ok {
					if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
						vars[obj] = true
					}
				}
			}
			return true
		})
	}
	return vars
}

// usesPackage is whether the files use anything of one of the packages paths.
func usesPackage(pass *analysis.Pass, paths ...string) bool {
	for _, obj := range pass.TypesInfo.Uses {
		if obj.Pkg() == nil {
			continue
		}
		for _, p := range paths {
			if obj.Pkg().Path() == p {
				return true
			}
		}
	}
	return false
}

// hasString is whether a string constant in the files contains sub, case aside.
func hasString(pass *analysis.Pass, sub string) bool {
	sub = strings.ToLower(sub)
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && !found {
				if s, ok := constString(pass.TypesInfo, lit); ok && strings.Contains(strings.ToLower(s), sub) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// isWait is whether call waits for a time: time.Sleep, time.After, time.NewTimer, time.Tick,
// time.NewTicker or a Timer's Reset.
func isWait(info *types.Info, call *ast.CallExpr) bool {
	return isFunc(info, call, "time", "Sleep", "After", "NewTimer", "Tick", "NewTicker") ||
		isMethod(info, call, "time", "Timer", "Reset")
}

// passesContext is whether call hands a context.Context to what it calls, or sends an HTTP request
// (a client's Do, Get, Post; the flaky service's calls go through a client too).
func passesContext(info *types.Info, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if isContext(typeOf(info, a)) {
			return true
		}
	}
	return isMethod(info, call, "net/http", "Client", "Do", "Get", "Post", "Head", "PostForm")
}
