package lesson

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// explainedQuiz is a choice quiz with every explanation; lines as numbered in the comments.
const explainedQuiz = front + // 1-5
	"<!-- quiz: choice -->\nQ?\n\n" + // 6-8
	"- [ ] Никои\n  <!-- why --> Таймаут и 503 *минават* сами:\n  отказът е грешка.\n" + // 9-11
	"- [x] Временните\n  <!-- why --> Те казват „не сега“.\n" + // 12-13
	"<!-- explain -->\nПовтаряй временното.\n\n- и само него\n<!-- /quiz -->\n" // 14-18

func TestParseExplanations(t *testing.T) {
	l, err := Parse("lessons/x/bg.md", []byte(explainedQuiz))
	if err != nil {
		t.Fatal(err)
	}
	q := l.Quizzes[0]
	type opt struct {
		text, why string
		line      int
	}
	var got []opt
	for _, o := range q.Options {
		got = append(got, opt{o.Text, o.Why, o.WhyLine})
	}
	want := []opt{
		{"Никои", "Таймаут и 503 *минават* сами:\nотказът е грешка.", 10},
		{"Временните", "Те казват „не сега“.", 13},
	}
	if !slices.Equal(got, want) {
		t.Errorf("options:\n got %+v\nwant %+v", got, want)
	}
	if want := "Повтаряй временното.\n\n- и само него"; q.Explain != want || q.ExplainLine != 14 {
		t.Errorf("explain %q at %d, want %q at 14", q.Explain, q.ExplainLine, want)
	}
	if q.Why(0) != want[0].why || q.Why(1) != want[1].why || q.Why(2) != "" || q.Why(-1) != "" {
		t.Errorf("Why(0..2) = %q %q %q", q.Why(0), q.Why(1), q.Why(2))
	}
	if len(q.Options) != 2 || q.Right() != 1 || q.Question != "Q?" {
		t.Errorf("quiz %+v", q)
	}
	// The tree a page is rendered from holds the question and the answers, never an explanation.
	var html bytes.Buffer
	if err := Markdown().Renderer().Render(&html, l.Source, l.Doc); err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"Таймаут", "отказът", "не сега", "Повтаряй", "само него", "why", "explain"} {
		if strings.Contains(html.String(), leak) {
			t.Errorf("the rendered lesson shows %q:\n%s", leak, html.String())
		}
	}
	for _, keep := range []string{"Q?", "Никои", "Временните"} {
		if !strings.Contains(html.String(), keep) {
			t.Errorf("the rendered lesson lost %q:\n%s", keep, html.String())
		}
	}
}

