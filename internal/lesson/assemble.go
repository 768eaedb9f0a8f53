package lesson

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
	"sync/atomic"
)

// A program is assembled from the go blocks that name it, in reading order. Each block holds top-level
// declarations; a declaration replaces an earlier one that declares the same name (a method is named
// by its receiver type and its own name), and the first block may start from a copy of another
// program (from=). The assembled file gets "package main", the blocks' own imports and a //line
// directive before every declaration, so that the compiler and a panic's stack trace point at the
// lesson's lines.

// program is a program as assembled so far.
type program struct {
	name    string
	first   int  // line of its first block
	lastRef int  // line of its latest block
	broken  bool // a block of it has problems already reported
	decls   []*decl
	imports []string // import specs as written: "fmt", r "math/rand"
	virtual bool     // a block of it says virtual: it runs in virtual time
}

// decl is one top-level declaration of a program.
type decl struct {
	keys []string // the names it declares; "T.M" for a method
	text string   // its source, doc comment included
	file string   // the file it comes from (the lesson's, or a snippet's)
	line int      // the line of that file it starts on
}

func (p *program) clone(name string) *program {
	c := &program{name: name, first: p.first, lastRef: p.lastRef, broken: p.broken, virtual: p.virtual}
	c.decls = append(c.decls, p.decls...)
	c.imports = append(c.imports, p.imports...)
	return c
}

func (p *program) hasMain() bool {
	for _, d := range p.decls {
		for _, k := range d.keys {
			if k == "main" {
				return true
			}
		}
	}
	return false
}

// render writes the program as one Go file, with a //line directive before every declaration.
// Imports the code needs but does not list are added later (see FixImports).
func (p *program) render() string {
	var b strings.Builder
	if p.virtual {
		b.WriteString(VirtualMark)
	}
	b.WriteString("package main\n")
	if len(p.imports) > 0 {
		b.WriteString("\nimport (\n")
		for _, imp := range p.imports {
			b.WriteString("\t" + imp + "\n")
		}
		b.WriteString(")\n")
	}
	for _, d := range p.decls {
		fmt.Fprintf(&b, "\n//line %s:%d\n%s\n", d.file, d.line, d.text)
	}
	return b.String()
}

// add parses one block's text (as the go block b at lesson line line holds it) and merges its
// declarations into the program. It returns the problems found, located at lesson lines.
func (p *program) add(file string, line int, text string) Errors {
	decls, imports, errs := parseDecls(file, line, text)
	if len(errs) > 0 {
		return errs
	}
	if len(decls) == 0 && len(imports) == 0 {
		return Errors{newError(file, line-1, CodeNoDecl)}
	}
	for _, imp := range imports {
		if !contains(p.imports, imp) {
			p.imports = append(p.imports, imp)
		}
	}
	for _, d := range decls {
		errs = append(errs, p.merge(file, d)...)
	}
	return errs
}

// merge puts d in the program, replacing the declarations that declare any of its names.
func (p *program) merge(file string, d *decl) Errors {
	var errs Errors
	at := -1
	kept := p.decls[:0:0]
	for _, old := range p.decls {
		if !overlaps(old.keys, d.keys) {
			kept = append(kept, old)
			continue
		}
		if at < 0 {
			at = len(kept)
		}
		var lost []string
		for _, k := range old.keys {
			if !contains(d.keys, k) {
				lost = append(lost, k)
			}
		}
		if len(lost) > 0 {
			errs = append(errs, newError(file, d.line, CodePartial, "Line", old.line, "Names", strings.Join(lost, ", ")))
		}
	}
	if at < 0 {
		kept = append(kept, d)
	} else {
		kept = append(kept[:at], append([]*decl{d}, kept[at:]...)...)
	}
	p.decls = kept
	return errs
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		if contains(b, x) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// packagePrefix goes before a block that has no package clause, on a line of its own (so that a doc
// comment on the block's first line stays the doc comment of its declaration).
const packagePrefix = "package main\n"

// parseDecls parses the Go text of a block whose first line is lesson line line.
func parseDecls(file string, line int, text string) ([]*decl, []string, Errors) {
	src := text
	fset := token.NewFileSet()
	if _, err := parser.ParseFile(fset, "", src, parser.PackageClauseOnly); err != nil {
		src = packagePrefix + text
		line-- // the block's first line is the file's second
	}
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, syntaxErrors(file, line, err)
	}
	var decls []*decl
	var imports []string
	for _, d := range f.Decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			if d.Tok == token.IMPORT {
				for _, s := range d.Specs {
					is := s.(*ast.ImportSpec)
					imp := is.Path.Value
					if is.Name != nil {
						imp = is.Name.Name + " " + imp
					}
					imports = append(imports, imp)
				}
				continue
			}
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		s, e := fset.Position(start), fset.Position(d.End())
		decls = append(decls, &decl{
			keys: declKeys(d),
			text: src[s.Offset:e.Offset],
			file: file,
			line: line + s.Line - 1,
		})
	}
	return decls, imports, nil
}

