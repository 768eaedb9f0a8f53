package main

import (
	"io"

	"github.com/workbook-course/workbook/internal/tty"
)

func (e *env) paintFor(w io.Writer) tty.Paint { return tty.Paint{On: e.colorOK(w)} }

// langName is the name of a content language in the user's language.
func (e *env) langName(l string) string { return e.ui.T("lang_" + l) }
