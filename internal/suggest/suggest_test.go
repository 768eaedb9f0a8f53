package suggest

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"exercise-timeout", "exercise-retry", "exercise-deadline", "exercise-jitter", "exercise-breaker", "exercise-breaker-retry"}
	tests := []struct {
		typed string
		want  string
	}{
		{"exercise-dedline", "exercise-deadline"},
		{"deadline", "exercise-deadline"},
		{"Exercise-Retry", "exercise-retry"},
		{"exercise-jiter", "exercise-jitter"},
		{"breaker", "exercise-breaker"},
		{"frobnicate", ""},
		{"", ""},
		{"ex", ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.typed, names); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
	if got, want := Closest("chek", []string{"check", "hint", "init", "list"}), "check"; got != want {
		t.Errorf("Closest(chek) = %q, want %q", got, want)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"тест", "тесты", 1},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
