package grade

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
)

// shippedWinnower fingerprints with what grading leaves out for exercise-deadline (Job.readCourse:
// its starters, hints and reference solutions, and the rest of the course's code), and nothing of
// the course's earlier versions: earlierHint is not among it.
func shippedWinnower(t *testing.T) (*winnower, string) {
	t.Helper()
	ex, err := course.New(workbook.Content()).Exercise("exercise-deadline")
	if err != nil {
		t.Fatal(err)
	}
	job := &Job{}
	job.readCourse(ex, workbook.Content())
	return newWinnower(job.Starters, job.Hints, job.Solutions), string(courseFile(t, "exercises/exercise-deadline/bg/main.go"))
}

// unit is a function of its own: statements whose numbers come from r, so that no two units share
// a run of tokens.
func unit(r *rand.Rand, name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "func %s(n int) int {\n\tx := n\n", name)
	ops := []string{"+", "-", "*", "%", "^", "|"}
	for range 9 {
		switch r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "\tx = x %s %d\n", ops[r.IntN(len(ops))], 2+r.IntN(997))
		case 1:
			fmt.Fprintf(&b, "\tif x > %d {\n\t\tx -= %d\n\t}\n", 10+r.IntN(9000), 1+r.IntN(500))
		default:
			fmt.Fprintf(&b, "\tfor i := 0; i < %d; i++ {\n\t\tx += i * %d\n\t}\n", 2+r.IntN(50), 1+r.IntN(300))
		}
	}
	b.WriteString("\treturn x\n}\n")
	return b.String()
}

// program is the starter with a withDeadline of no interest that calls each unit, and the units
// after it (a function nothing calls never runs, and copy detection leaves it out).
func program(t *testing.T, starter string, units ...string) Source {
	t.Helper()
	var calls []string
	for _, u := range units {
		name, _, _ := strings.Cut(strings.TrimPrefix(u, "func "), "(")
		calls = append(calls, "\tdeadline += "+name+"(deadline)\n")
	}
	body := "func withDeadline(answers []string, deadline int) string {\n" + strings.Join(calls, "") +
		"\treturn answerAt(answers, deadline)\n}\n\n" + strings.Join(units, "\n")
	return withBody(t, starter, body)
}

// transitive is the groups that joining every pair at threshold, as grade did before, would give.
func transitive(pairs []CopyPair, threshold float64) [][]string {
	parent := map[string]string{}
	var find func(string) string
	find = func(s string) string {
		if p, ok := parent[s]; ok && p != s {
			parent[s] = find(p)
			return parent[s]
		}
		parent[s] = s
		return s
	}
	for _, p := range pairs {
		if p.Similarity >= threshold {
			parent[find(p.A)] = find(p.B)
		}
	}
	by := map[string][]string{}
	for s := range parent {
		by[find(s)] = append(by[find(s)], s)
	}
	var out [][]string
	for _, g := range by {
		sort.Strings(g)
		out = append(out, g)
	}
	return out
}

// checkComplete fails when two students of a group are not a pair that reaches threshold.
func checkComplete(t *testing.T, groups []CopyGroup, pairs []CopyPair, threshold float64) {
	t.Helper()
	sim := map[string]float64{}
	for _, p := range pairs {
		sim[p.A+"\x00"+p.B] = p.Similarity
	}
	for _, g := range groups {
		if g.Solution != "" {
			continue
		}
		for i, a := range g.Students {
			for _, b := range g.Students[i+1:] {
				if s := sim[a+"\x00"+b]; s < threshold {
					t.Errorf("group %v joins %s and %s, alike %.3f, under %.2f", g.Students, a, b, s, threshold)
				}
			}
		}
	}
}

