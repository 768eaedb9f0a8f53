package vet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// minPrograms is how many programs of the corpus each rule must find.
const minPrograms = 3

var wantRE = regexp.MustCompile(`// want((?: "[a-z_0-9]+")+)`)

// TestCorpus runs vet over every program of testdata/corpus, each a learner's program with seeded
// mistakes (or none): the findings must be exactly those its `// want "rule"` comments name, line
// by line, and every rule must find at least three programs of the corpus.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	programs := map[string]int{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i, line := range strings.Split(string(data), "\n") {
			if m := wantRE.FindStringSubmatch(line); m != nil {
				for _, r := range strings.Fields(m[1]) {
					want = append(want, fmt.Sprintf("%d %s", i+1, strings.Trim(r, `"`)))
				}
			}
		}
		findings, err := Files(context.Background(), []checker.SourceFile{{Name: "main.go", Data: data}})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		var got []string
		seen := map[string]bool{}
		for _, f := range findings {
			got = append(got, fmt.Sprintf("%d %s", f.Line, f.Rule))
			if !seen[f.Rule] {
				seen[f.Rule] = true
				programs[f.Rule]++
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got  %q\n want %q", file, got, want)
		}
	}
	for _, r := range Rules {
		if programs[r] < minPrograms {
			t.Errorf("rule %s finds %d programs of the corpus, want at least %d", r, programs[r], minPrograms)
		}
	}
}
