package lesson

import (
	"bytes"

	"go.abhg.dev/goldmark/frontmatter"
)

// ReadMeta reads a lesson's front matter alone, without parsing the rest of it: what the course's
// plan needs (title, summary, order) at every start of the tool. It gives the Meta that Parse gives,
// by the same rules: goldmark's front matter extension (an opening line of three or more '-' for
// YAML or '+' for TOML, on the first line or after one blank line, closed by the same line, or
// else running to the end), and Parse's own refusal of a "---" that no "---" line closes. Front
// matter that does not decode gives the zero Meta. It does not check the keys; Parse and verify do.
func ReadMeta(src []byte) Meta {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	if len(bytes.Trim(first, " \t")) == 0 {
		first, rest, _ = bytes.Cut(rest, []byte("\n"))
	}
	delim, count := frontDelim(first)
	format := frontmatter.YAML
	switch delim {
	case '-':
	case '+':
		format = frontmatter.TOML
	default:
		return Meta{}
	}
	raw, closed := rest, false
	for off := 0; off < len(rest) && !closed; {
		line, _, _ := bytes.Cut(rest[off:], []byte("\n"))
		if d, n := frontDelim(line); d == delim && n == count {
			raw, closed = rest[:off], true
		}
		off += len(line) + 1
	}
	if !closed && !frontClosed(src) {
		return Meta{}
	}
	var m Meta
	if err := format.Unmarshal(raw, &m); err != nil {
		return Meta{}
	}
	return m
}

// frontDelim returns the character a front matter delimiting line repeats and how many times, or
// 0 when line is not one.
func frontDelim(line []byte) (byte, int) {
	if len(line) < 3 || bytes.Count(line, line[:1]) != len(line) {
		return 0, 0
	}
	return line[0], len(line)
}

// frontClosed is Parse's check of the front matter (checkFrontMatter): false when src opens with
// "---" and no later "---" line closes it, so that Parse reads nothing of the lesson.
func frontClosed(src []byte) bool {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	if string(bytes.TrimRight(first, " \t")) != "---" {
		return true
	}
	for _, line := range bytes.Split(rest, []byte("\n")) {
		if string(bytes.TrimRight(line, " \t")) == "---" {
			return true
		}
	}
	return false
}
