package grade

import (
	"strings"

	"github.com/workbook-course/workbook/checker"
)

// exitedOnPurpose settles the cases whose program ended by an exit code of its own (os.Exit(1),
// log.Fatal) where the case expects 0: the program failed the case by its exit code, it did not
// crash, and the report, grades.csv and the feedback say so (verdict fail, "exited with code 1").
// A Go panic or a runtime's fatal error (exit code 2, its trace on stderr) and a limit of the
// sandbox stay crashes.
func exitedOnPurpose(res *checker.Result) {
	for i := range res.Cases {
		c := &res.Cases[i]
		if c.Status == checker.Crash && c.Message == "exit_nonzero" && c.ExitCode > 0 && !goCrashed(c.Stderr) {
			c.Status = checker.Fail
		}
	}
}

// goCrashed reports whether stderr holds the trace of a Go program's crash: a panic, or a fatal
// error of the runtime (a deadlock, a concurrent map write).
func goCrashed(stderr string) bool {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") || strings.HasPrefix(line, "goroutine ") {
			return true
		}
	}
	return false
}
