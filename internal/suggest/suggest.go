// Package suggest finds the name a user meant when the one typed is not known: the command, the
// exercise or the lesson closest to it, for a "did you mean …?".
//
//	if s := suggest.Closest("exercise-dedline", names); s != "" {
//		fmt.Printf("did you mean %s?\n", s) // exercise-deadline
//	}
package suggest

import "strings"

// Closest is the name of names closest to a mistyped one: one that contains it or that it contains
// (deadline for exercise-deadline), else one within a few edits (exercise-dedline); "" when none
// is close enough to be what was meant.
func Closest(typed string, names []string) string {
	typed = strings.ToLower(strings.TrimSpace(typed))
	if typed == "" {
		return ""
	}
	best, bestDist := "", -1
	for _, n := range names {
		low := strings.ToLower(n)
		if low == typed {
			return n
		}
		d := distance(typed, low)
		if len([]rune(typed)) >= 3 && (strings.Contains(low, typed) || strings.Contains(typed, low)) {
			d = min(d, 1)
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = n, d
		}
	}
	if bestDist < 0 || bestDist > max(2, len([]rune(typed))/3) {
		return ""
	}
	return best
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
