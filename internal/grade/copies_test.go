package grade

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// pad puts text after every statement of every block of a Go file, as a one-line sed would put {}
// or _ = 0 after every line that ends a statement; the result still parses (and builds).
func pad(t *testing.T, src, text string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var at []int
	add := func(list []ast.Stmt) {
		for _, s := range list {
			at = append(at, fset.Position(s.End()).Offset)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			add(n.List)
		case *ast.CaseClause:
			add(n.Body)
		}
		return true
	})
	sort.Sort(sort.Reverse(sort.IntSlice(at)))
	for _, off := range slices.Compact(at) {
		src = src[:off] + "; " + text + src[off:]
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "main.go", src, 0); err != nil {
		t.Fatalf("the padded program does not parse: %v", err)
	}
	return src
}

// reorder writes a file's top-level declarations (but its imports) in the reverse order.
func reorder(t *testing.T, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var head string
	var decls []string
	for _, d := range f.Decls {
		from, to := fset.Position(d.Pos()).Offset, fset.Position(d.End()).Offset
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			from = fset.Position(fd.Doc.Pos()).Offset
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			head = src[:to]
			continue
		}
		decls = append(decls, src[from:to])
	}
	slices.Reverse(decls)
	return head + "\n\n" + strings.Join(decls, "\n\n") + "\n"
}

// rename renames the program's own identifiers.
func rename(src string, names map[string]string) string {
	for from, to := range names {
		src = regexp.MustCompile(`\b`+from+`\b`).ReplaceAllString(src, to)
	}
	return src
}

// toImpl moves a program into a package of its module: main.go calls impl.Main() and nothing else.
func toImpl(src string) files {
	impl := strings.Replace(src, "\npackage main\n", "\npackage impl\n", 1)
	impl = strings.Replace(impl, "func main() {", "func Main() {", 1)
	return files{
		"go.mod":       "module example.com/hw\n\ngo 1.22\n",
		"main.go":      "package main\n\nimport \"example.com/hw/impl\"\n\nfunc main() { impl.Main() }\n",
		"impl/impl.go": impl,
		// A package the program does not import takes no part in the build, nor in the report.
		"unused/unused.go": "package unused\n\nfunc Unused() int { return 42 }\n",
	}
}

