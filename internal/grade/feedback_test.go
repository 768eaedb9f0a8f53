package grade

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// TestFeedbackRefused: a submission refused before it was built gets, in its language, why, with
// what was left out of it named.
func TestFeedbackRefused(t *testing.T) {
	big := &tooBigError{code: BigFile, path: "hw/data.go"}
	type refused struct {
		name    string
		lang    string
		res     *checker.Result
		skipped []SkippedEntry
		want    []string
	}
	tests := []refused{
		{"file too big", "en", &checker.Result{Verdict: TooBig, Message: big.code, BuildLog: big.Error(), Total: 16},
			nil, []string{"the file hw/data.go is larger than 8 MiB", "0 cases of 16 passed"}},
		{"file too big in Russian", "ru", &checker.Result{Verdict: TooBig, Message: big.code, BuildLog: big.Error(), Total: 16},
			nil, []string{"файл hw/data.go больше 8\u00a0МиБ"}},
		{"too deep in Bulgarian", "bg", &checker.Result{Verdict: TooBig, Message: BigDepth, BuildLog: (&tooBigError{code: BigDepth, limit: 32}).Error()},
			[]SkippedEntry{{"a/zz.go", SkipFIFO}}, []string{"вложени на повече от 32 нива", "1 елемент от предаденото е пропуснат", "`a/zz.go` (именуван канал)"}},
		{"an old record without a code", "en", &checker.Result{Verdict: TooBig, BuildLog: "601 files, 1 bytes"},
			nil, []string{"more than a program needs (601 files, 1 bytes)"}},
		{"too many files in Russian", "ru", &checker.Result{Verdict: TooBig, Message: BigFiles, BuildLog: (&tooBigError{code: BigFiles, limit: 500}).Error()},
			nil, []string{"больше 500 .go-файлов"}},
		{"too many bytes in Bulgarian", "bg", &checker.Result{Verdict: TooBig, Message: BigBytes, BuildLog: (&tooBigError{code: BigBytes, limit: 20 << 20}).Error()},
			nil, []string{"повече от 20\u00a0МиБ"}},
		{"an odd byte limit in English", "en", &checker.Result{Verdict: TooBig, Message: BigBytes, BuildLog: (&tooBigError{code: BigBytes, limit: 1500}).Error()},
			nil, []string{"more than 1,500 bytes in all"}},
	}
	// An archive past a limit: what the student reads names the limit in words, never an English
	// count or the instructor's flag.
	lim := DefaultReadLimits
	bombs := []struct {
		limit string
		entry string
	}{{BigEntries, "120000 entries"}, {BigFiles, "500"}, {BigBytes, "big.go"}, {BigDepth, "a/b/c.go"}}
	wantBomb := map[string][]string{
		"ru/" + BigEntries: {"больше 100\u00a0000 элементов (файлов и папок)"},
		"bg/" + BigEntries: {"повече от 100\u00a0000 елемента (файлове и папки)"},
		"ru/" + BigFiles:   {"больше 500 файлов"},
		"bg/" + BigFiles:   {"повече от 500 файла"},
		"en/" + BigFiles:   {"more than 500 files"},
		"ru/" + BigBytes:   {"распакованные файлы вместе больше 20\u00a0МиБ"},
		"bg/" + BigBytes:   {"разархивираните файлове заедно са повече от 20\u00a0МиБ"},
		"ru/" + BigDepth:   {"a/b/c.go лежит глубже 32 уровней папок"},
		"bg/" + BigDepth:   {"a/b/c.go е вложен на повече от 32 нива папки"},
	}
	for _, b := range bombs {
		_, msg, log, _ := refusal(&ArchiveError{Code: ZipBomb, Entry: b.entry, Limit: b.limit}, lim)
		for _, lang := range []string{"ru", "bg", "en"} {
			want := wantBomb[lang+"/"+b.limit]
			tests = append(tests, refused{"bomb " + b.limit + " " + lang, lang, &checker.Result{Verdict: BadArchive, Message: msg, BuildLog: log}, nil, want})
		}
	}
	tests = append(tests, []refused{
		{"archive with a link", "en", &checker.Result{Verdict: BadArchive, Message: ZipTwice, BuildLog: "MAIN.go"},
			[]SkippedEntry{{"zz.go", SkipSymlink}}, []string{"MAIN.go", "`zz.go` (a symbolic link)"}},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			rep := &Report{Exercise: "exercise-deadline"}
			Feedback(&buf, rep, Student{Name: "x", Lang: tt.lang, Result: tt.res, Skipped: tt.skipped})
			got := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in:\n%s", w, got)
				}
			}
			if tt.lang != "en" {
				for _, leak := range []string{"--max-", "more than", "entries", "bytes"} {
					if strings.Contains(got, leak) {
						t.Errorf("%q, the instructor's English, in the student's feedback:\n%s", leak, got)
					}
				}
			}
		})
	}
}

