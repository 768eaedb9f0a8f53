package report

import (
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// TestStreamMessages renders a failed stdout or stderr line of a case (checker.MsgStdoutMatch and the
// others) in every language, in the terminal and in Markdown: the pattern "." in words of its own,
// another pattern named, what the program printed shown, and never testscript's raw line.
func TestStreamMessages(t *testing.T) {
	two := 2
	tests := []struct {
		name      string
		cs        checker.CaseResult
		text, md  map[string]string // the message, by language
		stdout    bool              // the program's stdout is shown
		stderrOut bool              // the program's stderr is shown
	}{
		{
			name: "stdout_match .",
			cs:   checker.CaseResult{Message: checker.MsgStdoutMatch, Pattern: ".", Got: "опит 1\n", Stderr: "лош флаг\n"},
			text: map[string]string{
				"ru": "Программа напечатала что-то в stdout, а в этом тесте stdout должен остаться пустым.",
				"bg": "Програмата отпечата нещо в stdout, а този тест очаква stdout да остане празен.",
				"en": "The program printed something on stdout, but this case expects stdout to stay empty.",
			},
			stdout: true, stderrOut: true,
		},
		{
			name: "stdout_match pattern",
			cs:   checker.CaseResult{Message: checker.MsgStdoutMatch, Pattern: "опит", Got: "опит 1\n"},
			text: map[string]string{
				"ru": "В stdout есть текст, подходящий под шаблон «опит», а этот тест такого не допускает.",
				"bg": "В stdout има текст, който отговаря на шаблона „опит“, а в този тест не бива да има такъв текст.",
				"en": "The program's stdout matches the pattern \"опит\", which this case does not allow.",
			},
			md: map[string]string{
				"ru": "В stdout есть текст, подходящий под шаблон `опит`, а этот тест такого не допускает.",
				"bg": "В stdout има текст, който отговаря на шаблона `опит`, а в този тест не бива да има такъв текст.",
				"en": "The program's stdout matches the pattern `опит`, which this case does not allow.",
			},
			stdout: true,
		},
		{
			name: "stdout_no_match .",
			cs:   checker.CaseResult{Message: checker.MsgStdoutNoMatch, Pattern: "."},
			text: map[string]string{
				"ru": "Программа ничего не напечатала в stdout, а этот тест ждёт там вывода.",
				"bg": "Програмата не отпечата нищо в stdout, а този тест очаква там изход.",
				"en": "The program printed nothing on stdout, but this case expects output there.",
			},
		},
		{
			name: "stdout_no_match pattern",
			cs:   checker.CaseResult{Message: checker.MsgStdoutNoMatch, Pattern: `storm \[-rule`, Got: "usage: storm\n"},
			text: map[string]string{
				"ru": "В stdout нет ничего, что подходило бы под шаблон «storm \\[-rule».",
				"bg": "В stdout няма нищо, което да отговаря на шаблона „storm \\[-rule“.",
				"en": "Nothing on stdout matches the pattern \"storm \\[-rule\".",
			},
			md: map[string]string{
				"ru": "В stdout нет ничего, что подходило бы под шаблон `storm \\[-rule`.",
				"bg": "В stdout няма нищо, което да отговаря на шаблона `storm \\[-rule`.",
				"en": "Nothing on stdout matches the pattern `storm \\[-rule`.",
			},
			stdout: true,
		},
		{
			name: "stderr_match .",
			cs:   checker.CaseResult{Message: checker.MsgStderrMatch, Pattern: ".", Stderr: "лош флаг\n"},
			text: map[string]string{
				"ru": "Программа написала что-то в stderr, а в этом тесте stderr должен остаться пустым.",
				"bg": "Програмата писа нещо в stderr, а този тест очаква stderr да остане празен.",
				"en": "The program wrote something to stderr, but this case expects stderr to stay empty.",
			},
			stderrOut: true,
		},
		{
			name: "stderr_match pattern",
			cs:   checker.CaseResult{Message: checker.MsgStderrMatch, Pattern: "panic", Stderr: "лош флаг\n"},
			text: map[string]string{
				"ru": "В stderr есть текст, подходящий под шаблон «panic», а этот тест такого не допускает.",
				"bg": "В stderr има текст, който отговаря на шаблона „panic“, а в този тест не бива да има такъв текст.",
				"en": "The program's stderr matches the pattern \"panic\", which this case does not allow.",
			},
			md: map[string]string{
				"ru": "В stderr есть текст, подходящий под шаблон `panic`, а этот тест такого не допускает.",
				"bg": "В stderr има текст, който отговаря на шаблона `panic`, а в този тест не бива да има такъв текст.",
				"en": "The program's stderr matches the pattern `panic`, which this case does not allow.",
			},
			stderrOut: true,
		},
		{
			name: "stderr_no_match .",
			cs:   checker.CaseResult{Message: checker.MsgStderrNoMatch, Pattern: "."},
			text: map[string]string{
				"ru": "Программа ничего не написала в stderr, а этот тест ждёт там сообщения об ошибке.",
				"bg": "Програмата не писа нищо в stderr, а този тест очаква там съобщение за грешка.",
				"en": "The program wrote nothing to stderr, but this case expects an error message there.",
			},
		},
		{
			name: "stderr_no_match pattern",
			cs:   checker.CaseResult{Message: checker.MsgStderrNoMatch, Pattern: "12", Got: "опит 1\n", Stderr: "лош флаг\n"},
			text: map[string]string{
				"ru": "В stderr нет ничего, что подходило бы под шаблон «12».",
				"bg": "В stderr няма нищо, което да отговаря на шаблона „12“.",
				"en": "Nothing on stderr matches the pattern \"12\".",
			},
			md: map[string]string{
				"ru": "В stderr нет ничего, что подходило бы под шаблон `12`.",
				"bg": "В stderr няма нищо, което да отговаря на шаблона `12`.",
				"en": "Nothing on stderr matches the pattern `12`.",
			},
			stderrOut: true,
		},
	}
	for _, tt := range tests {
		for _, lang := range []string{"ru", "bg", "en"} {
			t.Run(tt.name+"/"+lang, func(t *testing.T) {
				pr := i18n.New(lang)
				cs := tt.cs
				cs.Name, cs.Title, cs.Visible, cs.Status = "03", "bad", true, checker.Fail
				cs.Args, cs.ExitCode, cs.WantExit = []string{"-budget", "-1"}, 2, &two
				res := &checker.Result{Exercise: "exercise-x", Dir: "my", Verdict: checker.Fail, Total: 1,
					Cases: []checker.CaseResult{cs}}
				var text, md strings.Builder
				Text(&text, res, pr, Options{})
				Markdown(&md, res, pr, Options{})
				mdWant := tt.text[lang]
				if tt.md != nil {
					mdWant = tt.md[lang]
				}
				for _, out := range []struct{ kind, out, want string }{{"text", text.String(), tt.text[lang]}, {"markdown", md.String(), mdWant}} {
					if !strings.Contains(out.out, out.want) {
						t.Errorf("%s: missing %q in\n%s", out.kind, out.want, out.out)
					}
					for _, bad := range []string{"FAIL:", "/tmp", cs.Message} {
						if strings.Contains(out.out, bad) {
							t.Errorf("%s: %q in\n%s", out.kind, bad, out.out)
						}
					}
					if got := strings.Contains(out.out, pr.T("stdout_label")); got != tt.stdout {
						t.Errorf("%s: stdout shown %v, want %v:\n%s", out.kind, got, tt.stdout, out.out)
					}
					if got := strings.Contains(out.out, MarkdownEscape(pr.T("stderr_label"))); got != tt.stderrOut {
						t.Errorf("%s: stderr shown %v, want %v:\n%s", out.kind, got, tt.stderrOut, out.out)
					}
					if tt.stdout && !strings.Contains(out.out, strings.TrimSpace(cs.Got)) {
						t.Errorf("%s: the program's stdout %q not shown:\n%s", out.kind, cs.Got, out.out)
					}
					if tt.stderrOut && !strings.Contains(out.out, strings.TrimSpace(cs.Stderr)) {
						t.Errorf("%s: the program's stderr %q not shown:\n%s", out.kind, cs.Stderr, out.out)
					}
				}
			})
		}
	}
}

// TestStreamMessagesHidden keeps a hidden case's pattern to itself: the redaction takes the message
// and the pattern away, in the terminal as in Markdown.
func TestStreamMessagesHidden(t *testing.T) {
	res := &checker.Result{Exercise: "exercise-x", Verdict: checker.Fail, Total: 1, Cases: []checker.CaseResult{{
		Name: "13", Title: "too many", Status: checker.Fail, Message: checker.MsgStderrNoMatch, Pattern: "secret-12",
	}}}
	for _, lang := range []string{"ru", "bg", "en"} {
		var text, md strings.Builder
		Text(&text, res.Redacted(), i18n.New(lang), Options{})
		Markdown(&md, res, i18n.New(lang), Options{})
		for _, out := range []string{text.String(), md.String()} {
			if strings.Contains(out, "secret-12") || strings.Contains(out, checker.MsgStderrNoMatch) {
				t.Errorf("%s: the hidden case's pattern or code shown:\n%s", lang, out)
			}
		}
	}
}
