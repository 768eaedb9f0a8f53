package course

import (
	"errors"
	"slices"
	"testing"
)

func TestLesson(t *testing.T) {
	c := New(planFS())
	for _, tc := range []struct {
		topic, lang string
		wantIn      string
		wantFile    string
	}{
		{"late", "bg", "bg", "lessons/late/bg.md"},
		{"early", "bg", "ru", "lessons/early/ru.md"}, // not written in Bulgarian yet
		{"early", "ru", "ru", "lessons/early/ru.md"},
	} {
		l, in, file, err := c.Lesson(tc.topic, tc.lang)
		if err != nil || l == nil || in != tc.wantIn || file != tc.wantFile {
			t.Errorf("Lesson(%s, %s) = %v, %q, %q, %v; want a lesson in %s from %s", tc.topic, tc.lang, l != nil, in, file, err, tc.wantIn, tc.wantFile)
		}
	}
	_, _, _, err := c.Lesson("nope", "bg")
	var ue *UnknownLessonError
	if !errors.As(err, &ue) || !slices.Equal(ue.Topics, []string{"early", "late"}) {
		t.Errorf("Lesson(nope) error = %v, want an UnknownLessonError naming early and late in course order", err)
	}
}