// syntaxErrors turns go/parser's errors into problems at lesson lines.
func syntaxErrors(file string, line int, err error) Errors {
	list, ok := err.(scanner.ErrorList)
	if !ok || len(list) == 0 {
		return Errors{newError(file, line, CodeGoSyntax, "Err", err.Error())}
	}
	var errs Errors
	seen := map[int]bool{}
	for _, e := range list {
		l := line + e.Pos.Line - 1
		if seen[l] {
			continue
		}
		seen[l] = true
		msg := e.Msg
		if e.Pos.Column > 0 {
			msg = fmt.Sprintf("column %d: %s", e.Pos.Column, e.Msg)
		}
		errs = append(errs, newError(file, l, CodeGoSyntax, "Err", msg))
		if len(errs) == 3 {
			break
		}
	}
	return errs
}

// declKeys returns the names a declaration declares.
func declKeys(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		name := d.Name.Name
		if d.Recv != nil && len(d.Recv.List) > 0 {
			return []string{recvName(d.Recv.List[0].Type) + "." + name}
		}
		if name == "init" || name == "_" {
			return []string{uniqueKey(name)}
		}
		return []string{name}
	case *ast.GenDecl:
		var keys []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				keys = append(keys, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name == "_" {
						keys = append(keys, uniqueKey("_"))
					} else {
						keys = append(keys, n.Name)
					}
				}
			}
		}
		if len(keys) == 0 {
			keys = []string{uniqueKey("empty")}
		}
		return keys
	}
	return []string{uniqueKey("bad")}
}

// keyCounter numbers the declarations that never replace another (func init, var _).
var keyCounter atomic.Int64

func uniqueKey(name string) string {
	return name + "#" + strconv.FormatInt(keyCounter.Add(1), 10)
}

// recvName returns the type name of a receiver: T for T, *T, T[P] and *T[P].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// Check is one thing to run and compare.
type check struct {
	kind    checkKind
	file    string
	line    int // where a problem is reported
	program string
	src     string // the assembled program
	fixed   string // bug: the fixed program
	block   *Block // output: the block; predict, bug: the quiz's go block
	quiz    *Quiz
}

type checkKind int

const (
	checkOutput  checkKind = iota + 1 // the program prints block.Text
	checkPredict                      // the right choice is printed, no wrong one is
	checkBug                          // buggy and fixed print different things
	checkBuild                        // a program's final form builds and runs
)

