//go:build linux

package checker

import (
	"fmt"
	"testing"
)

// testLevel is one sandbox level a test may run under: the best, and each weaker one this system
// can set up.
type testLevelCase struct {
	name string
	l    *level
}

// use makes the level the one runs get, and returns what restores the default.
func (tl testLevelCase) use() func() {
	if tl.l == nil {
		return func() {}
	}
	endIdleSessions()
	testLevel = tl.l
	return func() { endIdleSessions(); testLevel = nil }
}

// testLevels lists the best level and every weaker one that works here.
func testLevels(t *testing.T) []testLevelCase {
	best := currentLevel()
	out := []testLevelCase{{name: "best"}}
	for i, l := range candidates() {
		if l.reexec {
			if err := probe(l); err != nil {
				continue
			}
			l = withExtras(l)
		}
		if l == best {
			continue
		}
		l := l
		out = append(out, testLevelCase{name: fmt.Sprintf("%d-%s", i, l.name), l: &l})
	}
	return out
}

// withNoFilterLevel adds to levels the current level without its seccomp filter, where it has one:
// a program's children, which the filter refuses, are still watched where it is missing.
func withNoFilterLevel(levels []testLevelCase) []testLevelCase {
	if l := currentLevel(); l.seccomp {
		l.seccomp = false
		levels = append(levels, testLevelCase{name: "no-filter", l: &l})
	}
	return levels
}
