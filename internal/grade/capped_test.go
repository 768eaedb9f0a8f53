package grade

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/workbook-course/workbook/checker"
)

func TestCapText(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantKept int // bytes of in kept; len(in) when nothing is cut
	}{
		{"short", "опит 1\n", len("опит 1\n")},
		{"empty", "", 0},
		{"exactly the cap", strings.Repeat("x", maxKept), maxKept},
		{"one byte over", strings.Repeat("x", maxKept+1), maxKept},
		{"a megabyte", strings.Repeat("noise\n", 1<<20/6), maxKept},
		// Two-byte letters with one byte in front: the cap falls inside a letter, which is kept whole
		// or not at all.
		{"cut inside a letter", "x" + strings.Repeat("ж", maxKept), maxKept - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := capText(tt.in)
			if tt.wantKept == len(tt.in) {
				if got != tt.in {
					t.Errorf("changed a text under the cap")
				}
				return
			}
			if !strings.HasPrefix(got, tt.in[:tt.wantKept]) || len(got) > tt.wantKept+100 {
				t.Errorf("kept %d bytes, want the first %d", len(got), tt.wantKept)
			}
			if !strings.Contains(got, "[workbook: cut here,") {
				t.Errorf("no note that the text was cut: %q", got[len(got)-80:])
			}
			if !utf8.ValidString(got) {
				t.Errorf("the cut text is not valid UTF-8")
			}
		})
	}
}

func TestCapResult(t *testing.T) {
	big := strings.Repeat("y", 3*maxKept)
	diff := &checker.Diff{Line: 1, Want: "ok", Got: big}
	res := &checker.Result{BuildLog: big, Cases: []checker.CaseResult{{Name: "01", Got: big, Stderr: big, Message: "m", Diff: diff}}}
	capResult(res)
	c := res.Cases[0]
	for name, s := range map[string]string{"build log": res.BuildLog, "got": c.Got, "stderr": c.Stderr, "diff got": c.Diff.Got} {
		if len(s) > maxKept+100 {
			t.Errorf("%s: %d bytes kept, want at most %d and a note", name, len(s), maxKept)
		}
	}
	if c.Message != "m" || c.Diff.Want != "ok" || c.Diff.Line != 1 {
		t.Errorf("what was under the cap changed: %+v", c)
	}
	if diff.Got != big {
		t.Errorf("capResult changed the Diff it was given instead of a copy")
	}
}
