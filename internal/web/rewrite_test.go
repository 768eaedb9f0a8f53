package web

import (
	"strings"
	"testing"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/workspace"
)

// TestLessonCommandsRunnable: the commands a lesson's prose suggests are written, in the browser as
// in the terminal, as they run where the learner works (Config.Rewrite); without a rewrite, as the
// lesson has them.
func TestLessonCommandsRunnable(t *testing.T) {
	inv := "go run ./cmd/workbook"
	tests := []struct {
		rewrite      func(string) string
		want, absent string
	}{
		{nil, "<code>workbook check exercise-deadline</code>", "./cmd/workbook check"},
		{func(s string) string { return workspace.Runnable(inv, []string{"check", "hint", "serve"}, s) },
			"<code>go run ./cmd/workbook check exercise-deadline</code>", "<code>workbook check"},
	}
	for _, tt := range tests {
		s, err := New(Config{Course: course.New(workbook.Content()), Lang: "ru", Addr: testAddr, Token: "test-token", Rewrite: tt.rewrite})
		if err != nil {
			t.Fatal(err)
		}
		page := get(s, "/ru/lessons/slow-neighbour").Body.String()
		if !strings.Contains(page, tt.want) {
			t.Errorf("rewrite %v: the lesson does not say %q", tt.rewrite != nil, tt.want)
		}
		if strings.Contains(page, tt.absent) {
			t.Errorf("rewrite %v: the lesson says %q", tt.rewrite != nil, tt.absent)
		}
	}
}
