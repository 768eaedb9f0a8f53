package course

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/progress"
)

func TestViewSince(t *testing.T) {
	v := View{UI: i18n.New("ru")}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		want string
	}{
		{10 * time.Second, v.UI.T("ago_now")},
		{5 * time.Minute, v.UI.N("ago_minutes", 5)},
		{3*time.Hour + 59*time.Minute, v.UI.N("ago_hours", 3)},
		{50 * time.Hour, v.UI.N("ago_days", 2)},
	} {
		if got := v.Since(now.Add(-tc.ago), now); got != tc.want {
			t.Errorf("Since(%v ago) = %q, want %q", tc.ago, got, tc.want)
		}
	}
}

// TestViewList: every exercise of the plan is listed with its status, difficulty and time, names
// padded to one width.
func TestViewList(t *testing.T) {
	c := New(fstest.MapFS{
		"lessons/one/bg.md":              {Data: []byte("---\ntitle: Урок\norder: 1\n---\n# Урок\n")},
		"exercises/ex-a/exercise.yaml":   {Data: []byte("order: 1\ndifficulty: 1\nminutes: 5\ntitle:\n  bg: Първа\n")},
		"exercises/ex-a/bg.md":           {Data: []byte("# Първа\n")},
		"exercises/ex-a/bg/main.go":      {Data: []byte("package main\n\nfunc main() {}\n")},
		"exercises/ex-bbb/exercise.yaml": {Data: []byte("order: 2\ndifficulty: 3\ntitle:\n  bg: Втора\n")},
		"exercises/ex-bbb/bg.md":         {Data: []byte("# Втора\n")},
		"exercises/ex-bbb/bg/main.go":    {Data: []byte("package main\n\nfunc main() {}\n")},
	})
	steps, err := c.Plan("bg")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	st := progress.New("bg", now)
	st.RecordCheck("bg", "ex-a", "pass", false, now)
	var b strings.Builder
	ui := i18n.New("en")
	View{W: &b, UI: ui}.List(steps, st, "bg")
	for _, want := range []string{
		"  ✓ ex-a    Първа\n", "      " + ui.T("ex_status_passed") + " · " + ui.T("difficulty_easy") + " · " + ui.T("list_minutes", "Minutes", 5) + "\n",
		"  · ex-bbb  Втора\n", ui.T("difficulty_hard") + "\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("List lacks %q:\n%s", want, b.String())
		}
	}
}
