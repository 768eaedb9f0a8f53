package render

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rivo/uniseg"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

var (
	escape     = regexp.MustCompile("\x1b\\[[0-9;]*m")
	listNumber = regexp.MustCompile(`^\d+\. `)
)

func TestTerminalRender(t *testing.T) {
	for _, tt := range []struct {
		name string
		term Terminal
		src  string
		want string
	}{
		{"wrapped once, at spaces", Terminal{Width: 20},
			"один два три четыре пять шесть семь восемь девять десять\n",
			"один два три четыре\nпять шесть семь\nвосемь девять десять\n"},
		{"source line breaks are spaces", Terminal{Width: 30},
			"a line\nthat goes on\nand on\n", "a line that goes on and on\n"},
		{"a command name is never split", Terminal{Width: 20},
			"run `workbook lesson slow-neighbour` now\n", "run workbook lesson\nslow-neighbour now\n"},
		{"a word wider than the screen stands alone", Terminal{Width: 10},
			"a exercise-breaker-retry b\n", "a\nexercise-breaker-retry\nb\n"},
		{"a non-breaking space holds", Terminal{Width: 12},
			"пауза 250\u00a0мс\u00a0— ровно\n", "пауза\n250\u00a0мс\u00a0—\nровно\n"},
		{"wide characters count twice", Terminal{Width: 9},
			"日本語 日本語\n", "日本語\n日本語\n"},
		{"no marks without colour", Terminal{},
			"# Title\n\n**bold** *it* ~~x~~ `code` [link](http://x.org)\n",
			"Title\n\nbold it x code link (http://x.org)\n"},
		{"hard break", Terminal{}, "one\\\ntwo\n", "one\ntwo\n"},
		{"lists", Terminal{Width: 20},
			"- one two three four five\n- six\n  - nested item here\n\n3. three\n4. four\n",
			"• one two three four\n  five\n• six\n  • nested item here\n\n3. three\n4. four\n"},
		{"task list", Terminal{}, "- [x] done\n- [ ] not\n", "• [x] done\n• [ ] not\n"},
		{"quote", Terminal{Width: 12}, "> one two three four\n", "│ one two\n│ three four\n"},
		{"raw HTML left out", Terminal{}, "<!-- why --> hidden\n\na <b>b</b>\n", "a b\n"},
		{"entities and escapes", Terminal{}, "1\\. a &amp; b&nbsp;c\n", "1. a & b\u00a0c\n"},
		{"rule", Terminal{Width: 10}, "a\n\n---\n\nb\n", "a\n\n──────────\n\nb\n"},
		{"table", Terminal{}, "| a | bb |\n|---|---|\n| ccc | d |\n", "a    bb\n───  ──\nccc  d\n"},
		{"a table wider than the screen gets the note", Terminal{Width: 8, TooWide: func(n int) string { return fmt.Sprint("w", n) }},
			"| aaaa | bbbb |\n|---|---|\n", "aaaa  bbbb\n────  ────\n\nw10\n"},
		{"code indented, tabs as 4, never wrapped", Terminal{Width: 14},
			"```go\nfunc f() {\n\treturn\n}\n```\n", "    func f() {\n        return\n    }\n"},
		{"a block that does not fit is indented less", Terminal{Width: 12},
			"```\n0123456789\n```\n", "  0123456789\n"},
		{"a block wider than the screen stands whole with a note", Terminal{Width: 8, TooWide: func(n int) string { return "wide " + strings.Repeat("x", n) }},
			"```\n0123456789\n```\n", "0123456789\n\nwide\nxxxxxxxxxx\n"},
		{"code may use the screen beyond the prose", Terminal{Width: 8, Columns: 14},
			"```\n0123456789\n```\n", "    0123456789\n"},
		{"colour", Terminal{Color: true},
			"# T\n\n**b** `c`\n\n```go\nfunc f() {}\n```\n",
			"\x1b[1;4mT\x1b[0m\n\n\x1b[1mb\x1b[0m \x1b[36mc\x1b[0m\n\n    \x1b[35mfunc\x1b[0m \x1b[1mf\x1b[0m() {}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.term.Render(tt.src); got != tt.want {
				t.Errorf("Render(%q):\ngot\n%s\nwant\n%s", tt.src, got, tt.want)
			}
		})
	}
}