// Plan assembles every program of a lesson in reading order and lists what must be run: one check
// per output block, per predict quiz and per bug quiz, and one for the final form of every program.
// It needs a lesson Parse read without problems.
func plan(l *Lesson) ([]*check, Errors) {
	var (
		checks []*check
		errs   Errors
		progs  = map[string]*program{}
		order  []string
		last   string
	)
	for _, b := range l.Blocks {
		switch b.Kind {
		case GoBlock:
			p := progs[b.Program]
			if p == nil {
				if b.From != "" && progs[b.From] != nil {
					p = progs[b.From].clone(b.Program)
				} else {
					p = &program{name: b.Program}
				}
				p.first = b.Line
				progs[b.Program] = p
				order = append(order, b.Program)
			}
			p.lastRef = b.Line
			last = b.Program
			text := b.Text
			q := b.Quiz
			if q != nil && q.Kind == Fill && q.Answer != "" {
				text = strings.ReplaceAll(text, "___", q.Answer)
			}
			before := p.clone(p.name)
			p.virtual = p.virtual || b.Virtual
			e := p.add(l.File, b.CodeLine(), text)
			errs = append(errs, e...)
			if len(e) > 0 {
				p.broken = true
			}
			if q != nil && q.Kind == Bug && len(e) == 0 && q.BugLine > 0 {
				fixes := q.blocks(FixBlock)
				if len(fixes) != 1 {
					continue
				}
				fixed := before
				fe := fixed.add(l.File, b.CodeLine(), fixLine(text, q.BugLine, fixes[0].Text))
				if len(fe) > 0 {
					errs = append(errs, newError(l.File, fixes[0].Line, CodeFixSyntax, "Err", fe[0].Message()))
					continue
				}
				checks = append(checks, &check{kind: checkBug, file: l.File, line: q.Line, program: b.Program,
					src: p.render(), fixed: fixed.render(), block: b, quiz: q})
			}
		case OutputBlock:
			p := progs[b.Program]
			if p == nil {
				continue
			}
			checks = append(checks, &check{kind: checkOutput, file: l.File, line: b.Line, program: b.Program, src: p.render(), block: b})
		case ChoiceBlock:
			q := b.Quiz
			if q == nil || q.Kind != Predict || q.Choices()[0] != b || progs[last] == nil {
				continue
			}
			goBlocks := q.GoBlocks()
			if len(goBlocks) == 0 {
				continue
			}
			checks = append(checks, &check{kind: checkPredict, file: l.File, line: q.Line, program: last,
				src: progs[last].render(), block: goBlocks[len(goBlocks)-1], quiz: q})
		}
	}
	for _, name := range order {
		p := progs[name]
		if p.broken {
			continue
		}
		if !p.hasMain() {
			errs = append(errs, newError(l.File, p.first, CodeNoMain, "Name", name))
			continue
		}
		checks = append(checks, &check{kind: checkBuild, file: l.File, line: p.lastRef, program: name, src: p.render()})
	}
	errs.Sort()
	return checks, errs
}

// fixLine replaces line n (from 1) of text with the lines of fix.
func fixLine(text string, n int, fix string) string {
	lines := strings.SplitAfter(text, "\n")
	if n < 1 || n > len(lines) {
		return text
	}
	if !strings.HasSuffix(fix, "\n") {
		fix += "\n"
	}
	lines[n-1] = fix
	return strings.Join(lines, "")
}

// Assemble returns the Go source of program name as the lesson has assembled it once block
// l.Blocks[upto] is read: its go blocks (and those of the programs it was copied from) in reading
// order, the text of block i replaced by edits[i] where there is one, fill-in answers in their
// blanks, package main, the blocks' own imports and a //line directive before every declaration.
// Declarations of an edited block are placed in file editFile from its line 1 when editFile is not
// "" (so that a learner's edited snippet gets messages about its own lines). The source still needs
// FixImports. The problems are those of the blocks the program is made of.
func Assemble(l *Lesson, name string, upto int, edits map[int]string, editFile string) (string, error) {
	progs := map[string]*program{}
	errsOf := map[string]Errors{}
	for i, b := range l.Blocks {
		if i > upto {
			break
		}
		if b.Kind != GoBlock || b.Program == "" {
			continue
		}
		p := progs[b.Program]
		if p == nil {
			p = &program{name: b.Program}
			if b.From != "" && progs[b.From] != nil {
				p = progs[b.From].clone(b.Program)
				errsOf[b.Program] = append(Errors{}, errsOf[b.From]...)
			}
			progs[b.Program] = p
		}
		text, file, line := b.Text, l.File, b.CodeLine()
		if e, ok := edits[i]; ok {
			text = e
			if editFile != "" {
				file, line = editFile, 1
			}
		}
		if q := b.Quiz; q != nil && q.Kind == Fill && q.Answer != "" {
			text = strings.ReplaceAll(text, "___", q.Answer)
		}
		p.virtual = p.virtual || b.Virtual
		errsOf[b.Program] = append(errsOf[b.Program], p.add(file, line, text)...)
	}
	p := progs[name]
	if p == nil {
		return "", Errors{newError(l.File, 1, CodeOutputUnknown, "Name", name)}
	}
	return p.render(), errsOf[name].Err()
}
