package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/i18n"
)

func TestPeekLang(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		lang, messages string
		rest           []string
	}{
		{[]string{"check", "x", "--lang", "ru"}, "ru", "", []string{"check", "x"}},
		{[]string{"-lang=bg", "list", "--messages=en"}, "bg", "en", []string{"list"}},
		{[]string{"run", "x", "--", "--lang", "ru"}, "", "", []string{"run", "x", "--", "--lang", "ru"}},
		{[]string{"list", "--lang"}, "", "", []string{"list", "--lang"}},
	} {
		lang, messages, rest := PeekLang(tc.args)
		if lang != tc.lang || messages != tc.messages || !slices.Equal(rest, tc.rest) {
			t.Errorf("PeekLang(%q) = %q, %q, %q; want %q, %q, %q", tc.args, lang, messages, rest, tc.lang, tc.messages, tc.rest)
		}
	}
}

func TestSplitDashes(t *testing.T) {
	own, rest := SplitDashes([]string{"x", "--dir", "d", "--", "-n", "3"})
	if !slices.Equal(own, []string{"x", "--dir", "d"}) || !slices.Equal(rest, []string{"-n", "3"}) {
		t.Errorf("SplitDashes = %q, %q", own, rest)
	}
	if own, rest := SplitDashes([]string{"x"}); !slices.Equal(own, []string{"x"}) || rest != nil {
		t.Errorf("SplitDashes without -- = %q, %q", own, rest)
	}
}

func TestParse(t *testing.T) {
	ui := i18n.New("en")
	fs := NewFlags("check", ui)
	asJSON := fs.Bool("json", false, "")
	pos, err := Parse(fs, []string{"x", "--json", "y"}, ui, func() { t.Error("help printed") })
	if err != nil || !*asJSON || !slices.Equal(pos, []string{"x", "y"}) {
		t.Errorf("Parse = %q, %v (json %v); want [x y], the flag set", pos, err, *asJSON)
	}
	helped := false
	if _, err := Parse(NewFlags("check", ui), []string{"--help"}, ui, func() { helped = true }); !errors.Is(err, flag.ErrHelp) || !helped {
		t.Errorf("Parse(--help) = %v, help printed %v; want flag.ErrHelp, printed", err, helped)
	}
	fs = NewFlags("check", ui)
	fs.Bool("json", false, "")
	_, err = Parse(fs, []string{"--jsno"}, ui, func() {})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 2 || !strings.Contains(ee.Msg, "--json") {
		t.Errorf("Parse(--jsno) = %v, want an exit error 2 that suggests --json", err)
	}
}

func TestExit(t *testing.T) {
	ui := i18n.New("en")
	for _, tc := range []struct {
		err    error
		code   int
		stderr string
	}{
		{nil, 0, ""},
		{flag.ErrHelp, 0, ""},
		{&ExitError{Code: 1}, 1, ""},
		{fmt.Errorf("wrapped: %w", &ExitError{Code: 2, Msg: "say this"}), 2, "workbook: say this\n"},
		{context.Canceled, 130, "workbook: " + ui.T("err_interrupted") + "\n"},
		{errors.New("broken"), 2, "workbook: broken\n"},
	} {
		var w strings.Builder
		if code := Exit(&w, ui, tc.err); code != tc.code || w.String() != tc.stderr {
			t.Errorf("Exit(%v) = %d, %q; want %d, %q", tc.err, code, w.String(), tc.code, tc.stderr)
		}
	}
}

func TestConfirmed(t *testing.T) {
	for answer, want := range map[string]bool{"y\n": true, " Да ": true, "yes": true, "д": true, "n": false, "": false, "yep": false} {
		if got := Confirmed(answer); got != want {
			t.Errorf("Confirmed(%q) = %v, want %v", answer, got, want)
		}
	}
}
