// Package mutate measures a case set by mutation testing: it makes small wrong versions (mutants) of
// a reference solution from its syntax tree, builds them all into one executable, and runs the cases
// against each of them under the checker. A mutant that passes every case is a survivor: either the
// cases miss a mistake a learner could make, or the mutant is equivalent to the solution (it prints
// the same for every valid input) and is listed as such with a reason.
//
//	ms, err := mutate.Generate("main.go", src)        // every mutant that type-checks
//	run, err := mutate.Build(ctx, ms, checker.Limits{}) // one go build for all of them
//	defer run.Close()
//	outcomes := run.Run(ctx, cases, opt)              // who killed which mutant
//
// The operators (see Operators) are the usual ones: a relational operator replaced (< and <=, > and
// >=, == and !=), an integer constant plus or minus one, an arithmetic operator replaced (+ and -, *
// and /, % to *, also in assignments, ++ and --), a condition negated (if and for), a statement
// removed (an expression, an assignment, ++ or --, return, break, continue), the branches of an
// if/else swapped, and two neighbouring arguments of a call swapped when their types are the same.
// A mutant is kept only when the changed file still type-checks, so that every mutant builds. Not
// mutated, because no case can or should tell: code that only writes to stderr (a call whose first
// argument is os.Stderr, a FlagSet's SetOutput and Usage, the making of an error message with
// fmt.Errorf or errors.New), a string literal swapped with another argument, the arguments of the
// builtins min and max, and imports. Two mutants that would be named alike on one line are told
// apart by their column.
//
// Every mutant becomes a package of one executable: its file with `package main` renamed and
// `func main` renamed Main. A dispatcher main picks the mutant by its first argument ("@12"), takes
// the argument away and calls that mutant's Main, so that the mutant sees the arguments of the case.
// The go command compiles the packages in parallel and caches them, and links once.
package mutate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Operators name the mutation operators, as a Mutant's Op says them.
var Operators = []string{"relational", "constant", "arithmetic", "negate", "remove", "swap-branches", "swap-args"}

// Mutant is one small change of a program.
type Mutant struct {
	Op   string // one of Operators
	Line int    // the line of the change in the original file
	Col  int    // the column (in bytes, from 1) where the change starts
	What string // what changed, e.g. "`i < n` → `i <= n`"
	Src  []byte // the whole changed file, as a package named "mutant" with func Main
}

// String says where the mutant is and what changed: "main.go:12: `i < n` → `i <= n`".
func (m Mutant) String() string { return fmt.Sprintf("%d: %s", m.Line, m.What) }

// Key identifies the mutant for the list of equivalent mutants: "LINE: WHAT".
func (m Mutant) Key() string { return m.String() }

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// apply returns src with the edits (in increasing, non-overlapping order) made.
func apply(src []byte, edits ...edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		b.Write(src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(src[at:])
	return b.Bytes()
}

// Base returns the program src as a mutant package: `package main` becomes `package mutant` and
// `func main` becomes `func Main`. Lines do not move.
func Base(filename string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	if f.Name.Name != "main" {
		return nil, fmt.Errorf("%s: package %s, not main", filename, f.Name.Name)
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	edits := []edit{{off(f.Name.Pos()), off(f.Name.End()), "mutant"}}
	found := false
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			edits = append(edits, edit{off(fd.Name.Pos()), off(fd.Name.End()), "Main"})
			found = true
		}
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "Main" {
			return nil, fmt.Errorf("%s: a function named Main is in the way of the mutants' entry point", filename)
		}
	}
	if !found {
		return nil, fmt.Errorf("%s: no func main", filename)
	}
	return apply(src, edits...), nil
}

// typeChecker type-checks mutant files against the standard library, one at a time.
type typeChecker struct {
	mu   sync.Mutex
	fset *token.FileSet
	imp  types.Importer
}

var checkerOnce = sync.OnceValue(func() *typeChecker {
	fset := token.NewFileSet()
	return &typeChecker{fset: fset, imp: importer.ForCompiler(fset, "source", nil)}
})

// check parses and type-checks src; with info it also records types and uses.
func (tc *typeChecker) check(filename string, src []byte, info *types.Info) (*ast.File, error) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	f, err := parser.ParseFile(tc.fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var first error
	conf := types.Config{Importer: tc.imp, Error: func(err error) {
		if first == nil {
			first = err
		}
	}}
	conf.Check("mutant", tc.fset, []*ast.File{f}, info)
	return f, first
}

// Generate returns every mutant of the program src (a package main in one file) that type-checks,
// in the order of their place in the file. Two changes that give the same file are one mutant.
func Generate(filename string, src []byte) ([]Mutant, error) {
	base, err := Base(filename, src)
	if err != nil {
		return nil, err
	}
	tc := checkerOnce()
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	f, err := tc.check(filename, base, info)
	if err != nil {
		return nil, fmt.Errorf("the program does not type-check: %w", err)
	}
	g := &gen{fset: tc.fset, src: base, info: info, seen: map[string]bool{string(base): true}}
	g.walk(f)
	sort.SliceStable(g.out, func(i, j int) bool { return g.out[i].Line < g.out[j].Line })
	// Two mutants that would be named alike on one line are told apart by their column.
	same := map[string]int{}
	for _, m := range g.out {
		same[m.Key()]++
	}
	for i, m := range g.out {
		if same[m.Key()] > 1 {
			g.out[i].What += fmt.Sprintf(" (column %d)", m.Col)
		}
	}
	var kept []Mutant
	for _, m := range g.out {
		if _, err := tc.check(filename, m.Src, nil); err == nil {
			kept = append(kept, m)
		}
	}
	return kept, nil
}

