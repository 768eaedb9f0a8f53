// Package learn owns the learner's use cases and state: check → record → what next, hints, lessons
// opened, quiz scores and the progress file they are kept in. The terminal (cmd/workbook) and the
// browser (internal/web) are front ends over one Session, so they cannot disagree on a verdict, on
// what is recorded, on the report's words or on what the learner should do next.
//
//	s := &learn.Session{Course: c, Lang: "ru", UI: i18n.New("en"), Place: place}
//	c, err := s.Check(ctx, learn.CheckRequest{Exercise: ex, Dir: dir, Mine: true})
//	s.Report(w, c, learn.Look{Color: true})
//	switch c.Next.Kind { … } // course.StartExercise, course.ReadLesson, course.TakeHint, course.CourseDone
//	h, err := s.Hint(learn.HintRequest{Exercise: ex})
//
// A Session without a Place keeps nothing: a check outside a workspace is reported and forgotten,
// hints are counted by the caller.
package learn
