package lesson

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// FuzzParse feeds the parser arbitrary text: it must never panic, every problem it reports must be
// located in the file, a lesson it reads cleanly must assemble without panicking, and a lesson is
// always in parity with itself. Seeds are in testdata/fuzz/FuzzParse; run it with
//
//	go test -fuzz FuzzParse ./internal/lesson
func FuzzParse(f *testing.F) {
	f.Add([]byte(front + "```go program=a\nfunc main() {}\n```\n```output\n```\n"))
	f.Add([]byte(bgLesson))
	f.Add([]byte(runLesson))
	f.Add([]byte("---\n"))
	f.Add([]byte("```go program=a\n"))
	f.Add([]byte("<!-- quiz: bug line=99 -->\n```go program=a\nx\n```\n```go fix\n```\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse("lessons/x/bg.md", data)
		if l == nil {
			t.Fatal("Parse returned no lesson")
		}
		lines := bytes.Count(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n")) + 1
		if err != nil {
			var list Errors
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("Parse returned %T %v", err, err)
			}
			for _, e := range list {
				if e.Line < 1 || e.Line > lines {
					t.Errorf("problem at line %d of a file of %d lines: %v", e.Line, lines, e)
				}
				if !strings.HasPrefix(e.Error(), fmt.Sprintf("lessons/x/bg.md:%d: ", e.Line)) {
					t.Errorf("problem %q does not start with file:line:", e.Error())
				}
			}
			return
		}
		_, errs := plan(l)
		for _, e := range errs {
			if e.Line < 0 || e.Line > lines {
				t.Errorf("assembly problem at line %d of a file of %d lines: %v", e.Line, lines, e)
			}
		}
		if p := Parity(l, l); len(p) > 0 {
			t.Errorf("a lesson differs from itself: %v", p)
		}
	})
}
