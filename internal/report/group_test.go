package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// Failed cases of the kinds a class's programs fail many cases by, visible or hidden.
var (
	wantOut = "такт 0, попытка 1: ошибка\n"
	// onStderr printed the transcript with println: nothing on stdout.
	onStderr = func(name string, visible bool) checker.CaseResult {
		return checker.CaseResult{Name: name, Title: "t " + name, Visible: visible, Status: checker.Fail, Want: wantOut, Stderr: wantOut,
			Diff: &checker.Diff{Line: 1, Want: "такт 0, попытка 1: ошибка", Notes: []string{checker.NoteMissingLines}}, Args: []string{name}}
	}
	// exited1 printed the right transcript, each its own, and ended with os.Exit(1).
	exited1 = func(name string, visible bool) checker.CaseResult {
		return checker.CaseResult{Name: name, Title: "t " + name, Visible: visible, Status: checker.Fail, Message: "exit_nonzero", ExitCode: 1,
			Want: "ok " + name + "\n", Got: "ok " + name + "\n", Args: []string{name}}
	}
	// latin printed a Latin "o" in a Cyrillic word, each in another line.
	latin = func(name string, visible bool) checker.CaseResult {
		return checker.CaseResult{Name: name, Title: "t " + name, Visible: visible, Status: checker.Fail, Want: "попытка " + name + "\n", Got: "пoпытка " + name + "\n",
			Diff: &checker.Diff{Line: 1, Want: "попытка " + name, Got: "пoпытка " + name, Notes: []string{checker.NoteLatinLookalike}}, Args: []string{name}}
	}
	// wrong printed a wrong line of its own.
	wrong = func(name string, visible bool) checker.CaseResult {
		return checker.CaseResult{Name: name, Title: "t " + name, Visible: visible, Status: checker.Fail, Want: "да\n", Got: "нет " + name + "\n",
			Diff: &checker.Diff{Line: 1, Want: "да", Got: "нет " + name}, Args: []string{name}}
	}
	spun = func(name string, visible bool) checker.CaseResult {
		return checker.CaseResult{Name: name, Title: "t " + name, Visible: visible, Status: checker.Timeout, Message: "cpu_limit", Got: "нет " + name + "\n", Args: []string{name}}
	}
)

// cases makes n cases of one kind, named prefix-1…: the first visible when visible is set.
func cases(kind func(string, bool) checker.CaseResult, prefix string, n int, visible bool) []checker.CaseResult {
	var out []checker.CaseResult
	for i := 1; i <= n; i++ {
		out = append(out, kind(fmt.Sprintf("%s-%d", prefix, i), visible && i == 1))
	}
	return out
}

func result(parts ...[]checker.CaseResult) *checker.Result {
	res := &checker.Result{Exercise: "exercise-deadline", Lang: "ru"}
	for _, p := range parts {
		res.Cases = append(res.Cases, p...)
	}
	res.Summarize()
	return res
}

// TestGroups: cases that fail for one cause are one group whatever each printed (a transcript on
// stderr, an exit code, a letter of the other alphabet), shown by a visible case when there is
// one; other failures group only when they printed the same; passed cases and cases not run are
// in none.
func TestGroups(t *testing.T) {
	pass := checker.CaseResult{Name: "ok", Status: checker.Pass, Visible: true}
	notRun := checker.CaseResult{Name: "late", Status: checker.NotRun}
	hiddenFirst := cases(exited1, "e", 4, false)
	hiddenFirst = append(hiddenFirst, exited1("e-5", true))
	tests := []struct {
		name   string
		res    *checker.Result
		causes []string // each group's cause, in order
		sizes  []int
		ex     []int // each group's example
	}{
		{"ten hidden and one visible on stderr", result(cases(onStderr, "h", 10, false), cases(onStderr, "v", 1, true)), []string{CauseStderr}, []int{11}, []int{10}},
		{"exit 1 with the right output", result([]checker.CaseResult{pass}, cases(exited1, "e", 6, true)), []string{CauseExitNonzero}, []int{6}, []int{1}},
		{"the example is the visible one", result(hiddenFirst), []string{CauseExitNonzero}, []int{5}, []int{4}},
		{"a Latin letter in each line", result(cases(latin, "l", 5, true)), []string{checker.NoteLatinLookalike}, []int{5}, []int{0}},
		{"timeouts", result(cases(spun, "s", 3, false)), []string{""}, []int{3}, []int{0}},
		{"wrong lines of their own", result(cases(wrong, "w", 3, true)), []string{"", "", ""}, []int{1, 1, 1}, []int{0, 1, 2}},
		{"kinds apart, not run aside", result(cases(latin, "l", 2, true), cases(onStderr, "h", 3, false), []checker.CaseResult{notRun}, cases(exited1, "e", 2, false)),
			[]string{checker.NoteLatinLookalike, CauseStderr, CauseExitNonzero}, []int{2, 3, 2}, []int{0, 2, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var causes []string
			var sizes, ex []int
			for _, g := range Groups(tt.res) {
				causes, sizes, ex = append(causes, g.Cause), append(sizes, len(g.Cases)), append(ex, g.Example)
			}
			if fmt.Sprint(causes, sizes, ex) != fmt.Sprint(tt.causes, tt.sizes, tt.ex) {
				t.Errorf("causes, sizes, examples = %q %v %v, want %q %v %v", causes, sizes, ex, tt.causes, tt.sizes, tt.ex)
			}
		})
	}
}

