package lesson

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
)

// front is a valid front matter of four lines; bodies in the tables start on line 6.
const front = "---\ntitle: T\nsummary: S\norder: 1\n---\n"

// problems returns "LINE:code" for every problem of err.
func problems(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var list Errors
	if !errors.As(err, &list) {
		t.Fatalf("Parse returned %T, want Errors: %v", err, err)
	}
	var out []string
	for _, e := range list {
		if !strings.HasPrefix(e.Error(), fmt.Sprintf("%s:%d: ", e.File, e.Line)) {
			t.Errorf("error text %q does not start with file:line:", e.Error())
		}
		out = append(out, fmt.Sprintf("%d:%s", e.Line, e.Code))
	}
	return out
}

func TestParseProblems(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"valid", front + "# Заглавие\n\n```go program=a\nfunc main() {}\n```\n\n```output\n```\n", nil},
		{"no front matter", "# Заглавие\n", []string{"1:no_front_matter"}},
		{"unclosed front matter", "---\ntitle: T\n\n# Заглавие\n", []string{"1:unclosed_front"}},
		{"front matter fields missing", "---\ntitle: T\n---\n", []string{"1:missing_field", "1:missing_field"}},
		{"front matter unknown key", "---\ntitle: T\nsummary: S\norder: 1\ntags: [x]\n---\n", []string{"1:front_matter"}},
		{"front matter bad yaml", "---\ntitle: [\n---\n", []string{"1:front_matter"}},
		{"front matter wrong type", "---\ntitle: T\nsummary: S\norder: first\n---\n", []string{"1:front_matter"}},
		{"unclosed fence", front + "text\n\n```go program=a\nfunc main() {}\n", []string{"8:unclosed_fence"}},
		{"unclosed fence in a list", front + "- item\n\n  ```go program=a\n  func main() {}\n\nafter\n", []string{"8:unclosed_fence"}},
		{"longer closing fence", front + "````go program=a\nfunc main() {}\n`````\n", nil},
		{"go block without program", front + "```go\nfunc main() {}\n```\n", []string{"6:no_program_name"}},
		{"bad program name", front + "```go program=пул\nfunc main() {}\n```\n", []string{"6:bad_program_name"}},
		{"unknown word", front + "```go program=a hiden\nfunc main() {}\n```\n", []string{"6:bad_info"}},
		{"unknown output word", front + "```go program=a\nfunc main() {}\n```\n```output hiden\n```\n", []string{"9:bad_info"}},
		{"other languages are not ours", front + "```text\nanything\n```\n```yaml\na: b\n```\n", nil},
		{"output with no program", front + "```output\n1\n```\n", []string{"6:output_no_program"}},
		{"output of unknown program", front + "```go program=a\nfunc main() {}\n```\n```output program=b\n```\n", []string{"9:output_unknown"}},
		{"output of a later program", front + "```output program=a\n```\n```go program=a\nfunc main() {}\n```\n", []string{"6:output_unknown"}},
		{"from unknown", front + "```go program=b from=a\nfunc main() {}\n```\n", []string{"6:from_unknown"}},
		{"from late", front + "```go program=a\nfunc main() {}\n```\n```go program=b\nfunc f() {}\n```\n```go program=b from=a\nfunc g() {}\n```\n", []string{"12:from_late"}},
		{"choice block outside quiz", front + "```choice\n1\n```\n", []string{"6:outside_quiz"}},
		{"fix block outside quiz", front + "```go fix\nx := 1\n```\n", []string{"6:outside_quiz"}},
		{"quiz not closed", front + "<!-- quiz: choice -->\nQ?\n\n- [ ] a\n- [x] b\n", []string{"6:quiz_unclosed"}},
		{"stray close", front + "<!-- /quiz -->\n", []string{"6:quiz_stray"}},
		{"nested quiz", front + "<!-- quiz: choice -->\nQ?\n\n- [ ] a\n- [x] b\n\n<!-- quiz: choice -->\nQ?\n\n- [ ] a\n- [x] b\n<!-- /quiz -->\n",
			[]string{"12:quiz_nested"}},
		{"unknown quiz kind", front + "<!-- quiz: essay -->\nQ?\n<!-- /quiz -->\n", []string{"6:quiz_kind"}},
		{"quiz without colon", front + "<!-- quiz choice -->\nQ?\n<!-- /quiz -->\n", []string{"6:quiz_kind"}},
		{"quiz comment inline", front + "Text <!-- quiz: choice --> more.\n", []string{"6:quiz_inline"}},
		{"ordinary comments are fine", front + "<!-- a note for authors -->\n\ntext\n", nil},
		{"choice ok", front + "<!-- quiz: choice -->\n1\\. Q?\n\n- [ ] a\n- [x] b\n<!-- /quiz -->\n", nil},
		{"choice without right answer", front + "<!-- quiz: choice -->\nQ?\n\n- [ ] a\n- [ ] b\n<!-- /quiz -->\n", []string{"6:choice_right"}},
		{"choice with two right answers", front + "<!-- quiz: choice -->\nQ?\n\n- [x] a\n- [x] b\n<!-- /quiz -->\n", []string{"6:choice_right"}},
		{"choice with one answer", front + "<!-- quiz: choice -->\nQ?\n\n- [x] a\n<!-- /quiz -->\n", []string{"6:choice_few"}},
		{"choice without task list", front + "<!-- quiz: choice -->\nQ?\n\n- a\n- b\n<!-- /quiz -->\n", []string{"6:choice_task_list"}},
		{"quiz without question", front + "<!-- quiz: choice -->\n- [ ] a\n- [x] b\n<!-- /quiz -->\n", []string{"6:quiz_no_question"}},
		{"predict ok", front + "```go program=a\nfunc main() {}\n```\n<!-- quiz: predict -->\nQ?\n\n```go program=b from=a\nfunc main() {}\n```\n\n```choice\n1\n```\n\n```choice correct\n2\n```\n<!-- /quiz -->\n", nil},
		{"predict with one choice", front + "<!-- quiz: predict -->\nQ?\n\n```go program=b\nfunc main() {}\n```\n\n```choice correct\n2\n```\n<!-- /quiz -->\n", []string{"6:predict_blocks"}},
		{"predict without right choice", front + "<!-- quiz: predict -->\nQ?\n\n```go program=b\nfunc main() {}\n```\n```choice\n1\n```\n```choice\n2\n```\n<!-- /quiz -->\n", []string{"6:predict_right"}},
		{"predict with an output", front + "<!-- quiz: predict -->\nQ?\n\n```go program=b\nfunc main() {}\n```\n```output\n```\n```choice\n1\n```\n```choice correct\n2\n```\n<!-- /quiz -->\n", []string{"12:block_in_wrong_quiz"}},
		{"bug ok", front + "<!-- quiz: bug line=2 -->\nQ?\n\n```go program=b\nfunc main() {\n\tprintln(1)\n}\n```\n\n```go fix\n\tprintln(2)\n```\n<!-- /quiz -->\n", nil},
		{"bug line out of range", front + "<!-- quiz: bug line=9 -->\nQ?\n\n```go program=b\nfunc main() {\n}\n```\n\n```go fix\n\tprintln(2)\n```\n<!-- /quiz -->\n", []string{"6:bug_line"}},
		{"bug without line", front + "<!-- quiz: bug -->\nQ?\n\n```go program=b\nfunc main() {\n}\n```\n\n```go fix\n\tprintln(2)\n```\n<!-- /quiz -->\n", []string{"6:quiz_attr"}},
		{"bug line not a number", front + "<!-- quiz: bug line=two -->\nQ?\n\n```go program=b\nfunc main() {\n}\n```\n\n```go fix\n\tprintln(2)\n```\n<!-- /quiz -->\n", []string{"6:quiz_attr"}},
		{"bug without fix", front + "<!-- quiz: bug line=1 -->\nQ?\n\n```go program=b\nfunc main() {\n}\n```\n<!-- /quiz -->\n", []string{"6:bug_blocks"}},
		{"bug unknown attribute", front + "<!-- quiz: bug line=1 lines=2 -->\nQ?\n\n```go program=b\nfunc main() {\n}\n```\n```go fix\n}\n```\n<!-- /quiz -->\n", []string{"6:bad_info"}},
		{"fill ok", front + "<!-- quiz: fill answer=\"a b\" -->\nQ?\n\n```go program=b\nfunc main() { ___ }\n```\n\n```output hidden\n```\n<!-- /quiz -->\n", nil},
		{"fill without blank", front + "<!-- quiz: fill answer=x -->\nQ?\n\n```go program=b\nfunc main() {}\n```\n\n```output\n```\n<!-- /quiz -->\n", []string{"9:fill_no_blank"}},
		{"fill without answer", front + "<!-- quiz: fill -->\nQ?\n\n```go program=b\nfunc main() { ___ }\n```\n\n```output\n```\n<!-- /quiz -->\n", []string{"6:quiz_attr"}},
		{"fill with empty answer", front + "<!-- quiz: fill answer=\"\" -->\nQ?\n\n```go program=b\nfunc main() { ___ }\n```\n\n```output\n```\n<!-- /quiz -->\n", []string{"6:fill_answer_blank"}},
		{"fill without output", front + "<!-- quiz: fill answer=x -->\nQ?\n\n```go program=b\nfunc main() { ___ }\n```\n<!-- /quiz -->\n", []string{"6:fill_blocks"}},
		{"CRLF line ends", strings.ReplaceAll(front+"```go program=a\nfunc main() {}\n```\n", "\n", "\r\n"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("lessons/x/bg.md", []byte(tt.src))
			got := problems(t, err)
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems = %v, want %v\n%v", got, tt.want, err)
			}
		})
	}
}

