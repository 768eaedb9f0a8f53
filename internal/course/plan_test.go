package course

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/workbook-course/workbook/internal/progress"
)

func planFS() fstest.MapFS {
	return fstest.MapFS{
		"lessons/late/bg.md":        {Data: []byte("---\ntitle: Късен\norder: 2\n---\n# Късен\n")},
		"lessons/early/ru.md":       {Data: []byte("---\ntitle: Ранний\norder: 1\n---\n# Ранний\n")},
		"exercises/a/exercise.yaml": {Data: []byte("order: 1\nlesson: late\ndifficulty: 1\nminutes: 5\ntitle:\n  bg: А\n")},
		"exercises/b/exercise.yaml": {Data: []byte("order: 2\nlesson: early\ndifficulty: 1\nminutes: 5\ntitle:\n  bg: Б\n")},
		"exercises/c/exercise.yaml": {Data: []byte("order: 3\nlesson: gone\ndifficulty: 1\nminutes: 5\ntitle:\n  bg: В\n")},
		"exercises/d/exercise.yaml": {Data: []byte("order: 4\nlesson: early\ndifficulty: 1\nminutes: 5\ntitle:\n  bg: Г\n")},
	}
}

func TestPlan(t *testing.T) {
	p, err := New(planFS()).Plan("bg")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range p {
		name := "-"
		if s.Lesson != nil {
			name = s.Lesson.Topic + "/" + s.Lesson.Title
		}
		for _, ex := range s.Exercises {
			name += " " + ex.Name
		}
		got = append(got, name)
	}
	// Lessons by order, the Russian one read in Russian as it has no Bulgarian yet; an exercise of
	// no lesson last.
	want := []string{"early/Ранний b d", "late/Късен a", "- c"}
	if len(got) != len(want) {
		t.Fatalf("Plan = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d = %q, want %q", i, got[i], want[i])
		}
	}
	st := progress.New("bg", time.Now())
	if ex := p.Next(st); ex == nil || ex.Name != "b" {
		t.Errorf("Next on a fresh start = %v, want b", ex)
	}
	early := p.LessonOf(p.Exercises()[0])
	if early == nil || early.Topic != "early" || p.Begun(st, early) {
		t.Errorf("LessonOf(b) = %v, begun %v; want early, not begun", early, early != nil && p.Begun(st, early))
	}
	st.Record("b", "pass", time.Now())
	if ex := p.Next(st); ex == nil || ex.Name != "d" {
		t.Errorf("Next after b passed = %v, want d", ex)
	}
	if !p.Begun(st, early) {
		t.Error("the lesson of a checked exercise is not begun")
	}
	if p.LessonOf(p.Exercises()[3]) != nil {
		t.Error("an exercise of a missing lesson has a lesson")
	}
}

func TestNextStep(t *testing.T) {
	fsys := planFS()
	fsys["lessons/early/ru.md"].Data = []byte("---\ntitle: Ранний\norder: 1\n---\n# Ранний\n\n<!-- quiz choice -->\nВопрос?\n\n- [x] да\n- [ ] нет\n<!-- /quiz -->\n")
	fsys["exercises/b/hints.bg.md"] = &fstest.MapFile{Data: []byte("## Първо\nедно\n")}
	p, err := New(fsys).Plan("bg")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	st := progress.New("bg", now)
	step := func() string {
		n := p.NextStep(st, "bg")
		s := string(n.Kind)
		if n.Exercise != nil {
			s += " " + n.Exercise.Name
		}
		if n.Lesson != nil {
			s += " " + n.Lesson.Topic
		}
		return s
	}
	for _, tc := range []struct {
		do   func()
		want string
	}{
		{func() {}, "read b early"},
		{func() { st.Lessons = map[string]time.Time{"early": now} }, "start b early"},
		{func() { st.Record("b", "fail", now) }, "fix b early"},
		{func() { st.Record("b", "fail", now) }, "hint b early"}, // two failed checks and a hint left
		{func() { st.Record("b", "pass", now); st.Record("d", "pass", now) }, "read a late"},
		{func() { st.Record("a", "pass", now); st.Record("c", "pass", now) }, "quiz early"},
		{func() { st.RecordQuiz("early", 1, 1, now) }, "done"},
	} {
		tc.do()
		if got := step(); got != tc.want {
			t.Errorf("NextStep = %q, want %q", got, tc.want)
		}
	}
}

func TestAfterPass(t *testing.T) {
	p, err := New(planFS()).Plan("bg")
	if err != nil {
		t.Fatal(err)
	}
	ex := func(name string) *Exercise {
		for _, x := range p.Exercises() {
			if x.Name == name {
				return x
			}
		}
		t.Fatalf("no exercise %s", name)
		return nil
	}
	name := func(x *Exercise) string {
		if x == nil {
			return ""
		}
		return x.Name
	}
	topic := func(l *LessonInfo) string {
		if l == nil {
			return ""
		}
		return l.Topic
	}
	st := progress.New("bg", time.Now())
	for _, tc := range []struct {
		pass             string
		wantNext, wantLn string
	}{
		{"b", "d", ""},     // the same lesson goes on
		{"d", "a", "late"}, // the next exercise needs a lesson not begun
		{"a", "c", ""},     // an exercise of no lesson
		{"c", "", ""},      // the course is done
	} {
		st.Record(tc.pass, "pass", time.Now())
		next, l := p.AfterPass(st, ex(tc.pass))
		if name(next) != tc.wantNext || topic(l) != tc.wantLn {
			t.Errorf("AfterPass(%s) = %q, %q; want %q, %q", tc.pass, name(next), topic(l), tc.wantNext, tc.wantLn)
		}
	}
}
