package lesson

import "path"

// Programs returns the final form of every program of l that the lesson teaches, by name: the
// source the lesson's last check of that program builds and runs, its imports fixed (FixImports).
// A program written in a quiz's blocks (a bug to find, a mistake whose output to predict) is left
// out: its mistakes are on purpose. Tools that read a lesson's programs without running them
// (internal/vet) take them from here.
func Programs(l *Lesson) (map[string][]byte, error) {
	checks, _ := plan(l)
	inQuiz := map[string]bool{}
	for _, b := range l.Blocks {
		if b.Kind == GoBlock && b.Quiz != nil && b.Program != "" {
			inQuiz[b.Program] = true
		}
	}
	out := map[string][]byte{}
	for _, c := range checks {
		if c.kind != checkBuild || inQuiz[c.program] {
			continue
		}
		src, err := FixImports(path.Join("/nonexistent", c.program, "main.go"), c.src)
		if err != nil {
			return nil, err
		}
		out[c.program] = src
	}
	return out, nil
}