func TestParseElements(t *testing.T) {
	src := front + `# Таймаут: не чакай вечно

` + "```go program=pool hidden\n" + `func helper() int { return 1 }
` + "```\n\n```go program=pool\n" + `func main() { println(helper()) }
` + "```\n\n```output\n1\n```\n\n" + `<!-- quiz: choice -->
1\. Кои грешки?

- [ ] Никои
- [x] Временните: ` + "`timeout`" + ` и 503
<!-- /quiz -->

` + "```output hidden program=pool\n1\n```\n"
	l, err := Parse("lessons/x/bg.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if l.Lang != "bg" || l.Meta.Title != "T" || l.Meta.Order != 1 {
		t.Errorf("lang %q, meta %+v", l.Lang, l.Meta)
	}
	type blk struct {
		kind    Kind
		line    int
		program string
		hidden  bool
		text    string
	}
	var got []blk
	for _, b := range l.Blocks {
		got = append(got, blk{b.Kind, b.Line, b.Program, b.Hidden, b.Text})
	}
	want := []blk{
		{GoBlock, 8, "pool", true, "func helper() int { return 1 }\n"},
		{GoBlock, 12, "pool", false, "func main() { println(helper()) }\n"},
		{OutputBlock, 16, "pool", false, "1\n"},
		{OutputBlock, 27, "pool", true, "1\n"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("blocks:\n got %+v\nwant %+v", got, want)
	}
	if len(l.Quizzes) != 1 {
		t.Fatalf("%d quizzes", len(l.Quizzes))
	}
	q := l.Quizzes[0]
	if q.Kind != Choice || q.Line != 20 || q.EndLine != 25 || q.Question != "1. Кои грешки?" || q.Right() != 1 {
		t.Errorf("quiz %+v", q)
	}
	if len(q.Options) != 2 || q.Options[1].Text != "Временните: timeout и 503" || q.Options[1].Line != 24 {
		t.Errorf("options %+v", q.Options)
	}
	if len(l.Headings) != 1 || l.Headings[0].ID != "таймаут-не-чакай-вечно" || l.Headings[0].Line != 6 {
		t.Errorf("headings %+v", l.Headings)
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Таймаут: не чакай вечно", "таймаут-не-чакай-вечно"},
		{"Retry-After и бюджет на повторенията", "retry-after-и-бюджет-на-повторенията"},
		{"Что есть в Go", "что-есть-в-go"},
		{"Ещё задачи", "ещё-задачи"},
		{"`http.Client` чака вечно", "httpclient-чака-вечно"},
		{"A — B", "a--b"},
		{"snake_case", "snake_case"},
		{"13,9 с", "139-с"},
	}
	for _, tt := range tests {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	ids := NewIDs()
	ids.Put([]byte("урок"))
	var got []string
	for _, h := range []string{"Урок", "Урок", "!!!", "Пробвай"} {
		got = append(got, string(ids.Generate([]byte(h), ast.KindHeading)))
	}
	if want := []string{"урок-1", "урок-2", "heading", "пробвай"}; !slices.Equal(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
}
