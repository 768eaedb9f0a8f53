package grade

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/checker"
)

// UsageWeight is the weight of a case that expects the program to refuse its arguments (`! run`),
// unless the case file gives one: a usage error counts half as much as the core logic.
const UsageWeight = 0.5

// CaseWeight is what a case counts for in the score: the number on a "# weight: N" line of the case
// file's comment (N > 0, a decimal point or comma), else UsageWeight for a case whose run is expected
// to fail (a usage error), else 1.
func CaseWeight(c checker.Case) float64 {
	usage := false
	sc := bufio.NewScanner(bytes.NewReader(c.Script))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --") {
			break // the files of the archive begin
		}
		if rest, ok := strings.CutPrefix(line, "#"); ok {
			key, val, ok := strings.Cut(strings.TrimSpace(rest), ":")
			if ok && strings.EqualFold(strings.TrimSpace(key), "weight") {
				w, err := strconv.ParseFloat(strings.Replace(strings.TrimSpace(val), ",", ".", 1), 64)
				if err == nil && w > 0 && !math.IsInf(w, 0) {
					return w
				}
			}
			continue
		}
		if strings.HasPrefix(line, "! run") {
			usage = true
		}
	}
	if usage {
		return UsageWeight
	}
	return 1
}

// weightsOf is the weight of each case by name.
func weightsOf(cases []CaseInfo) map[string]float64 {
	w := make(map[string]float64, len(cases))
	for _, c := range cases {
		if c.Weight > 0 {
			w[c.Name] = c.Weight
		}
	}
	return w
}

// weightedScore is the percent of the weight of cases passed, two decimals (see weightsPassed).
func weightedScore(results []checker.CaseResult, weights map[string]float64) float64 {
	passed, all := weightsPassed(results, weights)
	if all == 0 {
		return 0
	}
	return math.Round(passed*10000/all) / 100
}

// weightsPassed is the weight of the cases passed and of all of them; a case of no known weight (a
// drawn one) counts 1.
func weightsPassed(results []checker.CaseResult, weights map[string]float64) (passed, all float64) {
	for _, c := range results {
		w, ok := weights[c.Name]
		if !ok {
			w = 1
		}
		all += w
		if c.Status == checker.Pass {
			passed += w
		}
	}
	return passed, all
}