// TestFeedbackSuperseded: a Canvas student whose older versions of a file were set aside is told
// which, in the student's language, and the report names them in the instructor's.
func TestFeedbackSuperseded(t *testing.T) {
	res := &checker.Result{Verdict: checker.Pass, Passed: 1, Total: 1, Cases: []checker.CaseResult{{Name: "a", Status: checker.Pass, Visible: true}}}
	tests := []struct {
		lang, verdict string
		res           *checker.Result
		want          string
	}{
		{"ru", "pass", res, "проверена самая новая версия каждого, а старые отложены: main.go, util-1.go."},
		{"bg", "pass", res, "проверена е най-новата версия на всеки, а по-старите са оставени настрана: main.go, util-1.go."},
		{"en", "refused", &checker.Result{Verdict: BadArchive, Message: ZipTwice, BuildLog: "MAIN.go"}, "the older ones were set aside: main.go, util-1.go."},
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+tt.verdict, func(t *testing.T) {
			var buf bytes.Buffer
			st := Student{Name: "x", Lang: tt.lang, Result: tt.res, Superseded: []string{"main.go", "util-1.go"}}
			Feedback(&buf, &Report{Exercise: "exercise-deadline"}, st)
			if got := buf.String(); !strings.Contains(got, tt.want) {
				t.Errorf("no %q in:\n%s", tt.want, got)
			}
			notes := strings.Join(studentNotes(i18n.New(tt.lang), st, false), "\n")
			if !strings.Contains(notes, "main.go, util-1.go") {
				t.Errorf("the report's notes do not name the files: %q", notes)
			}
		})
	}
}

// TestFeedbackHintsFirst: what most failed cases share comes right under the score, the cause
// that explains the most cases first (here ten cases that ended with exit code 1, then three
// transcripts on stderr, then two Latin letters), each with what to do; the failures follow, those
// of one kind in one block with the others named under it, in the student's language.
func TestFeedbackHintsFirst(t *testing.T) {
	var cs []checker.CaseResult
	for i := 1; i <= 10; i++ {
		name := fmt.Sprintf("e%02d", i)
		cs = append(cs, checker.CaseResult{Name: name, Title: "код " + name, Visible: i == 4, Status: checker.Fail, Message: "exit_nonzero", ExitCode: 1,
			Want: "верно " + name + "\n", Got: "верно " + name + "\n", Args: []string{name}})
	}
	for i := 1; i <= 3; i++ {
		name := fmt.Sprintf("s%02d", i)
		cs = append(cs, checker.CaseResult{Name: name, Title: "поток " + name, Status: checker.Fail, Want: "тайна " + name + "\n", Stderr: "тайна " + name + "\n",
			Diff: &checker.Diff{Line: 1, Want: "тайна " + name, Notes: []string{checker.NoteMissingLines}}})
	}
	for i := 1; i <= 2; i++ {
		name := fmt.Sprintf("l%02d", i)
		cs = append(cs, checker.CaseResult{Name: name, Title: "буква " + name, Visible: true, Status: checker.Fail, Want: "попытка " + name + "\n", Got: "пoпытка " + name + "\n",
			Diff: &checker.Diff{Line: 1, Want: "попытка " + name, Got: "пoпытка " + name, Notes: []string{checker.NoteLatinLookalike}}})
	}
	cs = append(cs, checker.CaseResult{Name: "ok", Title: "верно", Visible: true, Status: checker.Pass})
	tests := []struct {
		lang  string
		hints []string // in this order
		same  string
	}{
		{"ru", []string{"Что исправить в первую очередь:", "10 тестов (e04): программа завершилась с кодом 1, а ожидался код 0. Когда работа сделана, main должна просто закончиться",
			"3 теста: ожидаемый вывод напечатан в stderr, а не в stdout. Печатайте через fmt.Print", "2 теста (l01, l02): среди кириллицы стоит латинская буква"}, "То же самое ещё в 9 тестах:"},
		{"bg", []string{"Какво да поправиш първо:", "10 теста (e04): програмата завърши с код 1, а се очаква код 0. Когато работата е свършена",
			"3 теста: очакваният изход е отпечатан в stderr, а не в stdout. Печатай с fmt.Print", "2 теста (l01, l02): сред кирилицата има латинска буква"}, "Същото и в още 9 теста:"},
		{"en", []string{"What to fix first:", "10 cases (e04): the program ended with exit code 1 where 0 is expected. When its work is done",
			"3 cases: the expected transcript went to stderr, not to stdout. Print with fmt.Print", "2 cases (l01, l02): a Latin letter that looks Cyrillic"}, "The same in 9 more cases:"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			res := &checker.Result{Exercise: "exercise-deadline", Lang: tt.lang, Cases: append([]checker.CaseResult(nil), cs...)}
			res.Summarize()
			rep := &Report{Exercise: "exercise-deadline", Students: []Student{{Name: "s", Lang: tt.lang, Result: res}}}
			rep.Finalize()
			var fb bytes.Buffer
			Feedback(&fb, rep, rep.Students[0])
			got := fb.String()
			at := 0
			for _, h := range tt.hints {
				i := strings.Index(got, h)
				if i < at {
					t.Fatalf("%q is missing or out of order (hints first, the most cases first):\n%s", h, got)
				}
				at = i
			}
			if first := strings.Index(got, "\n## "); first < at {
				t.Errorf("a failed case comes before the hints:\n%s", got)
			}
			if n := strings.Count(got, "\n## ✗ "); n != 3 {
				t.Errorf("%d blocks of failures, want 3 (the exit codes, stderr, the Latin letters):\n%s", n, got)
			}
			if !strings.Contains(got, tt.same) {
				t.Errorf("no %q under the example of the exit codes:\n%s", tt.same, got)
			}
			if strings.Contains(got, "тайна") {
				t.Errorf("the feedback shows what a hidden case expects:\n%s", got)
			}
		})
	}
}

