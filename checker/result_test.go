package checker

import (
	"slices"
	"testing"
)

// TestRedacted checks what a learner's report keeps of each kind of case: everything of a visible
// one; of a hidden one only its name, title and status; of a drawn one its arguments too.
func TestRedacted(t *testing.T) {
	want := 2
	res := &Result{Cases: []CaseResult{
		{Name: "01", Visible: true, Status: Fail, Args: []string{"-x", "1"}, Want: "a\n", Got: "b\n", WantExit: &want},
		{Name: "02", Status: Fail, Args: []string{"-secret", "7"}, Want: "a\n", Got: "b\n", Stderr: "oops", Message: "exit_code", WantExit: &want},
		{Name: "drawn-1", Drawn: true, Status: Fail, Args: []string{"-seed", "9"}, Want: "a\n", Got: "b\n"},
	}}
	got := res.Redacted()
	tests := []struct {
		i        int
		wantArgs []string
		keepText bool
	}{
		{0, []string{"-x", "1"}, true},
		{1, nil, false},
		{2, []string{"-seed", "9"}, false},
	}
	for _, tt := range tests {
		c := got.Cases[tt.i]
		if !slices.Equal(c.Args, tt.wantArgs) {
			t.Errorf("%s: args %q, want %q", c.Name, c.Args, tt.wantArgs)
		}
		if kept := c.Want != "" || c.Got != ""; kept != tt.keepText {
			t.Errorf("%s: want/got kept %v, want %v", c.Name, kept, tt.keepText)
		}
		if !tt.keepText && (c.Stderr != "" || c.Message != "" || c.WantExit != nil || c.Diff != nil) {
			t.Errorf("%s: a hidden case keeps %+v", c.Name, c)
		}
	}
	if res.Cases[1].Want == "" {
		t.Errorf("Redacted changed the result it was given")
	}
}
