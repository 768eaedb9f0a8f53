//go:build !linux

package checker

import "context"

// sessionPool is empty outside Linux, where every run starts the program directly.
type sessionPool struct{}

func (sp *sessionPool) close() {}

// runInSession never applies outside Linux.
func (p *Program) runInSession(ctx context.Context, dir string, args []string, stdin string) (RunOutput, bool) {
	return RunOutput{}, false
}
