package verify

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/mutate"
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

// TestSample checks the part of the mutants a quick mutation run takes: the same on every call,
// every mutant for every <= 1, about one in every otherwise, and every operator of the solution in it.
func TestSample(t *testing.T) {
	file := "../../solutions/exercise-deadline/ru/main.go"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Skip("no solution beside the package")
	}
	all, err := mutate.Generate(file, src)
	if err != nil {
		t.Fatal(err)
	}
	ops := func(ms []mutate.Mutant) map[string]bool {
		set := map[string]bool{}
		for _, mu := range ms {
			set[mu.Op] = true
		}
		return set
	}
	for _, tc := range []struct {
		every    int
		min, max float64 // the share of the mutants kept
	}{
		{every: 0, min: 1, max: 1},
		{every: 1, min: 1, max: 1},
		{every: 5, min: 0.1, max: 0.4},
		{every: 20, min: 0.02, max: 0.25},
	} {
		got := sample("ru/main.go", all, tc.every)
		if again := sample("ru/main.go", all, tc.every); !reflect.DeepEqual(got, again) {
			t.Errorf("every %d: two calls keep different mutants", tc.every)
		}
		share := float64(len(got)) / float64(len(all))
		if share < tc.min || share > tc.max {
			t.Errorf("every %d: kept %d of %d mutants (%.2f), want a share in [%.2f, %.2f]",
				tc.every, len(got), len(all), share, tc.min, tc.max)
		}
		if want := ops(all); !reflect.DeepEqual(ops(got), want) {
			t.Errorf("every %d: operators %v, want all of %v", tc.every, ops(got), want)
		}
	}
}
