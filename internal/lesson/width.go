package lesson

import (
	"strconv"
	"strings"

	"github.com/rivo/uniseg"
)

// MaxCodeWidth is the widest a line of a lesson's visible code may be, in columns, a tab counting
// TabWidth: indented by four columns in the terminal it stands whole at 80 columns, so that it can be
// copied as it is (code is never wrapped). In a find-the-bug quiz, whose lines the terminal numbers,
// the numbers count too.
const (
	MaxCodeWidth = 76
	TabWidth     = 4
)

// CodeWidth reports every line of visible code (go blocks that are not hidden, and go fix blocks,
// shown after an answer) wider than MaxCodeWidth.
func CodeWidth(l *Lesson) Errors {
	var errs Errors
	for _, b := range l.Blocks {
		if b.Kind != GoBlock && b.Kind != FixBlock || b.Hidden {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n")
		limit := MaxCodeWidth
		if b.Quiz != nil && b.Quiz.Kind == Bug && b.Kind == GoBlock {
			limit -= len(strconv.Itoa(len(lines))) + 2 // "12  " before each line
		}
		for i, line := range lines {
			if w := uniseg.StringWidth(strings.ReplaceAll(line, "\t", strings.Repeat(" ", TabWidth))); w > limit {
				errs = append(errs, newError(l.File, b.CodeLine()+i, CodeCodeWide, "Width", w, "Max", limit))
			}
		}
	}
	return errs
}
