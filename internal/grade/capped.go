package grade

import (
	"fmt"
	"unicode/utf8"

	"github.com/workbook-course/workbook/checker"
)

// maxKept is how much of one stream (a case's stdout, its stderr, a build log, a line of a diff) a
// report keeps: the journal, results.json and the feedback hold no more, however much a program
// printed, so that one student printing megabytes per case cannot swell the report of the class.
const maxKept = 64 << 10

// capText cuts s to maxKept bytes (at a character's start) and says so at the end, with how much
// was printed in all.
func capText(s string) string {
	if len(s) <= maxKept {
		return s
	}
	n := maxKept
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("\n… [workbook: cut here, %d of %d bytes kept]\n", n, len(s))
}

// capResult caps every stream res keeps (see maxKept).
func capResult(res *checker.Result) {
	res.BuildLog = capText(res.BuildLog)
	for i := range res.Cases {
		c := &res.Cases[i]
		c.Got, c.Stderr, c.Message = capText(c.Got), capText(c.Stderr), capText(c.Message)
		if c.Diff != nil {
			d := *c.Diff
			d.Want, d.Got = capText(d.Want), capText(d.Got)
			c.Diff = &d
		}
	}
}