// gen collects the mutants of one file.
type gen struct {
	fset *token.FileSet
	src  []byte
	info *types.Info
	seen map[string]bool
	out  []Mutant
}

func (g *gen) off(p token.Pos) int  { return g.fset.Position(p).Offset }
func (g *gen) line(p token.Pos) int { return g.fset.Position(p).Line }

// text returns the source of a node.
func (g *gen) text(n ast.Node) string { return string(g.src[g.off(n.Pos()):g.off(n.End())]) }

// short gives a node's source on one line, cut to a readable length, between backquotes.
func (g *gen) short(n ast.Node) string { return quote(g.text(n)) }

func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "…"
	}
	return "`" + s + "`"
}

// add records a mutant made by the edits, unless an earlier one gave the same file.
func (g *gen) add(op string, at token.Pos, what string, edits ...edit) {
	src := apply(g.src, edits...)
	if g.seen[string(src)] {
		return
	}
	g.seen[string(src)] = true
	pos := g.fset.Position(at)
	g.out = append(g.out, Mutant{Op: op, Line: pos.Line, Col: pos.Column, What: what, Src: src})
}

// replaceNode adds a mutant that replaces node n by text, described as "`n` → `text`".
func (g *gen) replaceNode(op string, n ast.Node, text string) {
	before := g.text(n)
	g.add(op, n.Pos(), quote(before)+" → "+quote(text), edit{g.off(n.Pos()), g.off(n.End()), text})
}

var relational = map[token.Token][]token.Token{
	token.LSS: {token.LEQ}, token.LEQ: {token.LSS},
	token.GTR: {token.GEQ}, token.GEQ: {token.GTR},
	token.EQL: {token.NEQ}, token.NEQ: {token.EQL},
}

var arithmetic = map[token.Token][]token.Token{
	token.ADD: {token.SUB}, token.SUB: {token.ADD},
	token.MUL: {token.QUO}, token.QUO: {token.MUL}, token.REM: {token.MUL},
	token.ADD_ASSIGN: {token.SUB_ASSIGN}, token.SUB_ASSIGN: {token.ADD_ASSIGN},
	token.MUL_ASSIGN: {token.QUO_ASSIGN}, token.QUO_ASSIGN: {token.MUL_ASSIGN},
	token.INC: {token.DEC}, token.DEC: {token.INC},
}

// binary replaces the operator of e, keeping its operands' text.
func (g *gen) binary(op string, e *ast.BinaryExpr, to token.Token) {
	text := g.text(e.X) + " " + to.String() + " " + g.text(e.Y)
	g.replaceNode(op, e, text)
}

