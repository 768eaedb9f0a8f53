package grade

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// Bar draws grading progress with an ETA on one line of a terminal, rewriting it (Job.Progress
// takes Update). With W nil it draws nothing: for output that is not a terminal.
type Bar struct {
	W     io.Writer
	UI    *i18n.Printer
	width int // runes drawn last time
}

// Update draws p.
func (b *Bar) Update(p Progress) {
	if b.W == nil {
		return
	}
	const cells = 24
	full := 0
	if p.Total > 0 {
		full = p.Done * cells / p.Total
	}
	bar := "[" + strings.Repeat("█", full) + strings.Repeat("░", cells-full) + "]"
	eta := p.ETA.Round(time.Second)
	etaText := fmt.Sprintf("%d:%02d", int(eta.Minutes()), int(eta.Seconds())%60)
	if p.Done == 0 {
		etaText = "?:??"
	}
	line := b.UI.T("grade_progress", "Bar", bar, "Done", p.Done, "Total", p.Total, "ETA", etaText, "Student", report.EscapeLine(p.Student))
	if r := []rune(line); len(r) > 100 {
		line = string(r[:99]) + "…"
	}
	n := utf8.RuneCountInString(line)
	pad := ""
	if n < b.width {
		pad = strings.Repeat(" ", b.width-n)
	}
	fmt.Fprint(b.W, "\r"+line+pad)
	b.width = n
}

// Clear blanks the line drawn.
func (b *Bar) Clear() {
	if b.W == nil || b.width == 0 {
		return
	}
	fmt.Fprint(b.W, "\r"+strings.Repeat(" ", b.width)+"\r")
	b.width = 0
}
