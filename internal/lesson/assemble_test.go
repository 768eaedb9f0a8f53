package lesson

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// linePragma matches the //line directives of an assembled program.
var linePragma = regexp.MustCompile(`(?m)^//line lessons/x/bg\.md:(\d+)\n`)

// compact shows an assembled program on one line: declarations with the lesson line they come from.
func compact(src string) string {
	src = strings.TrimPrefix(src, "package main\n")
	src = linePragma.ReplaceAllString(src, "@$1 ")
	src = strings.ReplaceAll(src, "\n\n", " | ")
	src = strings.ReplaceAll(src, "\n", " ")
	src = strings.Join(strings.Fields(src), " ")
	return strings.TrimPrefix(src, "| ")
}

func TestPlan(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // "kind program line: program", in the order of the checks
		errs []string // "LINE:code"
	}{
		{
			name: "blocks build on each other",
			body: "```go program=a\nfunc f() int { return 1 }\n```\n\n```go program=a\nfunc main() { println(f()) }\n```\n\n```output\n1\n```\n",
			want: []string{
				"output a 14: @7 func f() int { return 1 } | @11 func main() { println(f()) }",
				"build a 10: @7 func f() int { return 1 } | @11 func main() { println(f()) }",
			},
		},
		{
			name: "a later declaration replaces an earlier one in place",
			body: "```go program=a\nfunc f() int { return 1 }\n\nfunc main() { println(f()) }\n```\n\n```output\n1\n```\n\n" +
				"```go program=a\nfunc f() int { return 2 }\n```\n\n```output\n2\n```\n",
			want: []string{
				"output a 12: @7 func f() int { return 1 } | @9 func main() { println(f()) }",
				"output a 20: @17 func f() int { return 2 } | @9 func main() { println(f()) }",
				"build a 16: @17 func f() int { return 2 } | @9 func main() { println(f()) }",
			},
		},
		{
			name: "methods are keyed by receiver and name, doc comments travel",
			body: "```go program=a\ntype T int\n\n// M is one.\nfunc (T) M() int { return 1 }\n\nfunc (*T) N() int { return 1 }\n\nfunc main() {}\n```\n\n" +
				"```go program=a\n// M is two.\nfunc (t T) M() int { return 2 }\n```\n",
			want: []string{
				"build a 17: @7 type T int | @18 // M is two. func (t T) M() int { return 2 } | @12 func (*T) N() int { return 1 } | @14 func main() {}",
			},
		},
		{
			name: "imports of a block are kept, package clause may be there",
			body: "```go program=a\npackage main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n```\n",
			want: []string{`build a 6: import ( "fmt" ) | @11 func main() { fmt.Println(1) }`},
		},
		{
			name: "from copies the other program as assembled so far",
			body: "```go program=a\nfunc f() int { return 1 }\n\nfunc main() { println(f()) }\n```\n\n" +
				"```go program=b from=a\nfunc f() int { return 3 }\n```\n\n```output\n3\n```\n",
			want: []string{
				"output b 16: @13 func f() int { return 3 } | @9 func main() { println(f()) }",
				"build a 6: @7 func f() int { return 1 } | @9 func main() { println(f()) }",
				"build b 12: @13 func f() int { return 3 } | @9 func main() { println(f()) }",
			},
		},
		{
			name: "a fill quiz runs the program with the answer in the blank",
			body: "<!-- quiz: fill answer=2 -->\nQ?\n\n```go program=a\nfunc main() { println(___) }\n```\n\n```output hidden\n2\n```\n<!-- /quiz -->\n",
			want: []string{
				"output a 13: @10 func main() { println(2) }",
				"build a 9: @10 func main() { println(2) }",
			},
		},
		{
			name: "a bug quiz runs the buggy and the fixed program",
			body: "```go program=a\nfunc f() int { return 1 }\n\nfunc main() { println(f()) }\n```\n\n" +
				"<!-- quiz: bug line=2 -->\nQ?\n\n```go program=b from=a\nfunc f() int {\n\treturn 2\n}\n```\n\n```go fix\n\treturn 1\n```\n<!-- /quiz -->\n",
			want: []string{
				"bug b 12: @16 func f() int { return 2 } | @9 func main() { println(f()) } // @16 func f() int { return 1 } | @9 func main() { println(f()) }",
				"build a 6: @7 func f() int { return 1 } | @9 func main() { println(f()) }",
				"build b 15: @16 func f() int { return 2 } | @9 func main() { println(f()) }",
			},
		},
		{
			name: "a predict quiz runs the program of its last go block",
			body: "```go program=a\nfunc main() { println(1) }\n```\n\n<!-- quiz: predict -->\nQ?\n\n```go program=b from=a\nfunc main() { println(2) }\n```\n\n```choice\n1\n```\n\n```choice correct\n2\n```\n<!-- /quiz -->\n",
			want: []string{
				"predict b 10: @14 func main() { println(2) }",
				"build a 6: @7 func main() { println(1) }",
				"build b 13: @14 func main() { println(2) }",
			},
		},
		{
			name: "a replacement that drops names is an error",
			body: "```go program=a\nconst (\n\tx = 1\n\ty = 2\n)\n\nfunc main() { println(x, y) }\n```\n\n```go program=a\nconst x = 3\n```\n",
			errs: []string{"16:partial"},
		},
		{
			name: "syntax errors are at lesson lines",
			body: "```go program=a\nfunc main() {\n\tx := \n}\n```\n",
			errs: []string{"9:go_syntax"},
		},
		{
			name: "statements outside a function",
			body: "```go program=a\nfmt.Println(1)\n```\n",
			errs: []string{"7:go_syntax"},
		},
		{
			name: "a program without main",
			body: "```go program=a\nfunc f() {}\n```\n",
			errs: []string{"6:no_main"},
		},
		{
			name: "an empty block",
			body: "```go program=a\n// nothing\n```\n\n```go program=a\nfunc main() {}\n```\n",
			errs: []string{"6:no_decl"},
		},
		{
			name: "a fix that breaks the syntax",
			body: "<!-- quiz: bug line=1 -->\nQ?\n\n```go program=b\nfunc main() {\n}\n```\n\n```go fix\nfunc main() {{\n```\n<!-- /quiz -->\n",
			errs: []string{"14:fix_syntax"},
			want: []string{"build b 9: @10 func main() { }"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse("lessons/x/bg.md", []byte(front+tt.body))
			if err != nil {
				t.Fatal(err)
			}
			checks, errs := plan(l)
			var got []string
			for _, c := range checks {
				kind := map[checkKind]string{checkOutput: "output", checkPredict: "predict", checkBug: "bug", checkBuild: "build"}[c.kind]
				s := fmt.Sprintf("%s %s %d: %s", kind, c.program, c.line, compact(c.src))
				if c.fixed != "" {
					s += " // " + compact(c.fixed)
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("checks:\n got %q\nwant %q", got, tt.want)
			}
			var gotErrs []string
			for _, e := range errs {
				gotErrs = append(gotErrs, fmt.Sprintf("%d:%s", e.Line, e.Code))
			}
			if !slices.Equal(gotErrs, tt.errs) {
				t.Errorf("problems = %v, want %v\n%v", gotErrs, tt.errs, errs)
			}
		})
	}
}

