package lesson

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A small lesson in both languages; the table below changes the Russian one.
const (
	bgLesson = "---\ntitle: Урок\nsummary: Кратко.\norder: 2\nexercises: [exercise-a, exercise-b]\n---\n\n# Урок\n\n" +
		"```go program=retry\n// withRetry повтаря.\nfunc withRetry(n int) string {\n\treturn fmt.Sprint(\"опит \", n, 'x')\n}\n\nfunc main() {\n\tfmt.Println(withRetry(3))\n}\n```\n\n" +
		"```output\nопит 3 120\n```\n\n" +
		"<!-- quiz: choice -->\nВъпрос?\n\n- [ ] да\n- [x] не\n<!-- /quiz -->\n\n" +
		"<!-- quiz: bug line=2 -->\nКъде?\n\n```go program=bug from=retry\nfunc withRetry(n int) string {\n\treturn \"\"\n}\n```\n\n```go fix\n\treturn \"опит\"\n```\n<!-- /quiz -->\n"
	ruLesson = "---\ntitle: Урок\nsummary: Коротко.\norder: 2\nexercises: [exercise-a, exercise-b]\n---\n\n# Урок\n\n" +
		"```go program=retry\n// withRetry повторяет.\nfunc withRetry(n int) string {\n\treturn fmt.Sprint(\"попытка \", n, 'x') // строка\n}\n\nfunc main() {\n\tfmt.Println(withRetry(3))\n}\n```\n\n" +
		"```output\nпопытка 3 120\n```\n\n" +
		"<!-- quiz: choice -->\nВопрос?\n\n- [ ] да\n- [x] нет\n<!-- /quiz -->\n\n" +
		"<!-- quiz: bug line=2 -->\nГде?\n\n```go program=bug from=retry\nfunc withRetry(n int) string {\n\treturn \"\"\n}\n```\n\n```go fix\n\treturn `попытка`\n```\n<!-- /quiz -->\n"
)

func TestParity(t *testing.T) {
	tests := []struct {
		name     string
		from, to string // a change to the Russian lesson
		want     []string
	}{
		{"same", "", "", nil},
		{"order", "order: 2", "order: 3", []string{"1:parity_meta"}},
		{"exercises", "exercise-a, exercise-b", "exercise-b, exercise-a", []string{"1:parity_meta"}},
		{"requires", "order: 2\n", "order: 2\nrequires: [intro]\n", []string{"1:parity_meta"}},
		{"program name", "```go program=retry", "```go program=retries", []string{"10:parity_block"}},
		{"hidden", "```go program=retry", "```go program=retry hidden", []string{"10:parity_block"}},
		{"code", "fmt.Println(withRetry(3))", "fmt.Println(withRetry(4))", []string{"17:parity_shape"}},
		{"operator", "return fmt.Sprint", "return fmt.Sprintln", []string{"13:parity_shape"}},
		{"missing block", "```output\nпопытка 3 120\n```\n", "", []string{"1:parity_blocks", "21:parity_block"}},
		{"numbers", "попытка 3 120", "попытка 3 12", []string{"22:parity_numbers"}},
		{"right answer", "- [ ] да\n- [x] нет", "- [x] да\n- [ ] нет", []string{"25:parity_right"}},
		{"answers", "- [x] нет", "- [x] нет\n- [ ] может быть", []string{"25:parity_answers"}},
		{"bug line", "bug line=2", "bug line=1", []string{"32:parity_attr"}},
		{"explanations", "- [x] нет\n", "- [x] нет\n  <!-- why --> потому что\n", []string{"25:parity_explain"}},
		{"quiz kind", "<!-- quiz: choice -->", "<!-- quiz: predict -->", []string{"25:parity_kind"}},
	}
	bg, err := Parse("lessons/x/bg.md", []byte(bgLesson))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := ruLesson
			if tt.from != "" {
				if !strings.Contains(src, tt.from) {
					t.Fatalf("%q is not in the Russian lesson", tt.from)
				}
				src = strings.Replace(src, tt.from, tt.to, 1)
			}
			// Some changes break the Russian lesson too; Parity works on what Parse read.
			ru, _ := Parse("lessons/x/ru.md", []byte(src))
			var got []string
			for _, e := range Parity(bg, ru) {
				got = append(got, fmt.Sprintf("%d:%s", e.Line, e.Code))
				if !strings.HasPrefix(e.Error(), "lessons/x/bg.md:") || !strings.Contains(e.Error(), "lessons/x/ru.md") {
					t.Errorf("%q should be in bg.md and name ru.md", e.Error())
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("parity problems = %v, want %v\n%v", got, tt.want, Parity(bg, ru))
			}
		})
	}
}

func TestSameShape(t *testing.T) {
	tests := []struct {
		a, b  string
		ok    bool
		at    int
		h, th string
	}{
		{"x := \"a\" // one\n", "x := `b`\n", true, 0, "", ""},
		{"x := 'a'\n", "x := 'б'\n", true, 0, "", ""},
		{"x := 1\n", "x := 2\n", false, 1, "1", "2"},
		{"f()\ng()\n", "f()\nh()\n", false, 2, "g", "h"},
		{"f()\n", "f()\ng()\n", false, 1, "(end)", "g"},
	}
	for _, tt := range tests {
		at, h, th, ok := sameShape(tt.a, tt.b)
		if ok != tt.ok || at != tt.at || h != tt.h || th != tt.th {
			t.Errorf("sameShape(%q, %q) = %d %q %q %v, want %d %q %q %v", tt.a, tt.b, at, h, th, ok, tt.at, tt.h, tt.th, tt.ok)
		}
	}
}

func TestSameNumbers(t *testing.T) {
	tests := []struct {
		a, b      string
		ok        bool
		la, lb    int
		here, thr string
	}{
		{"тик 1: ok\nтик 2: 503\n", "такт 1: ok\nтакт 2: 503\n", true, 0, 0, "", ""},
		{"a 1\nb 2 3\n", "a 1\nb 2 4\n", false, 2, 2, "2 3", "2 4"},
		{"a 1\nb 2\n", "a 1\n", false, 2, 1, "2", "1"},
		{"1.5s\n", "1,5s\n", true, 0, 0, "", ""},
	}
	for _, tt := range tests {
		la, here, lb, there, ok := sameNumbers(tt.a, tt.b)
		if ok != tt.ok || la != tt.la || lb != tt.lb || here != tt.here || there != tt.thr {
			t.Errorf("sameNumbers(%q, %q) = %d %q %d %q %v", tt.a, tt.b, la, here, lb, there, ok)
		}
	}
}
