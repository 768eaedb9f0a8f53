package grade

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/workbook-course/workbook/checker"
)

// maxWrongGroups bounds how many shared wrong transcripts a report lists.
const maxWrongGroups = 15

// Finalize sorts the students and works out everything derived from them: the summary, how the class
// did on each case, shared wrong transcripts, suspected copies, programs that print by heart, and the
// feedback file names. A single run and a merge of shards both end here.
func (r *Report) Finalize() {
	sort.Slice(r.Students, func(i, j int) bool { return r.Students[i].Name < r.Students[j].Name })
	r.Version = 3
	r.Tool = "workbook grade"
	r.Summary = Summary{Students: len(r.Students)}
	total := 0.0
	names := make([]string, len(r.Students))
	weights := weightsOf(r.Cases)
	for i := range r.Students {
		st := &r.Students[i]
		st.settle(weights)
		names[i] = st.Name
		switch st.Status {
		case StatusPass:
			r.Summary.Pass++
		case StatusFail:
			r.Summary.Fail++
		case StatusMissing:
			r.Summary.Missing++
		case StatusUnchanged:
			r.Summary.Unchanged++
		case StatusTool:
			r.Summary.Tool++
		default:
			r.Summary.Error++
		}
		total += st.Score
	}
	if len(r.Students) > 0 {
		r.Summary.MeanScore = math.Round(total*100/float64(len(r.Students))) / 100
	}
	r.Feedback = FeedbackNames(names)
	r.caseStats()
	// Fingerprints by winnowing, the starter's, the hints' and the reference's code left out; a
	// report whose students have none (merged from an older grader) groups by the older prints.
	winnowed := slices.ContainsFunc(r.Students, func(st Student) bool { return st.Winnow != nil })
	if winnowed {
		r.Copies, r.Pairs = winnowCopiesAt(r.Students, r.copyThreshold())
	} else {
		r.Copies, r.Pairs = Copies(r.Students, r.Solutions), []CopyPair{}
	}
	r.Copies = append(r.Copies, exactCopies(r.Students, r.Copies)...)
	r.ByHeart = []string{}
	for _, st := range r.Students {
		if ByHeart(st.Result) {
			r.ByHeart = append(r.ByHeart, st.Name)
		}
	}
	r.Wrong = wrongGroups(r.Students)
}

func (r *Report) caseStats() {
	idx := map[string]int{}
	for i := range r.Cases {
		r.Cases[i].Passed, r.Cases[i].Ran = 0, 0
		idx[r.Cases[i].Name] = i
	}
	for _, st := range r.Students {
		for _, c := range st.Result.Cases {
			i, ok := idx[c.Name]
			if !ok {
				continue
			}
			r.Cases[i].Ran++
			if c.Status == checker.Pass {
				r.Cases[i].Passed++
			}
		}
	}
}

// Copies groups the students whose Prints are equal (and hold at least minCopyTokens tokens of their
// own code). solutions maps a language to the Print hash of the reference solution in it.
func Copies(students []Student, solutions map[string]string) []CopyGroup {
	byHash := map[string]*CopyGroup{}
	var order []string
	for _, st := range students {
		fp := st.Fingerprint
		if fp.Hash == "" || fp.Tokens < minCopyTokens {
			continue
		}
		g, ok := byHash[fp.Hash]
		if !ok {
			g = &CopyGroup{Hash: fp.Hash, Tokens: fp.Tokens}
			byHash[fp.Hash] = g
			order = append(order, fp.Hash)
		}
		g.Students = append(g.Students, st.Name)
	}
	solLangs := make([]string, 0, len(solutions))
	for l := range solutions {
		solLangs = append(solLangs, l)
	}
	sort.Strings(solLangs)
	groups := []CopyGroup{}
	for _, h := range order {
		g := byHash[h]
		// Translations of one reference solution into the course's languages share its print.
		var langs []string
		for _, l := range solLangs {
			if solutions[l] == h {
				langs = append(langs, l)
			}
		}
		g.Solution = strings.Join(langs, "/")
		if len(g.Students) > 1 || g.Solution != "" {
			sort.Strings(g.Students)
			groups = append(groups, *g)
		}
	}
	sort.Slice(groups, func(i, j int) bool {
		if len(groups[i].Students) != len(groups[j].Students) {
			return len(groups[i].Students) > len(groups[j].Students)
		}
		return groups[i].Students[0] < groups[j].Students[0]
	})
	return groups
}

