package tty

import "io"

// Colors reports whether w is a terminal that may get colours: not when NO_COLOR is set or TERM is
// dumb (getenv reads the environment).
func Colors(w io.Writer, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	return IsTerminal(w)
}

// Paint colours text for a terminal with ANSI escapes; with On false, and for empty text, it
// returns the text unchanged.
type Paint struct{ On bool }

func (p Paint) code(c, s string) string {
	if !p.On || s == "" {
		return s
	}
	return "\x1b[" + c + "m" + s + "\x1b[0m"
}

func (p Paint) Green(s string) string  { return p.code("32", s) }
func (p Paint) Red(s string) string    { return p.code("31", s) }
func (p Paint) Yellow(s string) string { return p.code("33", s) }
func (p Paint) Dim(s string) string    { return p.code("2", s) }
func (p Paint) Bold(s string) string   { return p.code("1", s) }
func (p Paint) Cyan(s string) string   { return p.code("36", s) }