// TestHints: the cause that explains the most failed cases comes first; among as many, a
// transcript on stderr, then an exit code, then a letter of the other alphabet.
func TestHints(t *testing.T) {
	tests := []struct {
		name string
		res  *checker.Result
		want []string
	}{
		{"by count", result(cases(onStderr, "h", 2, false), cases(latin, "l", 7, true), cases(exited1, "e", 4, false)),
			[]string{checker.NoteLatinLookalike, CauseExitNonzero, CauseStderr}},
		{"ties by use", result(cases(latin, "l", 3, true), cases(exited1, "e", 3, false), cases(onStderr, "h", 3, false)),
			[]string{CauseStderr, CauseExitNonzero, checker.NoteLatinLookalike}},
		{"no cause, no hint", result(cases(wrong, "w", 3, true), cases(spun, "s", 2, false)), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, g := range Hints(Groups(tt.res)) {
				got = append(got, g.Cause)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("hints %q, want %q", got, tt.want)
			}
		})
	}
}

// TestHintText: a hint says how many cases it explains, names the visible ones, and says the
// cause in the reader's language, with the exit codes it is about.
func TestHintText(t *testing.T) {
	res := result(cases(exited1, "e", 4, true), cases(latin, "l", 1, true))
	hints := Hints(Groups(res))
	tests := []struct {
		lang string
		g    Group
		want string
	}{
		{"en", hints[0], "4 cases (e-1): the program ended with exit code 1 where 0 is expected"},
		{"ru", hints[0], "4 теста (e-1): программа завершилась с кодом 1, а ожидался код 0"},
		{"bg", hints[0], "4 теста (e-1): програмата завърши с код 1, а се очаква код 0"},
		{"ru", hints[1], "1 тест (l-1): среди кириллицы стоит латинская буква, похожая на кириллическую"},
		{"bg", hints[1], "1 тест (l-1): сред кирилицата има латинска буква, която изглежда като кирилска"},
	}
	for _, tt := range tests {
		if got := HintText(i18n.New(tt.lang), res, tt.g); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.want)
		}
	}
}

// TestMarkdownGrouped: twelve hidden cases and one visible that all wrote the transcript to stderr
// are one block of the feedback, by the visible case, with the others named under it; what a
// hidden case expects is still never shown. Without Group, each case is a block of its own.
func TestMarkdownGrouped(t *testing.T) {
	res := result(cases(onStderr, "h", 12, false), cases(onStderr, "v", 1, true), cases(wrong, "w", 1, true))
	for i := range res.Cases[:12] {
		res.Cases[i].Want = "секрет " + res.Cases[i].Name + "\n"
		res.Cases[i].Stderr = res.Cases[i].Want
	}
	var b strings.Builder
	Markdown(&b, res, i18n.New("ru"), Options{Group: true})
	got := b.String()
	if n := strings.Count(got, "\n## ✗ "); n != 2 {
		t.Errorf("%d blocks, want 2 (the stderr group, the wrong line):\n%s", n, got)
	}
	for _, want := range []string{"## ✗ тест v-1: t v-1", "То же самое ещё в 12 тестах:", "- скрытый тест: t h-1\n", "- скрытый тест: t h-10\n", "- и ещё 2\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the feedback lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "секрет") {
		t.Errorf("the feedback shows what a hidden case expects:\n%s", got)
	}
	b.Reset()
	Markdown(&b, res, i18n.New("ru"), Options{})
	if n := strings.Count(b.String(), "\n## ✗ "); n != 14 {
		t.Errorf("ungrouped: %d blocks, want 14", n)
	}
}

// TestBuildLogText: a go.mod the checker refused itself is said in the reader's language; the go
// command's own log is left as it is.
func TestBuildLogText(t *testing.T) {
	tests := []struct {
		lang, reason, log, want string
	}{
		{"ru", "go_mod", `go.mod:3: "require": a go.mod under check may hold only its module line and a go line`,
			"go.mod:3: \"require\"\u00a0— в проверяемом go.mod может быть только строка module и строка go"},
		{"bg", "go_version", "go.mod:2: go 1.99: this checker has Go 1.26 and downloads no other",
			"go.mod:2: go 1.99\u00a0— проверката има Go 1.26 и не изтегля друга версия"},
		{"en", "go_version", "go: go.mod requires go >= 1.99", "go: go.mod requires go >= 1.99"},
	}
	for _, tt := range tests {
		res := &checker.Result{Verdict: checker.BuildError, Message: tt.reason, BuildLog: tt.log}
		if got := BuildLogText(i18n.New(tt.lang), res); got != tt.want {
			t.Errorf("%s %s: %q, want %q", tt.lang, tt.reason, got, tt.want)
		}
	}
}
