//go:build !linux

package checker

import "testing"

type testLevelCase struct{ name string }

func (testLevelCase) use() func() { return func() {} }

// testLevels: outside Linux there is one level, the portable baseline.
func testLevels(t *testing.T) []testLevelCase { return []testLevelCase{{name: "basic"}} }

// withNoFilterLevel: outside Linux there is no seccomp filter to take off.
func withNoFilterLevel(levels []testLevelCase) []testLevelCase { return levels }
