package report

import (
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// DiffText is a checker.Diff put into words for a person: the expected and the actual line, quoted
// with what cannot be seen made visible (or "end of output" past the end of a text), and a sentence
// for each invisible difference.
type DiffText struct {
	Want, Got string
	Notes     []string
}

// Explain puts d into words in pr's language. Every presenter (terminal, Markdown feedback, verify)
// shows a difference through it, so they all say the same thing.
func Explain(pr *i18n.Printer, d *checker.Diff) DiffText {
	t := DiffText{Want: shown(pr, d.Want, d.Notes, true), Got: shown(pr, d.Got, d.Notes, false)}
	for _, n := range d.Notes {
		msg := pr.T("note_" + n)
		if n == checker.NoteLatinLookalike || n == checker.NoteCyrillicInWord {
			cols := checker.LookalikeColumns(d.Want, d.Got)
			msg = pr.N("note_"+n, len(cols), "Cols", joinInts(cols))
		}
		t.Notes = append(t.Notes, msg)
	}
	return t
}
