//go:build linux

package checker

import (
	"context"
	"testing"
)

// BenchmarkCheckUnsandboxed is BenchmarkCheck at the "basic" level (scrubbed environment, scratch
// folder, limits on time and output, killed process group, but no namespaces, Landlock or resource
// limits), to tell the engine's own cost from the sandbox's.
func BenchmarkCheckUnsandboxed(b *testing.B) {
	cases := benchCases(b)
	for _, l := range candidates() {
		if !l.reexec {
			testLevel = &l
		}
	}
	defer func() { testLevel = nil }()
	ctx := context.Background()
	for b.Loop() {
		res, err := Check(ctx, benchSolution, cases, Options{Lang: "bg"})
		if err != nil || res.Verdict != Pass {
			b.Fatalf("check: %v %+v", err, res)
		}
	}
}