// TestFeedbackNoRunNoWeights: a program that never ran (no program, a refused archive) is told its
// score, never that the cases it passed "weigh 0 of 0"; one that ran is told the weights.
func TestFeedbackNoRunNoWeights(t *testing.T) {
	rep := &Report{Exercise: "exercise-deadline", Cases: []CaseInfo{{Name: "a", Weight: 1}, {Name: "b", Weight: 3}}}
	tests := []struct {
		name string
		st   Student
		want string // "" when no line of weights may be there
	}{
		{"no program", Student{Name: "x", Lang: "en", Result: &checker.Result{Verdict: checker.NoProgram, Total: 2, Cases: []checker.CaseResult{}}}, ""},
		{"no program, late", Student{Name: "x", Lang: "en", Penalty: 1, Late: true, Result: &checker.Result{Verdict: checker.NoProgram, Total: 2, Cases: []checker.CaseResult{}}}, ""},
		{"ran", Student{Name: "x", Lang: "en", Score: 25, Result: &checker.Result{Verdict: checker.Fail, Passed: 1, Total: 2,
			Cases: []checker.CaseResult{{Name: "a", Status: checker.Pass}, {Name: "b", Status: checker.Fail}}}}, "the cases passed weigh 1 of 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			Feedback(&buf, rep, tt.st)
			got := buf.String()
			switch {
			case tt.want == "" && strings.Contains(got, "weigh"):
				t.Errorf("weights told of a program that never ran:\n%s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("no %q in:\n%s", tt.want, got)
			case !strings.Contains(got, "Score: "):
				t.Errorf("no score in:\n%s", got)
			}
		})
	}
}

// TestFeedbackUnknownLanguage: a student whose language nothing told and whose program never ran is
// told why in each of the course's languages, the instructor's first; one whose program ran is
// told in the language it was judged in; so is one whose language the instructor gave.
func TestFeedbackUnknownLanguage(t *testing.T) {
	rep := &Report{Exercise: "exercise-deadline", Titles: map[string]string{"ru": "Повторы с крайним сроком", "bg": "Повторения с краен срок"}}
	bomb := &checker.Result{Verdict: BadArchive, Message: ZipCorrupt, BuildLog: "hw.zip", Total: 34}
	tests := []struct {
		name   string
		st     Student
		want   []string // in this order
		absent []string
	}{
		{"archive, fallback Russian", Student{Name: "x", Lang: "ru", LangFrom: LangFromFallback, Result: bomb},
			[]string{"Ваш архив не открывается", "\n---\n", "Архивът ти не може да се отвори"}, nil},
		{"archive, fallback Bulgarian", Student{Name: "x", Lang: "bg", LangFrom: LangFromFallback, Result: bomb},
			[]string{"Архивът ти не може да се отвори", "\n---\n", "Ваш архив не открывается"}, nil},
		{"no submission", Student{Name: "x", Lang: "bg", LangFrom: LangFromFallback, Result: &checker.Result{Verdict: NoSubmission, Total: 34}},
			[]string{"Минаха 0 теста от 34", "\n---\n", "Пройдено 0 тестов из 34"}, nil},
		{"language given for the class", Student{Name: "x", Lang: "ru", LangFrom: LangFromForced, Result: bomb},
			[]string{"Ваш архив не открывается"}, []string{"Архивът", "---"}},
		{"a program that ran", Student{Name: "x", Lang: "bg", LangFrom: LangFromFallback, Result: &checker.Result{Verdict: checker.Fail, Total: 1,
			Cases: []checker.CaseResult{{Name: "a", Status: checker.Fail, Visible: true}}}},
			nil, []string{"Пройден", "Пройдено", "\n---\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			Feedback(&buf, rep, tt.st)
			got := buf.String()
			at := 0
			for _, w := range tt.want {
				i := strings.Index(got[at:], w)
				if i < 0 {
					t.Fatalf("no %q after byte %d in:\n%s", w, at, got)
				}
				at += i + len(w)
			}
			for _, a := range tt.absent {
				if strings.Contains(got, a) {
					t.Errorf("%q in:\n%s", a, got)
				}
			}
		})
	}
}