// TestCopiesGeneratedClass is a generated class of 104: 58 programs of their own, a chain of 20 in
// which each program shares two of its three functions with the next (so every two neighbours
// pass 0.5 and the ends share nothing), four copy rings (4, 3, 2 and 2 students: renamed,
// reordered, dead lines), 12 programs that all hold one function that is no student's (an earlier
// hint's, which the course no longer ships) besides one of their own, and 3 reference solutions.
// Joined transitively, the chain is one group of 20; grouped by complete linkage, every group is
// a clique above the threshold, the rings are found whole, and the shared function joins no one.
func TestCopiesGeneratedClass(t *testing.T) {
	w, starter := shippedWinnower(t)
	r := rand.New(rand.NewPCG(40, 4))
	var students []Student
	add := func(name string, src Source) {
		students = append(students, Student{Name: name, Winnow: w.of(src)})
	}
	for i := range 58 {
		add(fmt.Sprintf("own%02d", i), program(t, starter, unit(r, "a"), unit(r, "b"), unit(r, "c")))
	}
	chain := make([]string, 22)
	for i := range chain {
		chain[i] = unit(r, fmt.Sprintf("c%d", i))
	}
	for i := range 20 {
		add(fmt.Sprintf("chain%02d", i), program(t, starter, chain[i], chain[i+1], chain[i+2]))
	}
	rings := map[string]int{"ringA": 4, "ringB": 3, "ringC": 2, "ringD": 2}
	for _, name := range []string{"ringA", "ringB", "ringC", "ringD"} {
		units := []string{unit(r, "p"), unit(r, "q"), unit(r, "s")}
		for k := range rings[name] {
			us := slices.Clone(units)
			switch k {
			case 1: // renamed and reordered
				us[0], us[2] = strings.ReplaceAll(us[2], "x", "acc"), strings.ReplaceAll(us[0], "x", "total")
			case 2: // dead lines
				us[1] = strings.Replace(us[1], "\tx := n\n", "\tx := n\n\tunused := 0\n\t_ = unused\n", 1)
			case 3:
				us = append(us, "func extra(n int) int { return n }\n")
			}
			add(fmt.Sprintf("%s%d", name, k), program(t, starter, us...))
		}
	}
	old := unit(r, "oldHint")
	for i := range 12 {
		add(fmt.Sprintf("hint%02d", i), program(t, starter, old, unit(r, "mine")))
	}
	ref := Source{Files: map[string][]byte{"main.go": courseFile(t, "solutions/exercise-deadline/bg/main.go")}}
	for i := range 3 {
		add(fmt.Sprintf("ref%d", i), ref)
	}
	if len(students) != 104 {
		t.Fatalf("the class has %d students, want 104", len(students))
	}

	groups, pairs := winnowCopiesAt(students, DefaultCopyThreshold)
	biggest := 0
	for _, g := range transitive(pairs, DefaultCopyThreshold) {
		biggest = max(biggest, len(g))
	}
	if biggest < 20 {
		t.Fatalf("joined transitively the largest group has %d students; the class does not show the chain (want 20)", biggest)
	}
	checkComplete(t, groups, pairs, DefaultCopyThreshold)
	found := map[string]bool{}
	for _, g := range groups {
		joined := strings.Join(g.Students, " ")
		switch {
		case g.Solution != "":
			if joined != "ref0 ref1 ref2" {
				t.Errorf("reference group: %q", joined)
			}
		case strings.HasPrefix(g.Students[0], "ring"):
			name := g.Students[0][:5]
			want := make([]string, rings[name])
			for k := range want {
				want[k] = fmt.Sprintf("%s%d", name, k)
			}
			if joined != strings.Join(want, " ") {
				t.Errorf("ring %s: got %q, want %q", name, joined, strings.Join(want, " "))
			}
			found[name] = true
		case strings.HasPrefix(g.Students[0], "chain"):
			if len(g.Students) > 2 {
				t.Errorf("a group of the chain holds %d students: %v", len(g.Students), g.Students)
			}
		default:
			t.Errorf("unexpected group %q", joined)
		}
	}
	if len(found) != len(rings) {
		t.Errorf("rings found: %v, want all of %v", found, rings)
	}
	for _, p := range pairs {
		if strings.HasPrefix(p.A, "hint") || strings.HasPrefix(p.A, "own") {
			t.Errorf("pair %s %s (%.3f): they share nothing of their own", p.A, p.B, p.Similarity)
		}
	}
	// The rings are the most alike pairs: the top of the list.
	for _, p := range pairs[:8] {
		if !strings.HasPrefix(p.A, "ring") {
			t.Errorf("pair %s %s (%.3f) ranks above a ring's", p.A, p.B, p.Similarity)
		}
	}

	// A stricter threshold keeps the rings and lets no pair of the chain group.
	groups, pairs = winnowCopiesAt(students, 0.8)
	checkComplete(t, groups, pairs, 0.8)
	for _, g := range groups {
		if strings.HasPrefix(g.Students[0], "chain") {
			t.Errorf("at 0.8, a group of the chain: %v", g.Students)
		}
	}
	if len(groups) != 5 {
		t.Errorf("at 0.8: %d groups, want the 4 rings and the reference", len(groups))
	}
}

