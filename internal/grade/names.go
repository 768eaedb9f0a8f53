package grade

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/workbook-course/workbook/internal/report"
)

// File names made from students' names. A name comes from a folder, an LMS's export or a roster, and
// may be anything: 1,000 bytes of Cyrillic, characters Windows refuses, a reserved device name. The
// file made of it must open on every OS the report is carried to: at most maxStemBytes bytes of the
// name (Linux and macOS allow 255 bytes per component, Windows 260 characters per path), cut on a
// rune boundary, with no character a file system refuses, no trailing dot or space (Windows drops
// them), no device name (CON, COM1…, with any extension). A name that had to be cut, or that would
// share its file with another (case and Unicode normalisation aside, as Windows and macOS compare
// names), gets a short hash of the whole name: unique, and the same on every rerun whatever the
// order of the class.

const (
	// maxStemBytes caps the part of a file name made from a student's name: with the hash and an
	// extension it stays far under the 255 bytes of a component, and a report folder carried a few
	// folders deep still opens on Windows.
	maxStemBytes = 120
	// hashLen is how many hex digits of the name's SHA-256 a cut or shared name carries.
	hashLen = 8
)

// nameHash is the short hash of a whole identity.
func nameHash(identity string) string {
	sum := sha256.Sum256([]byte(identity))
	return hex.EncodeToString(sum[:])[:hashLen]
}

// capBytes is s cut to at most n bytes on a rune boundary and, where it can, between two
// characters as a reader sees them: never between a letter and its combining accent (an NFD "й"),
// inside an emoji joined by U+200D, before a variation selector or a skin tone, or between the two
// halves of a flag.
func capBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	for m := n; m > 0; {
		next, _ := utf8.DecodeRuneInString(s[m:])
		prev, size := utf8.DecodeLastRuneInString(s[:m])
		if !joined(prev, next) && !halfFlag(s[:m], next) {
			return s[:m]
		}
		m -= size
	}
	// One character longer than n bytes: cut on a rune boundary rather than give nothing.
	return s[:n]
}

// joined reports whether a cut between prev and next would split one character as a reader sees
// it: next is a combining mark, a joiner, a variation selector or a skin tone, or prev a joiner.
func joined(prev, next rune) bool {
	return unicode.In(next, unicode.M, unicode.Variation_Selector) || next == zwj || prev == zwj ||
		next >= 0x1f3fb && next <= 0x1f3ff
}

// zwj is the zero-width joiner that glues emoji (and Indic letters) into one character.
const zwj = '\u200d'

// halfFlag reports whether a cut of head before next would split a flag: next is a regional
// indicator and head ends with an odd number of them.
func halfFlag(head string, next rune) bool {
	if !regional(next) {
		return false
	}
	odd := false
	for len(head) > 0 {
		r, size := utf8.DecodeLastRuneInString(head)
		if !regional(r) {
			break
		}
		odd = !odd
		head = head[:len(head)-size]
	}
	return odd
}

func regional(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }

// fileStem is name made safe for a file name on every OS, and whether it had to be cut (then it
// carries the hash of name already).
func fileStem(name string) (stem string, cut bool) {
	stem = safeFileName(name)
	if len(stem) <= maxStemBytes {
		return stem, false
	}
	return hashedStem(stem, name), true
}

// hashedStem is stem, cut to leave room, with the hash of identity after it.
func hashedStem(stem, identity string) string {
	suffix := "~" + nameHash(identity)
	head := strings.TrimRight(capBytes(stem, maxStemBytes-len(suffix)-1), ". ")
	if head == "" {
		return suffix
	}
	return head + " " + suffix
}

// foldName is a key under which two names are equal whenever some file system takes them for one
// file, so that FeedbackNames can keep them apart: Windows (NTFS upper-cases each UTF-16 unit by
// its table: "ı" and "i" are both "I", "ſ" is "S", "ς" and "σ" are "Σ"; and it drops trailing dots
// and spaces), macOS (APFS and HFS+ fold case fully, "ß" as "ss", and compare canonical
// equivalents; HFS+ ignores joiners, bidi marks and the byte-order mark). It errs on the side of
// equal: compatibility equivalents ("ﬁ" and "fi") and every format character count too, which costs
// only a hash in a file name.
func foldName(s string) string {
	s = cases.Fold().String(norm.NFKD.String(s))
	var b strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) {
			continue
		}
		b.WriteRune(caseKey(r))
	}
	return strings.TrimRight(norm.NFKC.String(b.String()), ". ")
}

