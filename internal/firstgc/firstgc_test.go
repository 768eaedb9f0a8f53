package firstgc

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// atStart is GOGC, and gcsAtStart the number of collections so far, when the tests begin.
var atStart, gcsAtStart = 0, uint32(0)

func TestMain(m *testing.M) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	atStart, gcsAtStart = percent(), ms.NumGC
	os.Exit(m.Run())
}

// percent reads GOGC's current value.
func percent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestFirstCycle checks that GOGC is Percent until the first collection, and the usual 100 after it.
func TestFirstCycle(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: firstgc leaves it alone")
	}
	if gcsAtStart == 0 && atStart != Percent {
		t.Errorf("before the first collection GOGC is %d, want %d", atStart, Percent)
	}
	runtime.GC()
	for deadline := time.Now().Add(30 * time.Second); percent() != 100; {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC is still %d after a collection, want the usual 100 back", percent())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
