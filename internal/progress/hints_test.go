package progress

import (
	"testing"
	"time"
)

func TestTakeHint(t *testing.T) {
	st := New("bg", time.Now())
	for i, tc := range []struct {
		all              bool
		wantFrom, wantTo int
	}{
		{true, 1, 1},  // --all before any hint gives the first
		{false, 2, 2}, // then one step more each time
		{true, 1, 2},  // --all shows what was given, and gives nothing new
		{false, 3, 3},
		{false, 3, 3}, // after the last, the last again
	} {
		from, to := st.TakeHint("x", 3, tc.all)
		if from != tc.wantFrom || to != tc.wantTo {
			t.Errorf("call %d (all %v): TakeHint = %d, %d; want %d, %d", i+1, tc.all, from, to, tc.wantFrom, tc.wantTo)
		}
	}
	if got := st.Lookup("x").Hints; got != 3 {
		t.Errorf("Hints = %d, want 3", got)
	}
}