// caseKey is the smallest rune of the case orbit of r's upper case (unicode.SimpleFold): one rune
// for every letter any case mapping takes to another.
func caseKey(r rune) rune {
	r = unicode.ToUpper(unicode.ToLower(r))
	low := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		low = min(low, f)
	}
	return low
}

// safeFileName is s with every character a file system refuses or a terminal would act on replaced,
// the invisible ones a file system may ignore (joiners, bidi marks, the byte-order mark, soft
// hyphens: format characters) left out, no leading dot, no trailing dot or space, and no Windows
// device name.
func safeFileName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) {
			continue
		}
		if windowsRefuses(r) || r == '/' || r == '\\' || r == utf8.RuneError || report.Escape(string(r)) != string(r) {
			b.WriteRune('_')
			continue
		}
		b.WriteRune(r)
	}
	name := strings.TrimRight(strings.TrimSpace(b.String()), ". ")
	if name == "" {
		name = "_"
	}
	if strings.HasPrefix(name, ".") {
		name = "_" + name
	}
	if windowsDevice(name) {
		name = "_" + name
	}
	return name
}

// windowsRefuses reports whether Windows refuses r in a file's name: a control character or one of
// :*?"<>| (the separators / and \ aside).
func windowsRefuses(r rune) bool {
	return r < 0x20 || r == 0x7f || strings.ContainsRune(`:*?"<>|`, r)
}

// windowsDevice reports whether Windows takes a file of this name for a device: CON, PRN, AUX, NUL,
// COM0-9, LPT0-9 (and their superscript digits), CONIN$ and CONOUT$, alone or before an extension
// and with spaces before it ("nul .txt").
func windowsDevice(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) >= 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		switch base[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// FeedbackNames gives each student (by the name that keys them in the report) a feedback file name
// under feedback/: their name made safe (fileStem), with the hash of the whole name when it had to be
// cut or when another student's would be the same file.
func FeedbackNames(students []string) map[string]string {
	stems := make(map[string]string, len(students))
	count := map[string]int{}
	for _, s := range students {
		stem, _ := fileStem(s)
		stems[s] = stem
		count[foldName(stem)]++
	}
	out := make(map[string]string, len(students))
	used := map[string]bool{}
	for _, s := range students {
		stem := stems[s]
		if count[foldName(stem)] > 1 {
			stem = hashedStem(stem, s)
		}
		name := stem
		// Only two names whose hashes collide too come here: never in a real class.
		for n := 2; used[foldName(name)]; n++ {
			name = hashedStem(stem, s+"\x00"+strings.Repeat("~", n))
		}
		used[foldName(name)] = true
		out[s] = name + ".md"
	}
	return out
}

// maxComponentBytes is the longest name of a file or folder Linux and macOS take (255 bytes; Windows
// takes 255 UTF-16 units, never fewer runes).
const maxComponentBytes = 255

// moodleTail finds where a Moodle export's entry name ends the student's name (moodleMarker).
var moodleTail = regexp.MustCompile(`_\d+_assign(?:submission|feedback)_`)

// shortComponent is a name of an entry of a class's archive made short enough to be written to
// disk: a zip may hold names of any length (a Moodle folder named after a 200-letter Cyrillic name
// is 450 bytes), a file system takes 255 bytes. A longer name keeps what identifies the entry (a
// Moodle entry's "_ID_assignsubmission_…" and the rest, another's extension) and the start of the
// name, with the hash of the whole name between them, so that two long names stay apart and a rerun
// gives the same.
func shortComponent(c string) string {
	if len(c) <= maxComponentBytes {
		return c
	}
	head, tail := c, ""
	if loc := moodleTail.FindStringIndex(c); loc != nil && len(c)-loc[0] <= maxComponentBytes/2 {
		head, tail = c[:loc[0]], c[loc[0]:]
	} else if ext := path.Ext(c); len(ext) <= 16 {
		head, tail = strings.TrimSuffix(c, ext), ext
	}
	mark := "~" + nameHash(c)
	return strings.TrimSpace(capBytes(head, maxComponentBytes-len(tail)-len(mark)-1)) + mark + tail
}