func TestParsePredictWhy(t *testing.T) {
	src := front + "<!-- quiz: predict -->\nQ?\n\n```go program=b\nfunc main() {}\n```\n\n" + // 6-12
		"```choice\n1\n```\n<!-- why --> Едно,\nзащото така.\n\n" + // 13-18
		"```choice correct\n2\n```\n\n" + // 19-22
		"<!-- explain --> Накратко: две.\n<!-- /quiz -->\n\nСлед въпроса.\n" // 23-26
	l, err := Parse("lessons/x/bg.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	q := l.Quizzes[0]
	c := q.Choices()
	if len(c) != 2 || c[0].Why != "Едно,\nзащото така." || c[0].WhyLine != 16 || c[1].Why != "" || c[1].WhyLine != 0 {
		t.Errorf("choices %+v %+v", c[0], c[1])
	}
	if q.Explain != "Накратко: две." || q.ExplainLine != 23 {
		t.Errorf("explain %q at %d", q.Explain, q.ExplainLine)
	}
	var html bytes.Buffer
	if err := Markdown().Renderer().Render(&html, l.Source, l.Doc); err != nil {
		t.Fatal(err)
	}
	if s := html.String(); strings.Contains(s, "защото") || strings.Contains(s, "Накратко") || !strings.Contains(s, "След въпроса.") {
		t.Errorf("rendered:\n%s", s)
	}
}

func TestExplanationProblems(t *testing.T) {
	choice := func(options, tail string) string {
		return front + "<!-- quiz: choice -->\nQ?\n\n" + options + tail + "<!-- /quiz -->\n" // options from line 9
	}
	const ok = "- [ ] a\n  <!-- why --> не\n- [x] b\n  <!-- why --> да\n" // 9-12
	tests := []struct {
		name      string
		src       string
		parse     []string // what Parse reports
		explained []string // what Explained reports
	}{
		{"all there", choice(ok, "<!-- explain -->\nЗащото.\n"), nil, nil},
		{"no explain", choice(ok, ""), nil, []string{"6:quiz_no_explain"}},
		{"option without why", choice("- [ ] a\n- [x] b\n  <!-- why --> да\n", "<!-- explain -->\nЗащото.\n"), nil, []string{"9:option_no_why"}},
		{"nothing explained", choice("- [ ] a\n- [x] b\n", ""), nil, []string{"6:quiz_no_explain", "9:option_no_why", "10:option_no_why"}},
		{"empty why", choice("- [ ] a\n  <!-- why -->\n- [x] b\n  <!-- why --> да\n", "<!-- explain -->\nЗащото.\n"), []string{"10:why_empty"}, nil},
		{"two whys", choice("- [ ] a\n  <!-- why --> не\n  <!-- why --> пак не\n- [x] b\n  <!-- why --> да\n", "<!-- explain -->\nЗащото.\n"), []string{"11:why_stray"}, nil},
		{"empty explain", choice(ok, "<!-- explain -->\n"), []string{"13:explain_empty"}, nil},
		{"explain twice", choice(ok, "<!-- explain -->\nЗащото.\n\n<!-- explain -->\nПак.\n"), []string{"16:explain_twice"}, nil},
		{"why inline", choice("- [ ] a <!-- why --> не\n- [x] b\n  <!-- why --> да\n", "<!-- explain -->\nЗащото.\n"), []string{"9:why_stray"}, []string{"9:option_no_why"}},
		{"why outside a quiz", front + "Текст.\n\n<!-- why --> защо?\n", []string{"8:why_stray"}, nil},
		{"explain outside a quiz", front + "<!-- explain -->\nТекст.\n", []string{"6:why_stray"}, nil},
		{"why after a go block", front + "<!-- quiz: predict -->\nQ?\n\n```go program=b\nfunc main() {}\n```\n<!-- why --> не\n```choice\n1\n```\n```choice correct\n2\n```\n<!-- explain -->\nЗащото.\n<!-- /quiz -->\n",
			[]string{"12:why_stray"}, nil},
		{"predict choices may go without why", front + "<!-- quiz: predict -->\nQ?\n\n```go program=b\nfunc main() {}\n```\n```choice\n1\n```\n```choice correct\n2\n```\n<!-- explain -->\nЗащото.\n<!-- /quiz -->\n",
			nil, nil},
		{"bug quiz needs explain", front + "<!-- quiz: bug line=1 -->\nQ?\n\n```go program=b\nfunc main() {}\n```\n```go fix\nfunc main() { println() }\n```\n<!-- /quiz -->\n",
			nil, []string{"6:quiz_no_explain"}},
		{"code in an explanation is not a program", choice(ok, "<!-- explain -->\nТака:\n\n```go\nx := 1\n```\n"), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse("lessons/x/bg.md", []byte(tt.src))
			if got := problems(t, err); !slices.Equal(got, tt.parse) {
				t.Errorf("Parse problems = %v, want %v\n%v", got, tt.parse, err)
			}
			var got []string
			for _, e := range Explained(l) {
				if !strings.HasPrefix(e.Error(), fmt.Sprintf("lessons/x/bg.md:%d: ", e.Line)) {
					t.Errorf("%q does not start with file:line:", e.Error())
				}
				got = append(got, fmt.Sprintf("%d:%s", e.Line, e.Code))
			}
			if !slices.Equal(got, tt.explained) {
				t.Errorf("Explained = %v, want %v", got, tt.explained)
			}
		})
	}
}

// TestVerifyExplained verifies a lesson in both languages whose quizzes carry every explanation,
// then the same lesson with explanations missing in one language.
func TestVerifyExplained(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel()
	bg, err := os.ReadFile("testdata/explained/bg.md")
	if err != nil {
		t.Fatal(err)
	}
	ru, err := os.ReadFile("testdata/explained/ru.md")
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{}
	errs, err := Verify(context.Background(), r, []File{{Name: "lessons/explained/bg.md", Data: bg}, {Name: "lessons/explained/ru.md", Data: ru}})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) > 0 {
		t.Errorf("the explained lesson has problems:\n%v", errs)
	}
	// Russian loses the why of its first answer and the explanation of the predict quiz.
	ruLess := strings.Replace(string(ru), "  <!-- why --> Таймаут и 503 обычно проходят сами: не повторив,\n  вы превращаете их в ошибку для пользователя.\n", "", 1)
	ruLess = strings.Replace(ruLess, "<!-- explain -->\nНовый `main` целиком заменяет старый.\n", "", 1)
	if ruLess == string(ru) {
		t.Fatal("the test no longer changes ru.md")
	}
	errs, err = Verify(context.Background(), r, []File{{Name: "lessons/explained/bg.md", Data: bg}, {Name: "lessons/explained/ru.md", Data: []byte(ruLess)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%s:%d:%s", e.File, e.Line, e.Code))
	}
	want := []string{
		"lessons/explained/bg.md:23:parity_explain", // the choice quiz: 4 explanations here, 3 there
		"lessons/explained/bg.md:39:parity_explain", // the predict quiz: 3 here, 2 there
		"lessons/explained/ru.md:26:option_no_why",
		"lessons/explained/ru.md:37:quiz_no_explain",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("problems = %v, want %v\n%v", got, want, errs)
	}
}
