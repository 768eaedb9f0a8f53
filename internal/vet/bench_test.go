package vet

import (
	"context"
	"testing"
)

// BenchmarkDir is one vet of an exercise program, warm (the standard library's export data
// listed once per process): go test ./internal/vet -bench Dir -run '^$'.
func BenchmarkDir(b *testing.B) {
	dir := "../../solutions/exercise-retry-ctx/ru"
	if _, err := Dir(context.Background(), dir); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Dir(context.Background(), dir); err != nil {
			b.Fatal(err)
		}
	}
}
