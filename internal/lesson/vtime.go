package lesson

import (
	"strings"

	"github.com/workbook-course/workbook/checker"
)

// VirtualMark opens the source of a program that runs in virtual time: one whose go blocks (any of
// them, or of the program it was copied from) carry the word virtual, as in ```go program=retry
// virtual. Such a program is built and run as a virtual-time exercise is (checker.Limits.Virtual):
// inside a testing/synctest bubble, its clock fake and exact, able to import the course's flaky
// service, its goroutines left blocked named in the outcome. Verify, the terminal and the browser
// run it so alike.
const VirtualMark = "// workbook: virtual time\n"

// IsVirtual reports whether the assembled program src runs in virtual time.
func IsVirtual(src string) bool { return strings.HasPrefix(src, VirtualMark) }

// VirtualLimits returns lim for building and running the assembled program src: with Virtual set
// when src runs in virtual time.
func VirtualLimits(src string, lim checker.Limits) checker.Limits {
	if IsVirtual(src) {
		lim.Virtual = true
	}
	return lim
}

// trusted marks lim for building the course's own lesson programs: never failed by a build limit
// meant for a learner's compile-time bomb (checker.Limits.Trusted). A program a learner edited is
// built elsewhere (internal/web's run), under the learner's limits.
func trusted(lim checker.Limits) checker.Limits {
	lim.Trusted = true
	return lim
}
