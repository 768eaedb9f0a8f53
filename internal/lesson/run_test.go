package lesson

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// runLesson is a lesson whose programs show every check the runner makes. Its lines are numbered in
// the comments of the table below.
const runLesson = front + // lines 1-5
	"```go program=ok\nfunc main() {\n\tfmt.Println(strings.Repeat(\"=\", 3), strconv.Itoa(42), time.Second)\n}\n```\n" + // 6-10
	"```output\n=== 42 1s\n```\n" + // 11-13
	"```go program=ok\nfunc main() {\n\tfmt.Println(\"a\")\n\tfmt.Println(\"b\")\n}\n```\n" + // 14-19
	"```output\na\nc\n```\n" + // 20-23: line 22 differs
	"<!-- quiz: predict -->\nQ?\n\n```go program=p from=ok\nfunc main() { fmt.Println(1) }\n```\n```choice\n1\n```\n```choice correct\n2\n```\n<!-- /quiz -->\n" + // 24-36: choices at 30, 33
	"<!-- quiz: bug line=1 -->\nQ?\n\n```go program=b from=ok\nfunc main() { fmt.Println(1) }\n```\n```go fix\nfunc main() { fmt.Println(1) }\n```\n<!-- /quiz -->\n" + // 37-46
	"<!-- quiz: fill answer=2 -->\nQ?\n\n```go program=f\nfunc main() { fmt.Println(___ + 1) }\n```\n```output hidden\n4\n```\n<!-- /quiz -->\n" + // 47-56: 4 at 54
	"```go program=crash\nfunc main() {\n\tvar s []int\n\tfmt.Println(s[3])\n}\n```\n" + // 57-62: s[3] at 60
	"```output\n```\n" + // 63-64
	"```go program=broken\nfunc main() {\n\tundefinedThing()\n}\n```\n" + // 65-69: undefinedThing at 67
	"```output\n```\n" + // 70-71
	"```go program=ctx\nfunc main() {\n\tctx, cancel := context.WithTimeout(context.Background(), time.Hour)\n\tdefer cancel()\n\t_, ok := ctx.Deadline()\n\tfmt.Println(ok)\n}\n```\n" + // 72-79
	"```output\ntrue\n```\n" // 80-82

func TestRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel() // builds and runs programs of its own
	l, err := Parse("lessons/x/bg.md", []byte(runLesson))
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{}
	errs, err := r.Check(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%d:%s", e.Line, e.Code))
	}
	want := []string{
		"22:output",        // the second line of the output block
		"30:predict_match", // a wrong choice is what p prints
		"34:predict_wrong", // the first line of the choice marked correct
		"37:bug_same",      // the fix changes nothing
		"54:output",        // the filled program prints 3
		"63:run",           // index out of range
		"70:build",         // undefined
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems = %v, want %v\n%v", got, want, errs)
	}
	for _, e := range errs {
		switch e.Code {
		case CodeOutput:
			if e.Line == 22 && (e.Diff == nil || e.Diff.Want != "c" || e.Diff.Got != "b") {
				t.Errorf("diff %+v", e.Diff)
			}
		case CodeBuild:
			if !strings.Contains(e.Detail, "lessons/x/bg.md:67") || !strings.Contains(e.Detail, "undefinedThing") {
				t.Errorf("the compiler's message should point at the lesson line: %q", e.Detail)
			}
		case CodeRun:
			if !strings.Contains(e.Detail, "index out of range") || !strings.Contains(e.Detail, "lessons/x/bg.md:60") {
				t.Errorf("the panic should point at the lesson line: %q", e.Detail)
			}
		}
	}
	// A second check of the same lesson runs nothing again.
	n := len(r.cache)
	if _, err := r.Check(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	if len(r.cache) != n {
		t.Errorf("%d programs after the second check, %d after the first", len(r.cache), n)
	}
}

func TestPredictWrongChoiceMatches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel() // builds and runs programs of its own
	src := front + "<!-- quiz: predict -->\nQ?\n\n```go program=p\nfunc main() { fmt.Println(1) }\n```\n```choice\n1\n```\n```choice correct\n1\n\n```\n<!-- /quiz -->\n"
	l, err := Parse("lessons/x/ru.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	errs, err := (&Runner{}).Check(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%d:%s", e.Line, e.Code))
	}
	// The choice marked correct has an empty line too many, at its line 2 (lesson line 17).
	if want := []string{"12:predict_match", "17:predict_wrong"}; !slices.Equal(got, want) {
		t.Errorf("problems = %v, want %v\n%v", got, want, errs)
	}
}

// TestBatch checks that programs are built together: four programs, one build; and that a program
// whose initialisation prints is built alone, so that the others do not print it too.
func TestBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel() // builds and runs programs of its own
	var b strings.Builder
	b.WriteString(front)
	for i := range 4 {
		fmt.Fprintf(&b, "```go program=p%d\nfunc main() { fmt.Println(%d) }\n```\n```output\n%d\n```\n", i, i, i)
	}
	l, err := Parse("lessons/x/bg.md", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{}
	if errs, err := r.Check(context.Background(), l); err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	if n := r.builds.Load(); n != 1 {
		t.Errorf("%d builds for four programs, want 1", n)
	}

	b.WriteString("```go program=noisy\nfunc init() { fmt.Println(\"init\") }\n\nfunc main() {}\n```\n```output\ninit\n```\n")
	b.WriteString("```go program=loud\nvar x = say()\n\nfunc say() int { fmt.Println(\"loud\"); return 1 }\n\nfunc main() {}\n```\n```output\nloud\n```\n")
	b.WriteString("```go program=p0\nfunc main() { fmt.Println(10) }\n```\n```output\n10\n```\n")
	l, err = Parse("lessons/x/bg.md", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r = &Runner{}
	if errs, err := r.Check(context.Background(), l); err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	if n := r.builds.Load(); n != 3 {
		t.Errorf("%d builds, want 3: the quiet programs together, each loud one alone", n)
	}
}

func TestQuietInit(t *testing.T) {
	for _, tt := range []struct {
		src   string
		quiet bool
	}{
		{"var seed = 7", true},
		{"var start = time.Date(2025, time.November, 28, 9, 0, 0, 0, time.UTC)", true},
		{"var m = make(map[string]int, len(\"ab\"))", true},
		{"func init() {}", false},
		{"var _ = fmt.Println(1)", false},
		{"var x = f()\nfunc f() int { return 1 }", false},
		{"var f = func() int { return 1 }()", false},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package main\n"+tt.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := quietInit(f); got != tt.quiet {
			t.Errorf("quietInit(%q) = %v, want %v", tt.src, got, tt.quiet)
		}
	}
}
