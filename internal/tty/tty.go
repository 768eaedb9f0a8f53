// Package tty tells whether output goes to a terminal, where a progress line that rewrites itself,
// colours and a question to answer are welcome, and how wide that terminal is.
//
//	if tty.IsTerminal(stderr) {
//		fmt.Fprint(stderr, "\r\x1b[Kbuilding…")
//	}
package tty

import (
	"io"
	"os"

	"golang.org/x/term"
)

// fder is what an *os.File gives, and what a writer wrapping a terminal may give too.
type fder interface{ Fd() uintptr }

// IsTerminal reports whether w writes to a terminal: an *os.File (or anything with its Fd method)
// whose descriptor is one. A buffer, a pipe and a file on disk are not.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(fder)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Width is the width in columns of the terminal w writes to, or def when w is not a terminal or its
// size cannot be read.
func Width(w io.Writer, def int) int {
	f, ok := w.(fder)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return def
	}
	if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
		return cols
	}
	return def
}

// Height is the height in rows of the terminal w writes to, or def when w is not a terminal or its
// size cannot be read.
func Height(w io.Writer, def int) int {
	f, ok := w.(fder)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return def
	}
	if _, rows, err := term.GetSize(int(f.Fd())); err == nil && rows > 0 {
		return rows
	}
	return def
}

var _ fder = (*os.File)(nil)
