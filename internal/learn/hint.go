package learn

import (
	"errors"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/progress"
)

// ErrNoHints means an exercise has no hints in the session's language.
var ErrNoHints = errors.New("no hints")

// HintRequest asks for the next hint of an exercise.
type HintRequest struct {
	Exercise *course.Exercise
	All      bool // every step given so far (the first, when none was), instead of one more
	// Shown is how many steps the learner has seen, for a session without a place, which keeps no
	// count: the step after them is given.
	Shown int
}

// Hints is a hint given: the steps to show, from From to To (numbered from 1), of Total.
type Hints struct {
	Exercise *course.Exercise
	Steps    []string // every step, in Markdown, in the session's language
	From, To int
	Total    int
	Kept     bool // the count was recorded in the learner's progress
}

// Shown is the steps to show, From to To.
func (h *Hints) Shown() []string { return h.Steps[h.From-1 : h.To] }

// Given is every step the learner has been given, 1 to To.
func (h *Hints) Given() []string { return h.Steps[:h.To] }

// Hint gives the next step of the exercise's hints and records that it was given: each call one
// step more, the last again after it (progress.State.TakeHint). Without a place, the step after
// req.Shown, or every step with All. An exercise without hints is ErrNoHints.
func (s *Session) Hint(req HintRequest) (*Hints, error) {
	ex := req.Exercise
	steps, err := ex.Hints(s.Lang)
	if err != nil || len(steps) == 0 {
		return nil, ErrNoHints
	}
	h := &Hints{Exercise: ex, Steps: steps, Total: len(steps)}
	if s.Place == nil {
		h.To = min(max(req.Shown, 0)+1, len(steps))
		h.From = h.To
		if req.All {
			h.From, h.To = 1, len(steps)
		}
		return h, nil
	}
	if _, err := s.Update(func(st *progress.State) error {
		h.From, h.To = st.TakeHint(ex.Name, len(steps), req.All)
		return nil
	}); err != nil {
		return nil, err
	}
	h.Kept = true
	return h, nil
}
