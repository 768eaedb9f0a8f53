package course

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func testFS() fstest.MapFS {
	return fstest.MapFS{
		"exercises/b/exercise.yaml":   {Data: []byte("order: 2\nlesson: l\ndifficulty: 1\nminutes: 5\ntitle:\n  bg: Б\n  ru: Р\n")},
		"exercises/a/exercise.yaml":   {Data: []byte("order: 1\nlesson: l\ndifficulty: 2\nminutes: 9\ntitle:\n  bg: А\n")},
		"exercises/a/hints.bg.md":     {Data: []byte("## Първо\nедно\n\n## Второ\nдве\n```go\n## not a heading inside code? it is one\n```\n")},
		"exercises/draft/README.md":   {Data: []byte("not an exercise yet")},
		"exercises/bad/exercise.yaml": {Data: []byte("order: [\n")},
	}
}

func TestExercises(t *testing.T) {
	fsys := testFS()
	delete(fsys, "exercises/bad/exercise.yaml")
	list, err := New(fsys).Exercises()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ex := range list {
		names = append(names, ex.Name)
	}
	if len(names) != 2 || names[0] != "a" || names[1] != "b" {
		t.Errorf("Exercises = %v, want [a b] in course order", names)
	}
}

func TestExercise(t *testing.T) {
	c := New(testFS())
	tests := []struct {
		name    string
		unknown bool
		fails   bool
	}{
		{"a", false, false},
		{"missing", true, true},
		{"../a", true, true},
		{"", true, true},
		{"draft", true, true},
		{"bad", false, true},
	}
	for _, tt := range tests {
		_, err := c.Exercise(tt.name)
		if (err != nil) != tt.fails || errors.Is(err, ErrUnknownExercise) != tt.unknown {
			t.Errorf("Exercise(%q) = %v; want fails=%v unknown=%v", tt.name, err, tt.fails, tt.unknown)
		}
	}
}

func TestTitleFallsBack(t *testing.T) {
	ex, err := New(testFS()).Exercise("a")
	if err != nil {
		t.Fatal(err)
	}
	if got := ex.Title("ru"); got != "А" {
		t.Errorf("Title(ru) = %q, want the Bulgarian one", got)
	}
	if ex.Difficulty != 2 || ex.Minutes != 9 || ex.Lesson != "l" {
		t.Errorf("metadata = %+v", ex)
	}
}

func TestHints(t *testing.T) {
	ex, err := New(testFS()).Exercise("a")
	if err != nil {
		t.Fatal(err)
	}
	hints, err := ex.Hints("bg")
	if err != nil {
		t.Fatal(err)
	}
	if len(hints) != 2 || hints[0] != "## Първо\nедно" || !strings.HasSuffix(hints[1], "```") {
		t.Errorf("Hints = %q", hints)
	}
	if _, err := ex.Hints("ru"); err == nil {
		t.Error("Hints(ru) of an exercise without Russian hints: want an error")
	}
}
