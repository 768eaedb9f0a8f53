package course

import (
	"strings"
	"testing"
)

func TestParseEquivalents(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []Equivalent
		err        string
	}{
		{"comments and blanks", "# a comment\n\n   \n", nil, ""},
		{"one", "bg/main.go:65: `k > 20` → `k >= 20` # base<<19 is above every cap\n",
			[]Equivalent{{File: "bg/main.go", Line: 65, What: "`k > 20` → `k >= 20`", Reason: "base<<19 is above every cap", At: 1}}, ""},
		{"a colon and a hash in what", "# x\nru/main.go:7: removed `x := \"a: #b\"` # never read\n",
			[]Equivalent{{File: "ru/main.go", Line: 7, What: "removed `x := \"a: #b\"`", Reason: "never read", At: 2}}, ""},
		{"no reason", "bg/main.go:3: `1` → `2`\n", nil, "FILE:LINE: WHAT # REASON"},
		{"empty reason", "bg/main.go:3: `1` → `2` # \n", nil, "FILE:LINE: WHAT # REASON"},
		{"no line", "bg/main.go: `1` → `2` # why\n", nil, "FILE:LINE: WHAT # REASON"},
		{"line zero", "bg/main.go:0: `1` → `2` # why\n", nil, "FILE:LINE: WHAT # REASON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseEquivalents("equivalent.txt", []byte(tc.text))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("entry %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestStudentSeed(t *testing.T) {
	a, b := StudentSeed(1, "ann"), StudentSeed(1, "bob")
	if a == b {
		t.Errorf("ann and bob share the seed %d", a)
	}
	if StudentSeed(1, "ann") != a {
		t.Error("the same student and seed gave two seeds")
	}
	if StudentSeed(2, "ann") == a {
		t.Error("seeds 1 and 2 gave ann the same seed")
	}
}
