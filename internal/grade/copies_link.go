package grade

import (
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strconv"
	"strings"
)

// How suspected copies are told apart from code the class shares for a good reason, and how they
// are grouped.
//
// A pair of students is listed when their own code (the course's code left out, see courseCode)
// shares at least minShared fingerprints and at least pairFloor of the smaller program's own ones;
// the list is ranked by that similarity, the most alike first, and each pair says which lines of
// each program it shares (CopyPair.LinesA, LinesB).
//
// A group is a set of students every two of whom pass the threshold (Report.CopyThreshold, grade's
// --similarity, DefaultCopyThreshold when not given): complete linkage, built greedily from the most
// alike pairs, so that a chain of weak pairs (A like B, B like C, C unlike A) never joins A and C.
//
// Code that many students share is nobody's copy: a fingerprint found in the programs of more than
// commonLimit students (MOSS's -m) is left out of every pair, as the course's own code is. It is
// what an earlier version of a hint or a lesson's snippet leaves in a class when that version no
// longer ships with the tool: only the starters, hints and lesson snippets of the course as it
// ships are known at run time, not those of its history.
const (
	// DefaultCopyThreshold is the similarity every two students of a group must reach.
	DefaultCopyThreshold = 0.5
	// pairFloor is the least similarity of a pair listed, whatever the threshold.
	pairFloor = 0.5
	// commonLeast is the fewest students a fingerprint may be found in before it is left out as
	// common (commonLimit grows with the class).
	commonLeast = 5
)

// commonLimit is how many students may share a fingerprint before it is taken for code the class
// shares for a good reason: a tenth of the class, and never fewer than commonLeast.
func commonLimit(students int) int { return max(commonLeast, students/10) }

// ValidCopyThreshold reports whether t can be a similarity threshold: above 0, at most 1.
func ValidCopyThreshold(t float64) bool { return t > 0 && t <= 1 && !math.IsNaN(t) }

// copyThreshold is the report's threshold, the default for a report that names none.
func (r *Report) copyThreshold() float64 {
	if ValidCopyThreshold(r.CopyThreshold) {
		return r.CopyThreshold
	}
	return DefaultCopyThreshold
}

// WinnowCopies finds the suspected copies among students with Winnows at DefaultCopyThreshold (see
// winnowCopiesAt).
func WinnowCopies(students []Student) ([]CopyGroup, []CopyPair) {
	return winnowCopiesAt(students, DefaultCopyThreshold)
}

// winnowCopiesAt finds the suspected copies among students with Winnows: the copies of a reference
// solution, grouped by its languages, apart; then every pair whose own code shares enough, ranked,
// and the groups of students every two of whom reach threshold.
func winnowCopiesAt(students []Student, threshold float64) ([]CopyGroup, []CopyPair) {
	groups, own := referenceGroups(students)
	sets := ownSets(own)
	floor := min(threshold, pairFloor)
	pairs := []CopyPair{}
	var strong []linked
	for i := range own {
		for j := i + 1; j < len(own); j++ {
			shared := 0
			for h := range sets[i] {
				if sets[j][h] {
					shared++
				}
			}
			small := min(len(sets[i]), len(sets[j]))
			if shared < minShared || small == 0 {
				continue
			}
			sim := float64(shared) / float64(small)
			if sim < floor {
				continue
			}
			p := CopyPair{A: own[i].Name, B: own[j].Name, Similarity: math.Floor(sim*1000) / 1000, Shared: shared}
			wa, wb := own[i].Winnow, own[j].Winnow
			if p.B < p.A {
				p.A, p.B = p.B, p.A
				wa, wb = wb, wa
			}
			p.LinesA, p.LinesB = sharedLines(wa, sets[i], sets[j]), sharedLines(wb, sets[i], sets[j])
			pairs = append(pairs, p)
			if sim >= threshold {
				strong = append(strong, linked{i, j, sim})
			}
		}
	}
	for _, members := range completeLinkage(len(own), strong) {
		g := CopyGroup{Tokens: math.MaxInt}
		for _, i := range members {
			g.Students = append(g.Students, own[i].Name)
			g.Tokens = min(g.Tokens, len(sets[i]))
		}
		sort.Strings(g.Students)
		h := fnv.New64a()
		h.Write([]byte(strings.Join(g.Students, "\x00")))
		g.Hash = fmt.Sprintf("winnow:%016x", h.Sum64()) // names the group, as a print's hash did
		groups = append(groups, g)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		if len(groups[i].Students) != len(groups[j].Students) {
			return len(groups[i].Students) > len(groups[j].Students)
		}
		return groups[i].Students[0] < groups[j].Students[0]
	})
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].Similarity != pairs[j].Similarity {
			return pairs[i].Similarity > pairs[j].Similarity
		}
		if pairs[i].A != pairs[j].A {
			return pairs[i].A < pairs[j].A
		}
		return pairs[i].B < pairs[j].B
	})
	return groups, pairs
}

