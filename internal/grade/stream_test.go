package grade

import (
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestStreamTestMessage says a failed stdout or stderr line of a case in the instructor's one English
// line: the pattern "." in words of its own, another pattern named, never testscript's raw line.
func TestStreamTestMessage(t *testing.T) {
	tests := []struct {
		msg, pattern, want string
	}{
		{checker.MsgStdoutMatch, ".", "the program printed on stdout; this case expects stdout to stay empty"},
		{checker.MsgStdoutMatch, "опит", "stdout matches `опит`, which this case does not allow"},
		{checker.MsgStdoutNoMatch, ".", "the program printed nothing on stdout; this case expects output there"},
		{checker.MsgStdoutNoMatch, `storm \[-rule`, "nothing on stdout matches `storm \\[-rule`"},
		{checker.MsgStderrMatch, ".", "the program wrote to stderr; this case expects stderr to stay empty"},
		{checker.MsgStderrMatch, "panic", "stderr matches `panic`, which this case does not allow"},
		{checker.MsgStderrNoMatch, ".", "the program wrote nothing to stderr; this case expects an error message there"},
		{checker.MsgStderrNoMatch, "12", "nothing on stderr matches `12`"},
		{checker.MsgStderrNoMatch, "a`b", "nothing on stderr matches \"a`b\""},
	}
	two := 2
	for _, tt := range tests {
		c := checker.CaseResult{Name: "03", Status: checker.Fail, ExitCode: 2, WantExit: &two, Message: tt.msg, Pattern: tt.pattern}
		got := testMessage(c)
		if got != tt.want {
			t.Errorf("%s %q: got %q, want %q", tt.msg, tt.pattern, got, tt.want)
		}
		if strings.Contains(got, "FAIL:") || strings.Contains(got, "/tmp") {
			t.Errorf("%s %q: testscript's line in %q", tt.msg, tt.pattern, got)
		}
	}
}
