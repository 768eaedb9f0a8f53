package lesson

import (
	"os"
	"testing"

	"github.com/workbook-course/workbook/internal/testcache"
)

// TestMain gives the package's tests the checker's caches of their own (testcache.Use): the
// programs they build (TestRunner's, TestBatch's, the virtual-time lessons') and TestLessons' results
// stay warm from one run to the next, whatever the rest of `go test ./...` builds in between.
func TestMain(m *testing.M) {
	testcache.Use("internal-lesson")
	os.Exit(m.Run())
}
