package grade

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Editors on Windows save what the Go toolchain will not read: a byte order mark before a go.mod
// ("unknown directive"), and, set to "ANSI" on a Russian or Bulgarian system, Windows-1251, whose
// Cyrillic letters are invalid UTF-8 ("illegal UTF-8 encoding") in every string a program prints.
// What is graded is the scratch copy of a submission, never the submission: there a byte order
// mark is dropped, and a .go file that is not UTF-8 but reads as Cyrillic text in Windows-1251 is
// written in UTF-8, its name kept (Student.Recoded) for the feedback and the report.

// recodeTree mends the .go files and go.mod files under root (a submission's scratch copy) and
// returns the slash paths, relative to root, of the files read as Windows-1251.
func recodeTree(root string) []string {
	var recoded []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".go") && name != "go.mod" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		fixed, was1251 := mendText(data)
		if bytes.Equal(fixed, data) {
			return nil
		}
		if os.WriteFile(p, fixed, 0o644) == nil && was1251 {
			if rel, err := filepath.Rel(root, p); err == nil {
				recoded = append(recoded, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return recoded
}

// mendText drops a leading byte order mark and, when data is not UTF-8 but is Cyrillic text in
// Windows-1251, decodes it (was1251 true).
func mendText(data []byte) (fixed []byte, was1251 bool) {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	if utf8.Valid(data) {
		return data, false
	}
	text, err := charmap.Windows1251.NewDecoder().Bytes(data)
	if err != nil || !cyrillicText(text) {
		return data, false
	}
	return text, true
}

// mostlyUTF8 reports whether data is UTF-8 but for a few bytes: its letters of more than one byte
// outnumber many times the bytes that are not UTF-8. Windows-1251 text is almost all such bytes
// (only a capital letter before ё, № or a quote mark reads as a letter of two bytes).
func mostlyUTF8(data []byte) bool {
	multi, bad := 0, 0
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		switch {
		case r == utf8.RuneError && n <= 1:
			bad++
		case n > 1:
			multi++
		}
		data = data[n:]
	}
	return multi > 4*bad
}

// cyrillicText reports whether text decoded from Windows-1251 reads as such: no byte the code page
// leaves undefined, and the bytes above ASCII mostly Cyrillic letters (another code page's text
// read as Windows-1251 is a jumble of symbols and Latin letters with marks).
func cyrillicText(text []byte) bool {
	cyr, other := 0, 0
	for _, r := range string(text) {
		switch {
		case r == utf8.RuneError:
			return false
		case r < utf8.RuneSelf:
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case unicode.IsLetter(r):
			other++
		}
	}
	return cyr > 0 && other*10 <= cyr
}

// recodedIn is the files of recoded (relative to the submission) that are the program's in the
// folder prog, relative to it.
func recodedIn(recoded []string, prog string) []string {
	var out []string
	for _, r := range recoded {
		if prog == "." || prog == "" {
			if !strings.Contains(r, "/") {
				out = append(out, r)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(r, prog+"/"); ok && !strings.Contains(rest, "/") {
			out = append(out, rest)
		}
	}
	return out
}
