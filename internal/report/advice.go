package report

import (
	"fmt"
	"io"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// writeAdvice writes the advice on the program's code after the verdict, under a heading that
// says it does not change the verdict: file:line, then the advice, indented.
func writeAdvice(w io.Writer, pr *i18n.Printer, c painter, advice []checker.Advice) {
	if len(advice) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, c.bold(pr.T("vet_advice_head")))
	for _, a := range advice {
		fmt.Fprintln(w, "  "+c.bold(EscapeLine(fmt.Sprintf("%s:%d", a.File, a.Line)))+": "+EscapeLine(a.Message))
	}
}
