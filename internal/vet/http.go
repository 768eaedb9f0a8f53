package vet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// RetryAfter finds a program that reads an HTTP response's status, tells 429 or 503 apart and
// waits between attempts, but never reads a Retry-After header: the server says when to come
// back, and the program comes back sooner.
var RetryAfter = newAnalyzer("retryafter", "Retry-After ignored on 429 or 503", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	if hasString(pass, "retry-after") {
		return
	}
	readsStatus, waits := false, false
	var at []ast.Node
	ins.WithStack([]ast.Node{(*ast.SelectorExpr)(nil), (*ast.CallExpr)(nil), (*ast.BasicLit)(nil), (*ast.Ident)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if x.Sel.Name == "StatusCode" && isNamed(typeOf(info, x.X), "net/http", "Response") {
				readsStatus = true
			}
			if comparesRetryStatus(info, x, stack) {
				at = append(at, n)
			}
		case *ast.CallExpr:
			if isWait(info, x) && enclosingLoop(stack) != nil {
				waits = true
			}
		case *ast.BasicLit, *ast.Ident:
			if comparesRetryStatus(info, n.(ast.Expr), stack) {
				at = append(at, n)
			}
		}
		return true
	})
	if readsStatus && waits {
		for _, n := range at {
			report(pass, n, "retry_after")
		}
	}
})

// Idempotency finds a POST or PATCH request that is retried or hedged (made in a loop or in a
// goroutine, or in a function called from one) by a program that sends no idempotency key: a
// retried payment is charged twice.
var Idempotency = newAnalyzer("idempotency", "a non-idempotent request retried without an idempotency key", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	if hasString(pass, "idempotency") || hasString(pass, "idempotent") {
		return
	}
	repeated := repeatedFuncs(pass, ins)
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		call := n.(*ast.CallExpr)
		unsafe := false
		switch {
		case isFunc(info, call, "net/http", "NewRequest", "NewRequestWithContext"):
			i := 0
			if isFunc(info, call, "net/http", "NewRequestWithContext") {
				i = 1
			}
			if len(call.Args) > i {
				m, ok := constString(info, call.Args[i])
				unsafe = ok && (strings.EqualFold(m, "POST") || strings.EqualFold(m, "PATCH"))
			}
		case isFunc(info, call, "net/http", "Post", "PostForm"), isMethod(info, call, "net/http", "Client", "Post", "PostForm"):
			unsafe = true
		}
		if !unsafe {
			return true
		}
		if enclosingLoop(stack) != nil || inGo(stack) || repeated[funcObj(info, enclosingFunc(stack))] {
			report(pass, call, "idempotency")
		}
		return true
	})
})

// inGo is whether the node last in stack is in a function literal a go statement starts.
func inGo(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 1; i-- {
		if lit, ok := stack[i].(*ast.FuncLit); ok {
			if c, ok := stack[i-1].(*ast.CallExpr); ok && c.Fun == lit && i >= 2 {
				if _, ok := stack[i-2].(*ast.GoStmt); ok {
					return true
				}
			}
		}
	}
	return false
}

// funcObj is the object of a function declaration, nil for a literal.
func funcObj(info *types.Info, fn ast.Node) types.Object {
	if d, ok := fn.(*ast.FuncDecl); ok {
		return info.Defs[d.Name]
	}
	return nil
}

// repeatedFuncs are the package's functions that are called again and again: from a loop, in a
// go statement, or from a function that is (three calls deep at most).
func repeatedFuncs(pass *analysis.Pass, ins *inspector.Inspector) map[types.Object]bool {
	info := pass.TypesInfo
	type edge struct{ caller, callee types.Object }
	var direct []types.Object
	var edges []edge
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		fn := callee(info, n.(*ast.CallExpr))
		if fn == nil || fn.Pkg() != pass.Pkg {
			return true
		}
		if enclosingLoop(stack) != nil || inGo(stack) || (len(stack) >= 2 && isGoStmt(stack[len(stack)-2])) {
			direct = append(direct, fn)
		} else if caller := funcObj(info, enclosingFunc(stack)); caller != nil {
			edges = append(edges, edge{caller, fn})
		}
		return true
	})
	rep := map[types.Object]bool{}
	for _, f := range direct {
		rep[f] = true
	}
	for range 3 {
		for _, e := range edges {
			if rep[e.caller] {
				rep[e.callee] = true
			}
		}
	}
	return rep
}

func isGoStmt(n ast.Node) bool { _, ok := n.(*ast.GoStmt); return ok }

// DefaultClient finds calls to another service with no timeout at all: http.Get, Post, Head and
// PostForm, http.DefaultClient, and an http.Client made without a Timeout by a program that
// gives its requests no context either.
var DefaultClient = newAnalyzer("defaultclient", "an HTTP client without a timeout", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	withCtx := false
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		c := n.(*ast.CallExpr)
		if isFunc(info, c, "net/http", "NewRequestWithContext") || isMethod(info, c, "net/http", "Request", "WithContext", "Clone") {
			withCtx = true
		}
	})
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil), (*ast.SelectorExpr)(nil), (*ast.CompositeLit)(nil)}, func(n ast.Node) {
		switch x := n.(type) {
		case *ast.CallExpr:
			if isFunc(info, x, "net/http", "Get", "Post", "Head", "PostForm") {
				report(pass, x, "default_client")
			}
		case *ast.SelectorExpr:
			if isPkgObj(info, x, "net/http", "DefaultClient") {
				report(pass, x, "default_client")
			}
		case *ast.CompositeLit:
			if withCtx || !isNamed(typeOf(info, x), "net/http", "Client") {
				return
			}
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Timeout" {
						return
					}
				}
			}
			report(pass, x, "client_timeout")
		}
	})
})

// BackgroundCtx finds context.Background() or context.TODO() in a function that has a context
// of its caller in scope (a context.Context parameter, or an *http.Request whose Context() it is):
// the work outlives the caller's cancel and deadline.
var BackgroundCtx = newAnalyzer("backgroundctx", "context.Background where a caller's context is in scope", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push || !isFunc(info, n.(*ast.CallExpr), "context", "Background", "TODO") {
			return true
		}
		for i := len(stack) - 2; i >= 0; i-- {
			ft := funcType(stack[i])
			if ft == nil || ft.Params == nil {
				continue
			}
			for _, p := range ft.Params.List {
				t := typeOf(info, p.Type)
				if isContext(t) || isNamed(t, "net/http", "Request") {
					report(pass, n, "background_ctx")
					return true
				}
			}
		}
		return true
	})
})

// comparesRetryStatus reports whether e, the innermost node of stack, is the constant 429 or 503
// compared with == or != or given as a case of a switch: where a program reads a status that asks
// it to wait.
func comparesRetryStatus(info *types.Info, e ast.Expr, stack []ast.Node) bool {
	if v, ok := constInt(info, e); !ok || v != 429 && v != 503 || len(stack) < 2 {
		return false
	}
	switch p := stack[len(stack)-2].(type) {
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ
	case *ast.CaseClause:
		return true
	}
	return false
}
