package tty

import (
	"strings"
	"testing"
)

func TestPaint(t *testing.T) {
	on, off := Paint{On: true}, Paint{}
	for _, tc := range []struct{ got, want string }{
		{on.Green("ok"), "\x1b[32mok\x1b[0m"},
		{on.Red("no"), "\x1b[31mno\x1b[0m"},
		{on.Yellow("~"), "\x1b[33m~\x1b[0m"},
		{on.Dim("·"), "\x1b[2m·\x1b[0m"},
		{on.Bold("T"), "\x1b[1mT\x1b[0m"},
		{on.Bold(""), ""},
		{off.Green("ok"), "ok"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestColors(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	var b strings.Builder
	if Colors(&b, env()) {
		t.Error("a buffer got colours")
	}
	if Colors(&b, env("NO_COLOR", "1")) || Colors(&b, env("TERM", "dumb")) {
		t.Error("colours with NO_COLOR or TERM=dumb")
	}
}
