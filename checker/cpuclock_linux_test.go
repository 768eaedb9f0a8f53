package checker

import (
	"os"
	"runtime"
	"testing"
)

// TestProcessThreads checks that the count the watcher stops a run at (runLimit.Tasks) is the
// process's threads: this test's own, read from /proc, are at least one for each goroutine it locks
// to a thread of its own and parks, and one more for itself (the runtime may lock a goroutine to a
// thread it had already started, so the count need not grow by as many).
func TestProcessThreads(t *testing.T) {
	if before := processThreads(os.Getpid()); before < 1 {
		t.Fatalf("processThreads: %d", before)
	}
	const n = 8
	release := make(chan struct{})
	parked := make(chan struct{})
	for i := 0; i < n; i++ {
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			parked <- struct{}{}
			<-release
		}()
	}
	for i := 0; i < n; i++ {
		<-parked
	}
	defer close(release)
	if got := processThreads(os.Getpid()); got < n+1 {
		t.Errorf("%d threads with %d goroutines locked to threads of their own", got, n)
	}
	if got := processThreads(1 << 30); got != 0 {
		t.Errorf("a process that does not exist: %d threads", got)
	}
}