// ByHeart reports a program that looks printed by heart: it passes every visible case, yet fails
// hidden ones, either most of them or by printing there a transcript a visible case expects.
func ByHeart(res *checker.Result) bool {
	if res == nil {
		return false
	}
	visible, visiblePassed, hidden, hiddenFailed := 0, 0, 0, 0
	wants := map[string]bool{}
	for _, c := range res.Cases {
		if c.Visible {
			visible++
			if c.Status == checker.Pass {
				visiblePassed++
			}
			if c.Want != "" {
				wants[checker.Normalize(c.Want)] = true
			}
		} else {
			hidden++
		}
	}
	if visible == 0 || visiblePassed < visible || hidden == 0 {
		return false
	}
	echoes := false
	for _, c := range res.Cases {
		if c.Visible || c.Status == checker.Pass {
			continue
		}
		hiddenFailed++
		if c.Got != "" && wants[checker.Normalize(c.Got)] {
			echoes = true
		}
	}
	return hiddenFailed > 0 && (echoes || hiddenFailed*2 > hidden)
}

// wrongGroups finds the wrong transcripts that two students or more printed in the same case.
func wrongGroups(students []Student) []WrongGroup {
	type key struct{ c, got string }
	groups := map[key]*WrongGroup{}
	var order []key
	for _, st := range students {
		for _, c := range st.Result.Cases {
			if c.Status != checker.Fail || c.Diff == nil {
				continue
			}
			k := key{c.Name, checker.Normalize(c.Got)}
			g, ok := groups[k]
			if !ok {
				g = &WrongGroup{Case: c.Name, Visible: c.Visible, Lang: st.Lang, Got: k.got, Want: checker.Normalize(c.Want), Diff: c.Diff}
				groups[k] = g
				order = append(order, k)
			}
			g.Students = append(g.Students, st.Name)
		}
	}
	list := []WrongGroup{}
	for _, k := range order {
		if g := groups[k]; len(g.Students) > 1 {
			list = append(list, *g)
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if len(list[i].Students) != len(list[j].Students) {
			return len(list[i].Students) > len(list[j].Students)
		}
		if list[i].Case != list[j].Case {
			return list[i].Case < list[j].Case
		}
		return strings.Compare(list[i].Got, list[j].Got) < 0
	})
	if len(list) > maxWrongGroups {
		list = list[:maxWrongGroups]
	}
	return list
}

// exactCopies groups the students whose programs are the same (the same Print hash, gofmt and
// renaming aside) however short, when the groups found already do not hold them together: a copy
// of a short program is a copy still.
func exactCopies(students []Student, have []CopyGroup) []CopyGroup {
	together := map[[2]string]bool{}
	for _, g := range have {
		for _, a := range g.Students {
			for _, b := range g.Students {
				together[[2]string{a, b}] = true
			}
		}
	}
	byHash := map[string][]string{}
	tokens := map[string]int{}
	var order []string
	for _, st := range students {
		h := st.Fingerprint.Hash
		if h == "" || st.Result == nil || st.Result.Verdict == Unchanged {
			continue
		}
		if byHash[h] == nil {
			order = append(order, h)
		}
		byHash[h] = append(byHash[h], st.Name)
		tokens[h] = st.Fingerprint.Tokens
	}
	var out []CopyGroup
	for _, h := range order {
		names := byHash[h]
		if len(names) < 2 {
			continue
		}
		apart := false
		for _, b := range names[1:] {
			apart = apart || !together[[2]string{names[0], b}]
		}
		if apart {
			out = append(out, CopyGroup{Students: names, Tokens: tokens[h], Hash: h, Exact: true})
		}
	}
	return out
}
