package lesson

import "testing"

func TestJudge(t *testing.T) {
	fill := &Quiz{Kind: Fill, Answer: "cooldown"}
	bug := &Quiz{Kind: Bug, BugLine: 3}
	tests := []struct {
		q      *Quiz
		answer string
		want   bool
	}{
		{fill, "cooldown", true},
		{fill, " `cooldown` ", true},
		{fill, "cool down", false},
		{bug, "3", true},
		{bug, " 3\n", true},
		{bug, "4", false},
		{bug, "three", false},
	}
	for _, tt := range tests {
		if got := tt.q.Judge(tt.answer); got != tt.want {
			t.Errorf("%v.Judge(%q) = %v, want %v", tt.q.Kind, tt.answer, got, tt.want)
		}
	}
}
