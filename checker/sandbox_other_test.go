//go:build !linux

package checker

import "testing"

// Elsewhere there is a single, basic level, and the program runs as the user who checks it.
func hostileWeakerLevels(t *testing.T, hs []hostile, progs map[string]*Program) {
	t.Skip("the weaker levels are Linux's")
}

func hostileAsNobody(t *testing.T, hs []hostile, progs map[string]*Program) {
	t.Skip("the run as nobody is Linux's")
}

// endIdleSessions has nothing to end: sessions are Linux's.
func endIdleSessions() {}

// levelHidesExe is false: only Linux's rlimits level hides a run's executable.
func levelHidesExe() bool { return false }
