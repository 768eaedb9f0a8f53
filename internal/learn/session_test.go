package learn

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/progress"
)

var testCourse = course.New(workbook.Content())

// testSession is a session in lang with a place in a temporary folder laid out as a clone.
func testSession(t *testing.T, lang string) *Session {
	t.Helper()
	root := t.TempDir()
	return &Session{Course: testCourse, Lang: lang, UI: i18n.New("en"), Place: &Place{
		Root:      root,
		StatePath: filepath.Join(root, progress.FileName),
		Lang:      lang,
		Dir: func(ex *course.Exercise, lang string) string {
			return filepath.Join(root, filepath.FromSlash(ex.StarterDir(lang)))
		},
	}}
}

func exercise(t *testing.T, name string) *course.Exercise {
	t.Helper()
	ex, err := testCourse.Exercise(name)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// TestAfterCheck is the one "what next" rule both front ends follow after a check.
func TestAfterCheck(t *testing.T) {
	plan, err := testCourse.Plan("ru")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	passed := func(names ...string) *progress.State {
		st := progress.New("ru", now)
		for _, n := range names {
			st.Record(n, "pass", now)
		}
		return st
	}
	all := passed()
	for _, ex := range plan.Exercises() {
		all.Record(ex.Name, "pass", now)
	}
	firstLesson := passed()
	for _, ex := range plan[0].Exercises {
		firstLesson.Record(ex.Name, "pass", now)
	}
	opened := passed()
	*opened = *firstLesson
	opened.Lessons = map[string]time.Time{plan[1].Lesson.Topic: now}
	last := plan[0].Exercises[len(plan[0].Exercises)-1].Name
	tests := []struct {
		name     string
		ex       string
		pass     bool
		st       *progress.State
		kind     course.StepKind
		exercise string
		lesson   string
	}{
		{"a failure leads to the hint", "exercise-timeout", false, passed(), course.TakeHint, "exercise-timeout", ""},
		{"a failure not recorded leads to the hint too", "exercise-timeout", false, nil, course.TakeHint, "exercise-timeout", ""},
		{"a pass not recorded leads nowhere", "exercise-timeout", true, nil, "", "", ""},
		{"a pass leads to the next exercise", "exercise-timeout", true, passed("exercise-timeout"), course.StartExercise, plan[0].Exercises[1].Name, ""},
		{"an exercise passed earlier is skipped", "exercise-timeout", true, passed("exercise-timeout", plan[0].Exercises[1].Name), course.StartExercise, plan[0].Exercises[2].Name, ""},
		{"the lesson's last pass leads to the next lesson", last, true, firstLesson, course.ReadLesson, plan[1].Exercises[0].Name, plan[1].Lesson.Topic},
		{"a lesson opened is not asked for again", last, true, opened, course.StartExercise, plan[1].Exercises[0].Name, ""},
		{"the course's last pass", last, true, all, course.CourseDone, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testSession(t, "ru")
			got := s.afterCheck(exercise(t, tt.ex), tt.pass, tt.st)
			if got.Kind != tt.kind {
				t.Fatalf("kind = %q, want %q", got.Kind, tt.kind)
			}
			if name := exName(got.Exercise); name != tt.exercise {
				t.Errorf("exercise = %q, want %q", name, tt.exercise)
			}
			if got.Kind == course.ReadLesson && got.Lesson.Topic != tt.lesson {
				t.Errorf("lesson = %q, want %q", got.Lesson.Topic, tt.lesson)
			}
			if got.Kind != "" && s.NextText(got) == "" {
				t.Errorf("step %q has no words", got.Kind)
			}
		})
	}
}

func exName(ex *course.Exercise) string {
	if ex == nil {
		return ""
	}
	return ex.Name
}

// TestHint: one step more per call in a place (the last again after it, every step given with
// All); without a place, the step after those shown.
func TestHint(t *testing.T) {
	ex := exercise(t, "exercise-timeout")
	steps, err := ex.Hints("ru")
	if err != nil || len(steps) < 2 {
		t.Fatalf("exercise-timeout has %d hints (%v); the test needs two", len(steps), err)
	}
	n := len(steps)
	t.Run("no place", func(t *testing.T) {
		s := testSession(t, "ru")
		s.Place = nil
		tests := []struct {
			shown    int
			all      bool
			from, to int
		}{
			{0, false, 1, 1},
			{1, false, 2, 2},
			{-3, false, 1, 1},
			{n + 5, false, n, n},
			{0, true, 1, n},
		}
		for _, tt := range tests {
			h, err := s.Hint(HintRequest{Exercise: ex, Shown: tt.shown, All: tt.all})
			if err != nil {
				t.Fatal(err)
			}
			if h.From != tt.from || h.To != tt.to || h.Kept {
				t.Errorf("shown %d, all %v: steps %d..%d (kept %v), want %d..%d, not kept", tt.shown, tt.all, h.From, h.To, h.Kept, tt.from, tt.to)
			}
		}
	})
	t.Run("place", func(t *testing.T) {
		s := testSession(t, "ru")
		type step struct {
			all      bool
			from, to int
		}
		want := []step{{true, 1, 1}, {false, 2, 2}, {true, 1, 2}}
		for i := 3; i <= n+1; i++ {
			want = append(want, step{false, min(i, n), min(i, n)})
		}
		for i, w := range want {
			h, err := s.Hint(HintRequest{Exercise: ex, All: w.all, Shown: 99})
			if err != nil {
				t.Fatal(err)
			}
			if h.From != w.from || h.To != w.to || !h.Kept || len(h.Shown()) != w.to-w.from+1 {
				t.Errorf("call %d (all %v): steps %d..%d (kept %v), want %d..%d, kept", i+1, w.all, h.From, h.To, h.Kept, w.from, w.to)
			}
		}
		st, err := s.State()
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Lookup(ex.Name).Hints; got != n {
			t.Errorf("hints kept = %d, want %d", got, n)
		}
	})
}