func TestFixLine(t *testing.T) {
	text := "a\nb\nc\n"
	for _, tt := range []struct {
		n         int
		fix, want string
	}{
		{1, "x\n", "x\nb\nc\n"},
		{2, "x\ny", "a\nx\ny\nc\n"},
		{3, "", "a\nb\n\n"},
	} {
		if got := fixLine(text, tt.n, tt.fix); got != tt.want {
			t.Errorf("fixLine(%d, %q) = %q, want %q", tt.n, tt.fix, got, tt.want)
		}
	}
}

func TestAssemble(t *testing.T) {
	src := front + "```go program=a\nfunc f() int { return 1 }\n\nfunc main() { println(f()) }\n```\n\n" + // 6-10
		"```go program=a\nfunc f() int { return 2 }\n```\n\n" + // 12-14
		"```go program=b from=a\nfunc main() { println(f() + ___) }\n```\n" // 16-18
	l, err := Parse("lessons/x/bg.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		upto      int
		edits     map[int]string
		editFile  string
		want, err string
	}{
		{"a at its first block", 0, nil, "", "@7 func f() int { return 1 } | @9 func main() { println(f()) }", ""},
		{"a at its second block", 1, nil, "", "@13 func f() int { return 2 } | @9 func main() { println(f()) }", ""},
		{"a edited", 1, map[int]string{1: "func f() int { return 5 }\n"}, "", "@13 func f() int { return 5 } | @9 func main() { println(f()) }", ""},
		{"a edited as a snippet", 1, map[int]string{1: "\nfunc f() int { return 5 }\n"}, "snippet.go", "//line snippet.go:2 func f() int { return 5 } | @9 func main() { println(f()) }", ""},
		{"a broken edit", 1, map[int]string{1: "func f( {\n"}, "snippet.go", "", "snippet.go:1: Go syntax error"},
		{"b", 2, nil, "", "@13 func f() int { return 2 } | @17 func main() { println(f() + ___) }", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "a"
			if tt.name == "b" {
				name = "b"
			}
			got, err := Assemble(l, name, tt.upto, tt.edits, tt.editFile)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c := compact(got); c != tt.want {
				t.Errorf("got  %s\nwant %s", c, tt.want)
			}
		})
	}
	if _, err := Assemble(l, "nope", 2, nil, ""); err == nil {
		t.Error("no error for an unknown program")
	}
	fixed, err := FixImports("/nonexistent/main.go", "package main\n\nfunc main() { fmt.Println(strings.ToUpper(\"a\")) }\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fixed), "\"fmt\"") || !strings.Contains(string(fixed), "\"strings\"") {
		t.Errorf("imports not fixed:\n%s", fixed)
	}
}
