package course

import "testing"

func TestStudentSeed(t *testing.T) {
	a, b := StudentSeed(1, "ann"), StudentSeed(1, "bob")
	if a == b {
		t.Errorf("ann and bob share the seed %d", a)
	}
	if StudentSeed(1, "ann") != a {
		t.Error("the same student and seed gave two seeds")
	}
	if StudentSeed(2, "ann") == a {
		t.Error("seeds 1 and 2 gave ann the same seed")
	}
}
