package course

import (
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/workbook-course/workbook/internal/lesson"
)

// maxRetyped is the largest share of a solution's new lines that may stand, as they are, in a
// lesson's code. Above it an exercise is a retype of the lesson: it asks the learner to copy, not to
// apply an idea to a situation the lesson did not solve.
const maxRetyped = 0.25

// notReworked are exercises still above maxRetyped, each with the share it stands at now: the test
// holds them there, and logs when one has dropped under the bar (then it leaves this list). Every
// exercise is under the bar now; an exercise may enter the list only with a reason and an issue.
var notReworked = map[string]float64{}

// TestNotARetype measures, for every exercise and language, the lines a learner adds to the starter
// to reach the reference solution (a line diff, whitespace normalised, lines without a letter or
// digit and comments left out) and the share of them found verbatim in any program of any lesson.
func TestNotARetype(t *testing.T) {
	fsys := os.DirFS("../..")
	taught := lessonLines(t, fsys)
	names, err := fs.Glob(fsys, "exercises/*/exercise.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		ex := path.Base(path.Dir(name))
		for _, lang := range lesson.Langs {
			starter, err1 := fs.ReadFile(fsys, path.Join("exercises", ex, lang, "main.go"))
			solution, err2 := fs.ReadFile(fsys, path.Join("solutions", ex, lang, "main.go"))
			if err1 != nil || err2 != nil {
				continue
			}
			added := addedLines(codeLines(string(starter)), codeLines(string(solution)))
			share, retyped := retypedShare(added, taught)
			t.Logf("%s/%s: %d added lines, %.2f in a lesson", ex, lang, len(added), share)
			if limit, ok := notReworked[ex]; ok {
				if share > limit {
					t.Errorf("%s/%s: %.2f of the added lines stand in a lesson, more than the %.2f it was left at", ex, lang, share, limit)
				} else if share <= maxRetyped {
					t.Logf("%s/%s is under the bar now: take it off notReworked", ex, lang)
				}
				continue
			}
			if share > maxRetyped {
				sort.Strings(retyped)
				t.Errorf("%s/%s: %.2f of the %d lines a learner adds stand as they are in a lesson (at most %.2f):\n\t%s",
					ex, lang, share, len(added), maxRetyped, strings.Join(retyped, "\n\t"))
			}
		}
	}
}

func TestRetypedShare(t *testing.T) {
	taught := map[string]bool{"x := 1": true, "return x": true}
	starter := codeLines("func f() int {\n\treturn 0\n}\n")
	solution := codeLines("func f() int {\n\t// a comment\n\tx  := 1\n\ty := 2\n\treturn x\n}\n")
	added := addedLines(starter, solution)
	if want := []string{"x := 1", "y := 2", "return x"}; strings.Join(added, "|") != strings.Join(want, "|") {
		t.Fatalf("added = %q, want %q", added, want)
	}
	if share, _ := retypedShare(added, taught); share < 0.66 || share > 0.67 {
		t.Errorf("share = %v, want 2/3", share)
	}
	if share, _ := retypedShare(nil, taught); share != 0 {
		t.Errorf("share of nothing = %v, want 0", share)
	}
}

// lessonLines returns every line of code of every lesson program (hidden blocks, quizzes and fixes
// included), normalised.
func lessonLines(t *testing.T, fsys fs.FS) map[string]bool {
	t.Helper()
	files, err := fs.Glob(fsys, "lessons/*/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lessons: %v", err)
	}
	lines := map[string]bool{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := lesson.Parse(f, data)
		for _, b := range l.Blocks {
			if b.Kind == lesson.GoBlock || b.Kind == lesson.FixBlock {
				for _, line := range codeLines(b.Text) {
					lines[line] = true
				}
			}
		}
	}
	return lines
}

// codeLines splits Go source into lines with runs of white space made one space; lines without a
// letter or a digit (braces, parentheses) and comment lines are left out: they carry no idea.
func codeLines(src string) []string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if strings.HasPrefix(line, "//") || !strings.ContainsFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		out = append(out, line)
	}
	return out
}

// addedLines returns the lines of b that a longest common subsequence with a does not cover: what
// turns a into b.
func addedLines(a, b []string) []string {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var added []string
	i, j := 0, 0
	for j < m {
		switch {
		case i < n && a[i] == b[j]:
			i++
			j++
		case i < n && lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			added = append(added, b[j])
			j++
		}
	}
	return added
}

// retypedShare is the share of added found in taught, with the lines found.
func retypedShare(added []string, taught map[string]bool) (float64, []string) {
	if len(added) == 0 {
		return 0, nil
	}
	var found []string
	for _, line := range added {
		if taught[line] {
			found = append(found, line)
		}
	}
	return float64(len(found)) / float64(len(added)), found
}
