package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Limits of the command files (DESIGN.md: a command file parses its flags, calls one internal
// package and presents the result; the logic lives in internal/).
const (
	maxFuncLines  = 60   // lines of one function, from its "func" to its closing brace
	maxTotalLines = 2500 // lines of all non-test Go files of cmd/workbook together, kept under
)

// TestCommandFilesAreThin keeps cmd/workbook thin: no function of a non-test file is longer than
// maxFuncLines, and the non-test files together stay under maxTotalLines.
func TestCommandFilesAreThin(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	total := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		total += strings.Count(string(src), "\n")
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			what := "a function literal"
			switch fn := n.(type) {
			case *ast.FuncDecl:
				body, what = fn.Body, fn.Name.Name
			case *ast.FuncLit:
				body = fn.Body
			}
			if body == nil {
				return true
			}
			start, end := fset.Position(n.Pos()), fset.Position(body.End())
			if lines := end.Line - start.Line + 1; lines > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines long, want at most %d: move its logic into internal/", name, start.Line, what, lines, maxFuncLines)
			}
			return true
		})
	}
	if total >= maxTotalLines {
		t.Errorf("the non-test Go files of cmd/workbook hold %d lines, want fewer than %d: move logic into internal/", total, maxTotalLines)
	} else {
		t.Logf("%d lines in the non-test Go files", total)
	}
}

// TestCommandTable checks the command table: names unique and in order, since help lists them as
// the table does, and every command with its help and its run function.
func TestCommandTable(t *testing.T) {
	names := commandNames()
	if !slices.IsSorted(names) {
		t.Errorf("commands %v, want them sorted by name", names)
	}
	if got := len(slices.Compact(slices.Clone(names))); got != len(names) {
		t.Errorf("commands %v: a name appears twice", names)
	}
	for _, c := range commands() {
		if c.usage == "" || c.summary == "" || c.run == nil {
			t.Errorf("command %q: usage %q, summary %q, run set %v; want all three", c.name, c.usage, c.summary, c.run != nil)
		}
		if lookup(c.name) == nil {
			t.Errorf("lookup(%q) found nothing", c.name)
		}
	}
	if lookup("no-such-command") != nil {
		t.Error("lookup found a command that is not in the table")
	}
}