// TestCopiesHandWrittenClass is a class of 22: the seven programs written from exercise-deadline's
// earlier hint (which the course no longer ships, so it is not among the code left out), four
// versions of one program of its own (dead lines, reordered and renamed, translated), and eleven
// programs of their own. The earlier hint's loop makes no group of the seven (two that kept it
// as given are a pair); the four versions are one group.
func TestCopiesHandWrittenClass(t *testing.T) {
	w, starter := shippedWinnower(t)
	r := rand.New(rand.NewPCG(22, 1))
	var students []Student
	add := func(name string, src Source) {
		students = append(students, Student{Name: name, Winnow: w.of(src)})
	}
	for i, body := range fromHints {
		add(fmt.Sprintf("hints%d", i+1), withBody(t, starter, body))
	}
	add("own", withBody(t, starter, ownBody))
	add("dead", withBody(t, starter, strings.Replace(ownBody, "\tp := 1\n", "\tp := 1\n\tx := 0\n\t_ = x\n", 1)))
	i, j := strings.Index(ownBody, "type try"), strings.Index(ownBody, "func pause")
	add("reordered", withBody(t, starter, strings.NewReplacer("log", "history", "pause", "delay", "try", "record").Replace(ownBody[j:]+"\n"+ownBody[i:j]+ownBody[:i])))
	add("translated", withBody(t, starter, strings.NewReplacer("тик", "такт", "опит", "попытка", "спирам", "стоп").Replace(ownBody)))
	for k := range 11 {
		add(fmt.Sprintf("solo%02d", k), program(t, starter, unit(r, "a"), unit(r, "b")))
	}
	if len(students) != 22 {
		t.Fatalf("the class has %d students, want 22", len(students))
	}
	groups, pairs := winnowCopiesAt(students, DefaultCopyThreshold)
	checkComplete(t, groups, pairs, DefaultCopyThreshold)
	var got []string
	for _, g := range groups {
		got = append(got, strings.Join(g.Students, " "))
	}
	// hints1 and hints6 are the earlier hint's loop as it was given, completed the same way: with
	// that hint gone from the course, nothing tells them from a copy, and they are a pair to review.
	if want := []string{"dead own reordered translated", "hints1 hints6"}; !slices.Equal(got, want) {
		t.Errorf("groups: got %q, want %q", got, want)
	}
	for _, p := range pairs {
		if p.A == "hints1" && p.B == "hints6" {
			continue
		}
		if strings.HasPrefix(p.A, "hints") || strings.HasPrefix(p.B, "hints") || strings.HasPrefix(p.A, "solo") {
			t.Errorf("pair %s %s (%.3f): not a copy", p.A, p.B, p.Similarity)
		}
		if p.LinesA == "" || p.LinesB == "" {
			t.Errorf("pair %s %s names no shared lines", p.A, p.B)
		}
	}
}

// TestCopiesLessonCode: two students who took the same function from a lesson, each beside code of
// their own, are no pair; the same function not from the course pairs them.
func TestCopiesLessonCode(t *testing.T) {
	w, starter := shippedWinnower(t)
	lesson := string(courseFile(t, "lessons/real-go/ru.md"))
	i := strings.Index(lesson, "func retry(ctx context.Context")
	if i < 0 {
		t.Fatal("lessons/real-go/ru.md has no func retry")
	}
	retry := lesson[i : i+strings.Index(lesson[i:], "\n}\n")+3]
	r := rand.New(rand.NewPCG(7, 7))
	foreign := unit(r, "retry")
	for _, tc := range []struct {
		name   string
		shared string
		paired bool
	}{
		{"the lesson's function", retry, false},
		{"a function from elsewhere", foreign, true},
	} {
		students := []Student{
			{Name: "a", Winnow: w.of(program(t, starter, tc.shared, unit(r, "mine")))},
			{Name: "b", Winnow: w.of(program(t, starter, tc.shared, unit(r, "mine")))},
		}
		_, pairs := winnowCopiesAt(students, DefaultCopyThreshold)
		if got := len(pairs) == 1; got != tc.paired {
			t.Errorf("%s: paired %v (%+v), want %v", tc.name, got, pairs, tc.paired)
		}
	}
}

func TestCompleteLinkage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		links []linked
		want  [][]int
	}{
		{"none", 3, nil, nil},
		{"a pair", 3, []linked{{0, 2, 0.9}}, [][]int{{0, 2}}},
		{"a chain is not a group", 3, []linked{{0, 1, 0.6}, {1, 2, 0.7}}, [][]int{{1, 2}}},
		{"a clique", 4, []linked{{0, 1, 0.9}, {0, 2, 0.8}, {1, 2, 0.7}, {2, 3, 0.95}}, [][]int{{0, 1}, {2, 3}}},
		{"a whole clique", 3, []linked{{0, 1, 0.9}, {0, 2, 0.8}, {1, 2, 0.7}}, [][]int{{0, 1, 2}}},
	} {
		if got := completeLinkage(tc.n, tc.links); !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