// TestTerminalCourse renders every lesson of the course as a reader sees it at 80 columns, plain and
// in colour, and checks what the renderer promises: prose within 80 columns and wrapped once (no line
// could have taken the next line's first word), every visible line of code whole on a line of its
// own, the same text with colours on as off, and a note under every block wider than the screen.
func TestTerminalCourse(t *testing.T) {
	files, err := filepath.Glob("../../lessons/*/*.md")
	if err != nil || len(files) == 0 {
		t.Fatal("no lessons", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := lesson.Parse(f, data)
		if l == nil {
			t.Fatalf("%s does not parse", f)
		}
		topic := filepath.Base(filepath.Dir(f))
		md := ReaderMarkdown(l, topic, i18n.New(l.Lang), nil)
		const note = "NOTE-TOO-WIDE"
		term := Terminal{Width: 80, TooWide: func(int) string { return note }}
		out := term.Render(md)
		term.Color = true
		if colour := term.Render(md); escape.ReplaceAllString(colour, "") != out {
			t.Errorf("%s: the text in colour differs from the plain text", f)
		}
		lines := strings.Split(out, "\n")
		whole := map[string]bool{}
		for _, line := range lines {
			whole[strings.TrimSpace(line)] = true
		}
		code := map[string]bool{} // every line of every block, trimmed
		for _, b := range l.Blocks {
			if b.Hidden || b.Kind == lesson.FixBlock || b.Quiz != nil && b.Quiz.Kind == lesson.Bug {
				continue // fix blocks are shown after an answer; a bug quiz numbers its lines
			}
			for i, cl := range strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n") {
				cl = strings.TrimSpace(strings.ReplaceAll(cl, "\t", "    "))
				if cl != "" && !whole[cl] {
					t.Errorf("%s:%d: the code line %q is not whole on a line of the output", f, b.CodeLine()+i, cl)
				}
			}
			for _, cl := range strings.Split(b.Text, "\n") {
				code[strings.TrimSpace(strings.ReplaceAll(cl, "\t", "    "))] = true
			}
		}
		wide := 0
		for i, line := range lines {
			w := uniseg.StringWidth(line)
			if w > 80 {
				wide++
				continue // a code or output line wider than the screen: the note follows its block
			}
			if i+1 >= len(lines) || code[strings.TrimSpace(line)] {
				continue
			}
			// Prose: the next line's first word (up to a space; a non-breaking one joins) must
			// not have fitted on this line, inside a quote too.
			// Wrapping joins words with one space: a line with two in a row is a table's row.
			cur, next := strings.TrimPrefix(line, "│ "), strings.TrimPrefix(lines[i+1], "│ ")
			if cur == "" || next == "" || strings.Contains(strings.TrimSpace(cur), "  ") || strings.Contains(strings.TrimSpace(next), "  ") || strings.HasPrefix(cur, " ") || strings.HasPrefix(next, " ") ||
				strings.HasPrefix(next, "•") || listNumber.MatchString(next) || code[strings.TrimSpace(lines[i+1])] {
				continue
			}
			first, _, _ := strings.Cut(next, " ")
			if uniseg.StringWidth(cur)+1+uniseg.StringWidth(first) <= 80-(len(line)-len(cur))/len("│ ")*2 {
				t.Errorf("%s: %q could have taken %q from the next line: wrapped twice?", f, line, first)
			}
		}
		if wide > 0 && !strings.Contains(out, note) {
			t.Errorf("%s: %d lines are wider than 80 columns and no note says where to see them whole", f, wide)
		}
	}
}

// TestCommandsNotBroken: a command in inline code that fits on a line is never broken across two
// (copied from two lines, it does not run); other code and longer commands wrap at their spaces.
func TestCommandsNotBroken(t *testing.T) {
	tests := []struct {
		src   string
		whole string // a line holds it whole
	}{
		{"Предохранитель и повтор вместе (`go run ./cmd/workbook check exercise-breaker-retry`). Поставьте", "go run ./cmd/workbook check exercise-breaker-retry"},
		{"Проверяются одинаково, вот так: `go -C ../../.. run ./cmd/workbook check exercise-deadline`.", "go -C ../../.. run ./cmd/workbook check exercise-deadline"},
		{"Подсказка всегда под рукой, если набрать `workbook hint exercise-deadline` в папке", "workbook hint exercise-deadline"},
	}
	for _, tt := range tests {
		out := Terminal{Width: 60}.Render(tt.src)
		found := false
		for _, line := range strings.Split(out, "\n") {
			found = found || strings.Contains(line, tt.whole)
		}
		if !found {
			t.Errorf("%q is broken:\n%s", tt.whole, out)
		}
	}
	// Code that is not a command still wraps.
	long := "Текст, а затем `context.WithTimeout(ctx, 2*time.Second)` и ещё немного текста после"
	if out := (Terminal{Width: 40}).Render(long); !strings.Contains(out, "context.WithTimeout(ctx,\n") {
		t.Errorf("code that is not a command no longer wraps at its spaces:\n%s", out)
	}
}