// isNumeric reports whether e is of a numeric type (so that + is not a string concatenation).
func (g *gen) isNumeric(e ast.Expr) bool {
	tv, ok := g.info.Types[e]
	if !ok || tv.Type == nil {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// stderrOnly reports whether a statement or call only says something on standard error: a call
// whose first argument is os.Stderr, a FlagSet's SetOutput, an assignment to a FlagSet's Usage, or a
// call of Usage, the making of an error message (fmt.Errorf, errors.New). The program contract only asks for "a usage line on stderr", and cases check no
// more than that stderr is not empty, so what such code says is not measured.
func (g *gen) stderrOnly(n ast.Node) bool {
	if es, ok := n.(*ast.ExprStmt); ok {
		n = es.X
	}
	switch n := n.(type) {
	case *ast.CallExpr:
		if len(n.Args) > 0 && g.text(n.Args[0]) == "os.Stderr" {
			return true
		}
		if f := g.text(n.Fun); f == "fmt.Errorf" || f == "errors.New" {
			return true // the words of an error message, which main writes to stderr
		}
		if sel, ok := n.Fun.(*ast.SelectorExpr); ok && g.isFlagSet(sel.X) && (sel.Sel.Name == "SetOutput" || sel.Sel.Name == "Usage") {
			return true
		}
	case *ast.AssignStmt:
		if len(n.Lhs) == 1 {
			if sel, ok := n.Lhs[0].(*ast.SelectorExpr); ok && sel.Sel.Name == "Usage" && g.isFlagSet(sel.X) {
				return true
			}
		}
	}
	return false
}

// isFlagSet reports whether e is a *flag.FlagSet.
func (g *gen) isFlagSet(e ast.Expr) bool {
	tv, ok := g.info.Types[e]
	return ok && tv.Type != nil && strings.TrimPrefix(tv.Type.String(), "*") == "flag.FlagSet"
}

func (g *gen) walk(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		if g.stderrOnly(n) {
			return false
		}
		switch n := n.(type) {
		case *ast.ImportSpec, *ast.GenDecl:
			if gd, ok := n.(*ast.GenDecl); ok && gd.Tok != token.IMPORT {
				return true
			}
			return false
		case *ast.BinaryExpr:
			for _, to := range relational[n.Op] {
				g.binary("relational", n, to)
			}
			if g.isNumeric(n) {
				for _, to := range arithmetic[n.Op] {
					g.binary("arithmetic", n, to)
				}
			}
		case *ast.BasicLit:
			if n.Kind == token.INT {
				g.constant(n)
			}
		case *ast.IfStmt:
			g.negate(n.Cond)
			if els, ok := n.Else.(*ast.BlockStmt); ok {
				a, b := g.inner(n.Body), g.inner(els)
				g.add("swap-branches", n.Pos(), "swapped the branches of `if "+strings.Trim(g.short(n.Cond), "`")+"`",
					edit{g.off(n.Body.Lbrace) + 1, g.off(n.Body.Rbrace), b}, edit{g.off(els.Lbrace) + 1, g.off(els.Rbrace), a})
			}
		case *ast.ForStmt:
			if n.Cond != nil {
				g.negate(n.Cond)
			}
		case *ast.BlockStmt:
			for _, s := range n.List {
				g.remove(s)
			}
		case *ast.CaseClause:
			for _, s := range n.Body {
				g.remove(s)
			}
		case *ast.AssignStmt:
			for _, to := range arithmetic[n.Tok] {
				if len(n.Lhs) == 1 && g.isNumeric(n.Lhs[0]) {
					g.add("arithmetic", n.TokPos, quote(g.text(n))+" → "+quote(g.text(n.Lhs[0])+" "+to.String()+" "+g.text(n.Rhs[0])),
						edit{g.off(n.TokPos), g.off(n.TokPos) + len(n.Tok.String()), to.String()})
				}
			}
		case *ast.IncDecStmt:
			for _, to := range arithmetic[n.Tok] {
				g.add("arithmetic", n.TokPos, quote(g.text(n))+" → "+quote(g.text(n.X)+to.String()),
					edit{g.off(n.TokPos), g.off(n.TokPos) + 2, to.String()})
			}
		case *ast.CallExpr:
			g.swapArgs(n)
		}
		return true
	})
}

// inner returns the text between a block's braces.
func (g *gen) inner(b *ast.BlockStmt) string {
	return string(g.src[g.off(b.Lbrace)+1 : g.off(b.Rbrace)])
}

// constant adds the mutants v+1 and v-1 of an integer literal.
func (g *gen) constant(lit *ast.BasicLit) {
	v, err := strconv.ParseInt(strings.ReplaceAll(lit.Value, "_", ""), 0, 64)
	if err != nil {
		return
	}
	for _, w := range []int64{v + 1, v - 1} {
		text := strconv.FormatInt(w, 10)
		if w < 0 {
			text = "(" + text + ")"
		}
		g.replaceNode("constant", lit, text)
	}
}

// negate adds the mutant !(cond).
func (g *gen) negate(cond ast.Expr) {
	text := "!(" + g.text(cond) + ")"
	if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		text = g.text(u.X) // !x negated is x
	}
	g.add("negate", cond.Pos(), "negated "+g.short(cond), edit{g.off(cond.Pos()), g.off(cond.End()), text})
}

// remove adds the mutant without the statement s, for the kinds of statement a learner forgets.
func (g *gen) remove(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.IncDecStmt:
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			return
		}
	case *ast.ReturnStmt:
	case *ast.BranchStmt:
		if s.Tok != token.BREAK && s.Tok != token.CONTINUE {
			return
		}
	default:
		return
	}
	if g.stderrOnly(s) {
		return
	}
	g.add("remove", s.Pos(), "removed "+g.short(s), edit{g.off(s.Pos()), g.off(s.End()), ""})
}

// swapArgs adds, for each two neighbouring arguments of the same type and different text, the
// mutant with the two swapped.
func (g *gen) swapArgs(c *ast.CallExpr) {
	if c.Ellipsis.IsValid() {
		return
	}
	if id, ok := c.Fun.(*ast.Ident); ok && (id.Name == "min" || id.Name == "max") {
		if _, builtin := g.info.Uses[id].(*types.Builtin); builtin {
			return // their order does not matter
		}
	}
	for i := 0; i+1 < len(c.Args); i++ {
		a, b := c.Args[i], c.Args[i+1]
		ta, tb := g.info.Types[a], g.info.Types[b]
		if ta.Type == nil || tb.Type == nil || !types.Identical(ta.Type, tb.Type) {
			continue
		}
		at, bt := g.text(a), g.text(b)
		if at == bt || isStringLit(a) || isStringLit(b) {
			// A format or a message swapped with its argument is for go vet to catch, not a case.
			continue
		}
		g.add("swap-args", a.Pos(), "swapped "+quote(at)+" and "+quote(bt)+" in "+g.short(c.Fun)+"(…)",
			edit{g.off(a.Pos()), g.off(a.End()), bt}, edit{g.off(b.Pos()), g.off(b.End()), at})
	}
}

func isStringLit(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING
}