// referenceGroups puts the students whose program is a reference solution into a group per
// solution's languages, and returns the others that have code of their own.
func referenceGroups(students []Student) ([]CopyGroup, []Student) {
	groups := []CopyGroup{}
	byKey := map[string]int{}
	var own []Student
	for _, st := range students {
		w := st.Winnow
		if w == nil {
			continue
		}
		if len(w.Reference) == 0 {
			if len(w.Marks) > 0 {
				own = append(own, st)
			}
			continue
		}
		var langs []string
		for l := range w.Reference {
			langs = append(langs, l)
		}
		sort.Strings(langs)
		key := strings.Join(langs, "/")
		i, ok := byKey[key]
		if !ok {
			i = len(groups)
			byKey[key] = i
			groups = append(groups, CopyGroup{Solution: key, Tokens: w.All, Hash: "reference:" + key})
		}
		groups[i].Students = append(groups[i].Students, st.Name)
	}
	for i := range groups {
		sort.Strings(groups[i].Students)
	}
	return groups, own
}

// ownSets is each student's fingerprints, those that more than commonLimit students share left out.
func ownSets(own []Student) []map[uint32]bool {
	sets := make([]map[uint32]bool, len(own))
	count := map[uint32]int{}
	for i, st := range own {
		sets[i] = hashSet(st.Winnow.Marks)
		for h := range sets[i] {
			count[h]++
		}
	}
	limit := commonLimit(len(own))
	for _, set := range sets {
		for h := range set {
			if count[h] > limit {
				delete(set, h)
			}
		}
	}
	return sets
}

// sharedLines is the lines of w that hold fingerprints of both a and b, as "3-9, 14".
func sharedLines(w *Winnow, a, b map[uint32]bool) string {
	var spans [][2]int
	for _, m := range w.Marks {
		if a[m.H] && b[m.H] {
			spans = append(spans, [2]int{m.From, m.To})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var merged [][2]int
	for _, s := range spans {
		if n := len(merged); n > 0 && s[0] <= merged[n-1][1]+1 {
			merged[n-1][1] = max(merged[n-1][1], s[1])
			continue
		}
		merged = append(merged, s)
	}
	parts := make([]string, len(merged))
	for i, s := range merged {
		parts[i] = strconv.Itoa(s[0])
		if s[1] > s[0] {
			parts[i] += "-" + strconv.Itoa(s[1])
		}
	}
	return strings.Join(parts, ", ")
}

// linked is a pair of programs (by index) that reaches the threshold, and how alike they are.
type linked struct {
	a, b int
	sim  float64
}

// completeLinkage groups n programs by agglomerative clustering with complete linkage: two
// clusters are joined only when every program of one is linked to every program of the other, the
// pair of clusters whose least similarity is highest first (ties by the lowest indexes, so the
// grouping does not depend on map order). It returns the groups of two or more, each sorted.
func completeLinkage(n int, links []linked) [][]int {
	// link[c][d] is the least similarity between clusters c and d, present only when every pair
	// of their members is linked.
	link := map[int]map[int]float64{}
	set := func(c, d int, s float64) {
		if link[c] == nil {
			link[c] = map[int]float64{}
		}
		if link[d] == nil {
			link[d] = map[int]float64{}
		}
		link[c][d], link[d][c] = s, s
	}
	for _, l := range links {
		set(l.a, l.b, l.sim)
	}
	members := map[int][]int{}
	for i := 0; i < n; i++ {
		members[i] = []int{i}
	}
	for {
		bc, bd, best := -1, -1, -1.0
		for c, row := range link {
			for d, s := range row {
				if c >= d {
					continue
				}
				if s > best || (s == best && (c < bc || (c == bc && d < bd))) {
					bc, bd, best = c, d, s
				}
			}
		}
		if bc < 0 {
			break
		}
		// bd joins bc: bc keeps a link to a cluster only where both had one.
		for e, s := range link[bc] {
			if e == bd {
				continue
			}
			if t, ok := link[bd][e]; ok {
				set(bc, e, min(s, t))
			} else {
				delete(link[bc], e)
				delete(link[e], bc)
			}
		}
		for e := range link[bd] {
			delete(link[e], bd)
		}
		delete(link, bd)
		delete(link[bc], bd)
		members[bc] = append(members[bc], members[bd]...)
		delete(members, bd)
	}
	var out [][]int
	for _, m := range members {
		if len(m) > 1 {
			sort.Ints(m)
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
