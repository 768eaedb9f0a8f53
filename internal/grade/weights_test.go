package grade

import (
	"testing"

	"github.com/workbook-course/workbook/checker"
)

func TestCaseWeight(t *testing.T) {
	tests := []struct {
		name, script string
		want         float64
	}{
		{"plain", "# en: the lesson\nrun\nexpect want\n-- want.bg --\nx\n", 1},
		{"usage error", "# en: a negative deadline\n! run -deadline -3\nstatus 2\n", UsageWeight},
		{"weighted", "# en: the core\n# weight: 3\nrun\n", 3},
		{"decimal comma", "# weight: 1,5\n! run -x\n", 1.5},
		{"bad weight ignored", "# weight: -2\nrun\n", 1},
		{"weight inside a file is text", "run\n-- want.bg --\n# weight: 9\n", 1},
	}
	for _, tt := range tests {
		if got := CaseWeight(checker.Case{Name: tt.name, Script: []byte(tt.script)}); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestWeightedScore(t *testing.T) {
	res := []checker.CaseResult{
		{Name: "core", Status: checker.Pass},
		{Name: "usage", Status: checker.Fail},
		{Name: "drawn", Status: checker.Pass},
	}
	weights := map[string]float64{"core": 2, "usage": 0.5}
	// (2 + 1) of (2 + 0.5 + 1)
	if got, want := weightedScore(res, weights), 85.71; got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := weightedScore(nil, weights); got != 0 {
		t.Errorf("no cases: got %v, want 0", got)
	}
}
