package progress

// TakeHint records that the learner asked for a hint of the exercise name, which has total steps:
// one step more (the last again once all are given), or with all, every step given so far (the
// first, when none was). It returns the steps to show, numbered from 1.
func (s *State) TakeHint(name string, total int, all bool) (from, to int) {
	x := s.Exercise(name)
	if !all || x.Hints == 0 {
		x.Hints = min(x.Hints+1, total)
	}
	if all {
		return 1, x.Hints
	}
	return x.Hints, x.Hints
}
