package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with everything a terminal, a spreadsheet or an editor would act on instead of
// showing written out as text: C0 control characters other than newline and tab, DEL and invalid
// UTF-8 as \xNN, the C1 controls (U+0080–U+009F), the line and paragraph separators and the
// bidirectional overrides and isolates ("Trojan Source") as \uNNNN. Everything else, newline and tab
// included, is left as it is. Every presenter shows a program's output, a file name or a student's
// name through it (terminal, CSV, Markdown, HTML, JSON reports), so that an ESC, an OSC 52 or a BEL
// in a submission can never reach the reader's terminal or spreadsheet as such.
func Escape(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// EscapeBytes is Escape for a whole document (a rendered page or feedback file) whose own markup
// holds no control characters: whatever a program, a file name or a student put into it is shown
// escaped.
func EscapeBytes(data []byte) []byte {
	if utf8.Valid(data) && clean(string(data)) {
		return data
	}
	return []byte(Escape(string(data)))
}

// clean reports whether s holds nothing Escape would change.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n <= 1 || unsafeRune(r) {
				return false
			}
			i += n - 1
		}
	}
	return true
}

// unsafeRune reports the characters past ASCII that are written out as \uNNNN: the C1 controls,
// the line and paragraph separators and the bidirectional embeddings, overrides and isolates.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// EscapeLine is Escape for text that must stay on one line (a name in a list, a line of a
// terminal report): newlines and tabs are written out too, as \n and \t.
func EscapeLine(s string) string {
	s = Escape(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(s)
}

// CSVCell makes s safe as a cell of a CSV file a spreadsheet will open: escaped as Escape does, and
// prefixed with an apostrophe when it starts with a character a spreadsheet takes for the start of
// a formula (=, +, -, @, tab, CR), as OWASP recommends against CSV injection. The apostrophe is what
// spreadsheets themselves use to mark a cell as text.
func CSVCell(s string) string {
	s = Escape(s)
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// EscapeJSON writes out, inside encoded JSON, the characters encoding/json leaves as they are but
// Escape would not: DEL, the C1 controls and the bidirectional overrides and isolates become
// \u escapes (encoding/json already escapes the other C0 controls and U+2028, U+2029, and
// replaces invalid UTF-8). The JSON means exactly what it meant; only a person paging through it
// (or a tool printing its strings raw) is safe from what the strings hold. Outside its strings JSON
// holds none of these characters, so the bytes can be replaced wherever they stand.
func EscapeJSON(data []byte) []byte {
	if clean(string(data)) {
		return data
	}
	out := make([]byte, 0, len(data)+32)
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == 0x7f || unsafeRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, data[i:i+n]...)
		}
		i += n
	}
	return out
}