// TestCopiesOfWhatRan: mechanical disguises of a copy (statements that do nothing after every
// statement, renaming, reordering, moving the program into a package of its module) are copies,
// the program moved into a package is read whole, and correct programs written independently of each
// other and of the reference are not.
func TestCopiesOfWhatRan(t *testing.T) {
	a := readTestdata(t, "testdata/independent/a/main.go")
	b := readTestdata(t, "testdata/independent/b/main.go")
	ref := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	class := t.TempDir()
	for name, fs := range map[string]files{
		"alice": {"main.go": a},
		"bob":   {"main.go": b},
		"carol": {"main.go": pad(t, a, "{}")},
		"dave":  {"main.go": pad(t, a, "_ = 0")},
		"erin": {"main.go": reorder(t, rename(b, map[string]string{"server": "fake", "srv": "s", "calls": "count",
			"notBefore": "earliestTick", "backoff": "pause", "floor": "lo", "retry": "again", "last": "reply", "next": "nxt"}))},
		"frank": toImpl(ref),
		"grace": toImpl(a),
		"heidi": {"main.go": pad(t, reorder(t, ref), "{}")},
		"ivan":  {"main.go": pad(t, b, "if false { _ = 1 } else {}; switch {}; var _ int")},
		// The reference in a package, beside code that never runs: in a cgo file the build leaves
		// out, in a file of its own, in functions nothing calls.
		"judy": func() files {
			fs := toImpl(ref + deadCode)
			fs["impl/decoy.go"] = "package impl\n\nimport \"C\"\n" + readTestdata(t, "testdata/independent/c/main.go")[strings.Index(readTestdata(t, "testdata/independent/c/main.go"), "type session"):]
			fs["impl/more.go"] = "package impl\n\nimport \"fmt\"\n" + strings.NewReplacer("checksum", "sum2", "ledger", "book", "Ledger", "Book", "banner", "title").Replace(deadCode)
			return fs
		}(),
		"kate": {"main.go": swap(t, a, "fmt.Printf(", "fmt.Fprintf(os.Stdout, ") + deadCode},
	} {
		writeFiles(t, class+"/"+name, fs)
	}
	job := deadlineJob(t)
	subs, _, err := listClass(job, class, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := newGrader(job)
	g.work = t.TempDir()
	rep := &Report{Solutions: g.solutionPrints()}
	for i, s := range subs {
		it, err := g.prepare(s, i, "")
		if err != nil {
			t.Fatal(err)
		}
		if it.st.Result != nil {
			t.Fatalf("%s: %s %s", s.Name, it.st.Result.Verdict, it.st.Result.Message)
		}
		it.st.Result = &checker.Result{Verdict: checker.Pass}
		rep.Students = append(rep.Students, it.st)
	}
	rep.Finalize()

	// The source view of a program moved into a package shows the package; a package it does not
	// import is not shown.
	for _, st := range rep.Students {
		if st.Name != "frank" {
			continue
		}
		var names []string
		for _, f := range st.Source {
			names = append(names, f.Name)
		}
		if got := strings.Join(names, ","); got != "impl/impl.go,main.go" {
			t.Errorf("frank's source view: %s, want impl/impl.go,main.go", got)
		}
	}
	groups := map[string]string{}
	for _, cg := range rep.Copies {
		key := strings.Join(cg.Students, ",")
		if cg.Solution != "" {
			key = "solution:" + key
		}
		groups[key] = cg.Hash
	}
	var got []string
	for k := range groups {
		got = append(got, k)
	}
	sort.Strings(got)
	want := []string{"alice,carol,dave,grace,kate", "bob,erin,ivan", "solution:frank,heidi,judy"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("copy groups %q, want %q", got, want)
	}
	for _, p := range rep.Pairs {
		if (p.A == "alice" || p.A == "bob") && (p.B == "alice" || p.B == "bob") {
			t.Errorf("two independent programs are a pair: %+v", p)
		}
	}
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestNoise: what copy detection leaves out changes nothing a program does; what it keeps might.
func TestNoise(t *testing.T) {
	const base = "package main\n\nimport \"fmt\"\n\nfunc f() int { return 1 }\n\nfunc main() {\n\tx := f()\n\tfmt.Println(x)\n}\n"
	body := func(stmts string) string {
		return "package main\n\nimport \"fmt\"\n\nfunc f() int { return 1 }\n\nfunc main() {\n\tx := f()\n\t" + stmts + "\n\tfmt.Println(x)\n}\n"
	}
	tests := []struct {
		name, src string
		same      bool
	}{
		{"empty block", body("{}"), true},
		{"nested empty blocks and semicolons", body("{ {}; ; {} };;"), true},
		{"blank assignment of a literal", body("_ = 0"), true},
		{"blank assignments of names and arithmetic", body(`_, _ = x, -x+1; _ = "s"`), true},
		{"blank var", body("var _ int; var _ = 2"), true},
		{"if false with empty branches", body("if false {} else { _ = 1 }"), true},
		{"switch without cases", body("switch x {}"), true},
		{"top-level blank declaration", base + "\nvar _ = 3\n", true},
		{"blank assignment of a call: f runs", body("_ = f()"), false},
		{"blank assignment of a division: may panic", body("_ = 1 / x"), false},
		{"blank assignment of a selection: kept (p.x may panic)", body("_ = fmt.Println"), false},
		{"an if that calls", body("if f() > 0 {}"), false},
		{"a real statement", body("x++"), false},
	}
	want := DeclForms(Source{Files: map[string][]byte{"main.go": []byte(base)}})
	wantMarks := winnow(wtokens(Source{Files: map[string][]byte{"main.go": []byte(base)}}, true))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := parser.ParseFile(token.NewFileSet(), "main.go", tt.src, 0); err != nil {
				t.Fatal(err)
			}
			src := Source{Files: map[string][]byte{"main.go": []byte(tt.src)}}
			got := DeclForms(src)
			if same := slices.Equal(got, want); same != tt.same {
				t.Errorf("declarations alike: %t, want %t\n%q\n%q", same, tt.same, got, want)
			}
			var a, b []uint32
			for _, m := range winnow(wtokens(src, true)) {
				a = append(a, m.H)
			}
			for _, m := range wantMarks {
				b = append(b, m.H)
			}
			if same := slices.Equal(a, b); tt.same && !same {
				t.Errorf("fingerprints differ")
			}
		})
	}
}