// TestState: lessons opened and quizzes are kept in the one progress file; a corrupt file is shown
// as a fresh start without being touched, and set aside (Warn told) by the next change.
func TestState(t *testing.T) {
	s := testSession(t, "bg")
	if err := s.OpenLesson("slow-neighbour"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordQuiz("slow-neighbour", 2, 5); err != nil {
		t.Fatal(err)
	}
	q, err := s.RecordQuiz("slow-neighbour", 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	if q.Best != 2 || q.Last != 1 || q.Attempts != 2 {
		t.Errorf("quiz kept %+v, want best 2, last 1, 2 attempts", *q)
	}
	st, err := s.Peek()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Lessons["slow-neighbour"]; !ok {
		t.Error("the lesson opened is not kept")
	}

	if err := os.WriteFile(s.Place.StatePath, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Peek(); err == nil || st == nil || len(st.Lessons) != 0 {
		t.Errorf("Peek of a corrupt file = %v, %v; want a fresh state and the error", st, err)
	}
	if data, _ := os.ReadFile(s.Place.StatePath); string(data) != "{not json" {
		t.Error("Peek changed the corrupt file")
	}
	var warned *progress.CorruptError
	s.Warn = func(ce *progress.CorruptError) { warned = ce }
	if err := s.OpenLesson("retry-storm"); err != nil {
		t.Fatal(err)
	}
	if warned == nil || warned.Backup == "" {
		t.Fatalf("Warn told %v, want the corrupt file and its backup", warned)
	}
	if data, _ := os.ReadFile(warned.Backup); string(data) != "{not json" {
		t.Error("the corrupt file was not kept aside")
	}
	st, err = s.State()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Lessons["retry-storm"]; !ok || len(st.Lessons) != 1 {
		t.Errorf("lessons after the corrupt file = %v, want retry-storm alone", st.Lessons)
	}

	// Reading a corrupt file sets it aside too, and says so.
	if err := os.WriteFile(s.Place.StatePath, []byte("{not json either"), 0o644); err != nil {
		t.Fatal(err)
	}
	warned = nil
	if st, err := s.State(); err != nil || len(st.Lessons) != 0 {
		t.Errorf("State of a corrupt file = %v, %v; want a fresh state", st, err)
	}
	if warned == nil || warned.Backup == "" {
		t.Fatalf("State told %v, want the corrupt file and its backup", warned)
	}
	if data, _ := os.ReadFile(warned.Backup); string(data) != "{not json either" {
		t.Error("the corrupt file read was not kept aside")
	}
}

// TestNoPlace: a session without a place keeps nothing and fails nothing.
func TestNoPlace(t *testing.T) {
	s := &Session{Course: testCourse, Lang: "ru", UI: i18n.New("ru")}
	if st, err := s.Peek(); st != nil || err != nil {
		t.Errorf("Peek = %v, %v; want nil, nil", st, err)
	}
	if err := s.OpenLesson("slow-neighbour"); err != nil {
		t.Error(err)
	}
	if q, err := s.RecordQuiz("slow-neighbour", 1, 2); q != nil || err != nil {
		t.Errorf("RecordQuiz = %v, %v; want nil, nil", q, err)
	}
}

// TestFilesOutsideWorkspace: reset and restore need the workspace, and say so.
func TestFilesOutsideWorkspace(t *testing.T) {
	ex := exercise(t, "exercise-timeout")
	for _, s := range []*Session{testSession(t, "ru"), {Course: testCourse, Lang: "ru", UI: i18n.New("ru")}} {
		if _, err := s.Reset(ex, "go 1.26"); err != ErrNoWorkspace {
			t.Errorf("Reset: %v, want ErrNoWorkspace", err)
		}
		if _, err := s.Restore(ex, 1); err != ErrNoWorkspace {
			t.Errorf("Restore: %v, want ErrNoWorkspace", err)
		}
		if _, err := s.Versions(ex); err != ErrNoWorkspace {
			t.Errorf("Versions: %v, want ErrNoWorkspace", err)
		}
		if s.HasWork(ex) {
			t.Error("HasWork outside a workspace")
		}
	}
}
