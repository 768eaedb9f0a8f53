package lesson

import (
	"fmt"
	"strings"
	"testing"
)

func TestCodeWidth(t *testing.T) {
	long := "// " + strings.Repeat("ш", MaxCodeWidth-3) // exactly 76 columns, Cyrillic
	src := "---\ntitle: T\nsummary: S\norder: 1\n---\n\n" +
		"```go program=a\n" + long + "\n\t" + long[:len(long)-2*TabWidth] + "x\nfunc main() {}\n```\n\n" + // line 8 fits, 9 is 77
		"```go program=b hidden\n" + long + "x\nfunc main() {}\n```\n\n" + // hidden: never shown
		"<!-- quiz: bug line=1 -->\nГде ошибка?\n\n```go program=c from=a\nfunc main() {\n" + long[:len(long)-2] /* 75 columns */ + "\n}\n```\n\n```go fix\n" + long + "x\n```\n<!-- /quiz -->\n"
	l, err := Parse("x/ru.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range CodeWidth(l) {
		got = append(got, fmt.Sprintf("%d %v/%v", e.Line, e.Args["Width"], e.Args["Max"]))
	}
	// Line 9: a tab and 73 columns. Line 23: 75 columns in a bug quiz of 3 lines, numbered "1  ".
	// Line 28: the fix block, shown after an answer.
	want := []string{"9 77/76", "23 75/73", "28 77/76"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("CodeWidth = %q, want %q", got, want)
	}
	if e := CodeWidth(l); len(e) > 0 && !strings.HasPrefix(e[0].Error(), "x/ru.md:9: this line of code is 77 columns wide") {
		t.Errorf("the error reads %q", e[0].Error())
	}
}
