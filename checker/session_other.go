//go:build !linux

package checker

import "context"

// dropSessions has nothing to do outside Linux.
func (p *Program) dropSessions() {}

// runInSession never applies outside Linux.
func (p *Program) runInSession(ctx context.Context, dir string, args []string, stdin string, rl runLimit) (RunOutput, bool) {
	return RunOutput{}, false
}
