// Package firstgc makes a short command's start-up free of garbage collections: imported by the
// workbook command, it lets the first collection wait until the heap reaches 32 MB instead of the Go
// runtime's 4 MB, and puts back the usual GOGC as soon as that first collection has run.
//
// The packages workbook links allocate about 3.3 MB while they initialise (goldmark, glamour,
// bluemonday, golang.org/x/tools' table of the standard library), so with the runtime's 4 MB start
// every command collected once or twice before doing its work: about 3 ms of a 20 ms `workbook list`
// on two cores. The first heap goal is 4 MB × GOGC/100, so GOGC=800 until the first collection puts it
// at 32 MB; from the second cycle on, memory grows as it would have. cmd/compile does the same
// (base.AdjustStartingHeap). A GOGC the user set is left alone.
//
// The setting takes effect when this package initialises. Go initialises packages in the order of
// their import paths among those whose own imports are ready, so this one runs partway through: in
// today's build after 2.2 MB of the 3.3 MB, before the 4 MB at which the first collection would have
// started. TestStartupCollections in cmd/workbook checks that `workbook help` and `workbook list`
// run without a collection.
package firstgc

import (
	"os"
	"runtime"
	"runtime/debug"
)

// Percent is the GOGC of the first cycle: 800 puts the first heap goal at 32 MB.
const Percent = 800

func init() {
	if os.Getenv("GOGC") != "" {
		return
	}
	usual := debug.SetGCPercent(Percent)
	// The sentinel becomes garbage at once; its finalizer runs after the first collection has found
	// it so, and restores the usual percentage for the cycles that follow.
	sentinel := new([64]byte)
	runtime.SetFinalizer(sentinel, func(*[64]byte) { debug.SetGCPercent(usual) })
}
