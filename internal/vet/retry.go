package vet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// SleepRetry finds a retry loop that waits without a way out: an attempt is given a context (or
// is an HTTP request), the pause between attempts is time.Sleep or a bare <-time.After, and
// nothing in the loop asks the context whether it is done (no select, no ctx.Done, Err or
// Deadline, no check for context.Canceled or DeadlineExceeded).
var SleepRetry = newAnalyzer("sleepretry", "a retry loop that sleeps without looking at its context", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	deadlines := deadlineVars(pass)
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		call := n.(*ast.CallExpr)
		sleep := isFunc(info, call, "time", "Sleep")
		if !sleep && isFunc(info, call, "time", "After") && len(stack) >= 2 {
			if u, ok := stack[len(stack)-2].(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				sleep = !inSelect(stack)
			}
		}
		if !sleep {
			return true
		}
		loop := enclosingLoop(stack)
		if loop == nil {
			return true
		}
		attempts := false
		inspectSameFunc(loop, func(m ast.Node) bool {
			if c, ok := m.(*ast.CallExpr); ok && passesContext(info, c) {
				attempts = true
			}
			return !attempts
		})
		if attempts && !consultsContext(info, loop, deadlines) {
			report(pass, call, "sleep_retry")
		}
		return true
	})
})

// inSelect is whether the node last in stack is a select's communication.
func inSelect(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.CommClause:
			return true
		case *ast.BlockStmt, *ast.FuncLit:
			return false
		}
	}
	return false
}

// RetryCanceled finds a retry loop that tries again after context.Canceled, or after
// context.DeadlineExceeded when no attempt has a deadline of its own (the whole budget is gone):
// an if or a case that names the error and continues the loop.
var RetryCanceled = newAnalyzer("retrycanceled", "a retry loop that retries the caller's cancellation", func(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	ins.WithStack([]ast.Node{(*ast.IfStmt)(nil), (*ast.CaseClause)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		var conds []ast.Expr
		var body []ast.Stmt
		switch s := n.(type) {
		case *ast.IfStmt:
			conds, body = []ast.Expr{s.Cond}, s.Body.List
		case *ast.CaseClause:
			if len(stack) >= 3 {
				if sw, ok := stack[len(stack)-3].(*ast.SwitchStmt); ok && sw.Tag == nil {
					conds, body = s.List, s.Body
				}
			}
		}
		if len(body) == 0 {
			return true
		}
		if br, ok := body[len(body)-1].(*ast.BranchStmt); !ok || br.Tok != token.CONTINUE || br.Label != nil {
			return true
		}
		loop := enclosingLoop(stack)
		if loop == nil {
			return true
		}
		for _, c := range conds {
			for _, t := range orTerms(c) {
				target := ctxErrorNamed(info, t)
				switch {
				case target == "Canceled":
					report(pass, t, "retry_canceled")
				case target == "DeadlineExceeded" && !perAttemptDeadline(info, loop):
					report(pass, t, "retry_canceled")
				}
			}
		}
		return true
	})
})

// orTerms are the terms of a || chain.
func orTerms(e ast.Expr) []ast.Expr {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return append(orTerms(b.X), orTerms(b.Y)...)
	}
	return []ast.Expr{e}
}

// ctxErrorNamed is "Canceled" or "DeadlineExceeded" when e is errors.Is(x, context.<that>) or
// x == context.<that>, "" otherwise.
func ctxErrorNamed(info *types.Info, e ast.Expr) string {
	var target ast.Expr
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if isFunc(info, x, "errors", "Is") && len(x.Args) == 2 {
			target = x.Args[1]
		}
	case *ast.BinaryExpr:
		if x.Op == token.EQL {
			target = x.Y
			if isPkgObj(info, x.X, "context", "Canceled") || isPkgObj(info, x.X, "context", "DeadlineExceeded") {
				target = x.X
			}
		}
	}
	for _, name := range []string{"Canceled", "DeadlineExceeded"} {
		if target != nil && isPkgObj(info, target, "context", name) {
			return name
		}
	}
	return ""
}

// perAttemptDeadline is whether the loop gives an attempt a deadline of its own
// (context.WithTimeout or WithDeadline inside it, or in a function it calls directly), so that
// DeadlineExceeded may be the attempt's and not the caller's.
func perAttemptDeadline(info *types.Info, loop ast.Node) bool {
	return contains(loop, func(m ast.Node) bool {
		c, ok := m.(*ast.CallExpr)
		if !ok {
			return false
		}
		if isFunc(info, c, "context", "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause") {
			return true
		}
		// A call that passes a duration along with a context may set the attempt's deadline inside.
		hasCtx, hasDur := false, false
		for _, a := range c.Args {
			t := typeOf(info, a)
			hasCtx = hasCtx || isContext(t)
			hasDur = hasDur || (t != nil && isNamed(t, "time", "Duration"))
		}
		return hasCtx && hasDur
	})
}
