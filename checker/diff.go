package checker

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Normalize applies the one normalisation transcripts get before comparison: CRLF becomes LF.
func Normalize(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// Compare compares an expected and an actual transcript after Normalize. It returns nil when they are
// equal, else the first differing line and the invisible differences found there.
func Compare(want, got string) *Diff {
	want, got = Normalize(want), Normalize(got)
	if want == got {
		return nil
	}
	wl, gl := splitLines(want), splitLines(got)
	for i := 0; i < len(wl) || i < len(gl); i++ {
		w, wok := at(wl, i)
		g, gok := at(gl, i)
		if wok && gok && w == g {
			continue
		}
		d := &Diff{Line: i + 1, Want: w, Got: g, Notes: []string{}}
		switch {
		case !gok:
			d.Notes = append(d.Notes, NoteMissingLines)
		case !wok && strings.TrimSpace(strings.Join(gl[i:], "")) == "":
			d.Notes = append(d.Notes, NoteExtraNewline)
		case !wok:
			d.Notes = append(d.Notes, NoteExtraLines)
		default:
			d.Notes = lineNotes(w, g)
		}
		return d
	}
	// Every line is the same: only the final newline differs.
	d := &Diff{Line: len(wl), Notes: []string{NoteMissingNewline}}
	if strings.HasSuffix(got, "\n") {
		d.Notes = []string{NoteExtraNewline}
	}
	if n := len(wl); n > 0 {
		d.Want, d.Got = wl[n-1], wl[n-1]
	}
	return d
}

// splitLines splits text into lines; a final newline ends the last line rather than starting an
// empty one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func at(lines []string, i int) (string, bool) {
	if i < len(lines) {
		return lines[i], true
	}
	return "", false
}

// lineNotes names what is invisible or deceptive in the difference between two lines, every such
// difference together: spaces at the end, a tab, an invisible character and letters of the other
// script are each named, whichever others the line has too.
func lineNotes(want, got string) []string {
	notes := []string{}
	wt, gt := strings.TrimRight(want, " \t"), strings.TrimRight(got, " \t")
	if want[len(wt):] != got[len(gt):] {
		notes = append(notes, NoteTrailingSpace)
	}
	if strings.Contains(wt, "\t") != strings.Contains(gt, "\t") {
		notes = append(notes, NoteTab)
	}
	if hasInvisible(got) && !hasInvisible(want) {
		notes = append(notes, NoteInvisible)
	}
	// Letters of the other script are looked for in the line without what the notes above name.
	wr, gr := []rune(visibleOnly(wt)), []rune(visibleOnly(gt))
	if len(wr) == len(gr) {
		for i := range wr {
			if wr[i] == gr[i] {
				continue
			}
			if unicode.Is(unicode.Cyrillic, wr[i]) && unicode.Is(unicode.Latin, gr[i]) {
				notes = appendOnce(notes, NoteLatinLookalike)
			}
			if unicode.Is(unicode.Latin, wr[i]) && unicode.Is(unicode.Cyrillic, gr[i]) {
				notes = appendOnce(notes, NoteCyrillicInWord)
			}
		}
	}
	if !explains(want, got, notes) {
		// A note is a diagnosis: "the line differs only in spaces at its end" is said only when it is
		// true. When the named differences are not the whole story, the lines are shown as they are.
		return []string{}
	}
	return notes
}

// explains reports whether the differences that notes name are the whole difference between want
// and got: undoing each of them (spaces and tabs at the end, a tab for spaces, an invisible
// character, a letter of the other script in a letter's place) leaves two equal lines.
func explains(want, got string, notes []string) bool {
	if len(notes) == 0 {
		return false
	}
	has := func(n string) bool { return slices.Contains(notes, n) }
	canon := func(s string) []rune {
		if has(NoteTrailingSpace) {
			s = strings.TrimRight(s, " \t")
		}
		if has(NoteInvisible) {
			s = strings.Map(func(r rune) rune {
				switch r {
				case '\u00a0':
					return ' '
				case '\u200b', '\u200c', '\u200d', '\ufeff', '\u2060':
					return -1
				}
				return r
			}, s)
		}
		if has(NoteTab) {
			s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' }), " ")
		}
		return []rune(s)
	}
	wr, gr := canon(want), canon(got)
	if len(wr) != len(gr) {
		return false
	}
	scripts := has(NoteLatinLookalike) || has(NoteCyrillicInWord)
	for i := range wr {
		if wr[i] == gr[i] {
			continue
		}
		swapped := unicode.IsLetter(wr[i]) && unicode.IsLetter(gr[i]) &&
			unicode.Is(unicode.Cyrillic, wr[i]) != unicode.Is(unicode.Cyrillic, gr[i])
		if !scripts || !swapped {
			return false
		}
	}
	return true
}

// visibleOnly is s without its invisible characters, tabs made spaces.
func visibleOnly(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u00a0', '\u200b', '\u200c', '\u200d', '\ufeff', '\u2060':
			return -1
		case '\t':
			return ' '
		}
		return r
	}, s)
}

// NoteOtherLanguage means the output is the transcript of the course's other language (Bulgarian in a
// Russian check, or the reverse); it replaces the notes of the line, which would only mislead.
const NoteOtherLanguage = "other_language"

// MarkOtherLanguage adds NoteOtherLanguage to d when got, the whole output of a case, is what the
// case expects in the other course language, or its first differing line is that language's line
// there. It reports whether it did.
func MarkOtherLanguage(d *Diff, got, otherWant string) bool {
	if d == nil || otherWant == "" {
		return false
	}
	got, otherWant = Normalize(got), Normalize(otherWant)
	line, ok := at(splitLines(otherWant), d.Line-1)
	if got != otherWant && (!ok || line == "" || line != d.Got) {
		return false
	}
	d.Notes = []string{NoteOtherLanguage}
	return true
}

func hasInvisible(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return r == '\u00a0' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\ufeff' || r == '\u2060'
	})
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// Visible renders a line so that what cannot be seen can: a trailing space as ·, a tab as →,
// a non-breaking or zero-width character as ⟨U+XXXX⟩.
func Visible(s string) string {
	var b strings.Builder
	trimmed := strings.TrimRight(s, " ")
	for _, r := range trimmed {
		switch r {
		case '\t':
			b.WriteString("→")
		case '\u00a0', '\u200b', '\u200c', '\u200d', '\ufeff', '\u2060':
			b.WriteString("⟨U+" + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + "⟩")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(strings.Repeat("·", len(s)-len(trimmed)))
	return b.String()
}

// LookalikeColumns returns the 1-based rune positions in got where a letter of the other script
// stands in place of the expected one (a Latin "o" for a Cyrillic "о", and so on), spaces at the end
// of the lines and invisible characters aside.
func LookalikeColumns(want, got string) []int {
	wr, gr := []rune(visibleOnly(strings.TrimRight(want, " \t"))), []rune(visibleOnly(strings.TrimRight(got, " \t")))
	var cols []int
	if len(wr) != len(gr) {
		return nil
	}
	for i := range wr {
		if wr[i] != gr[i] && (unicode.Is(unicode.Cyrillic, wr[i]) != unicode.Is(unicode.Cyrillic, gr[i])) {
			cols = append(cols, i+1)
		}
	}
	return cols
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
