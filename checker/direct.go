package checker

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// Most cases are a few lines of run, expect, status, metrics, stdout and stderr. Such a case needs none of
// testscript's machinery (a work folder with the archive unpacked into it, an environment, a log):
// it runs straight from memory, each run still in a fresh, empty folder of its own with only the
// input files its arguments name. A case that uses anything else (another command, a condition, a
// variable, a -count= match, a line testscript would refuse) goes through testscript as before, so
// that both ways give the same verdict for every case: TestDirectMatchesTestscript runs every case
// of the course both ways.

// directCase is a case that runs without testscript.
type directCase struct {
	lines    []directLine
	inputs   map[string][]byte // the archive's files but the expected ones, by clean slash path
	expected map[string][]byte
}

// directLine is one command of a direct case.
type directLine struct {
	num  int // line number in the case file
	neg  bool
	name string // run, expect, status, metrics, stdout or stderr
	args []string
	re   *regexp.Regexp // stdout and stderr: the pattern, compiled as testscript compiles it
}

// parseDirect returns the case as a directCase, or false when it must go through testscript.
func parseDirect(script []byte) (*directCase, bool) {
	ar := txtar.Parse(script)
	names := expectedNames(ar.Comment)
	dc := &directCase{inputs: map[string][]byte{}, expected: map[string][]byte{}}
	for _, f := range ar.Files {
		if isExpected(f.Name, names) {
			dc.expected[f.Name] = f.Data
			continue
		}
		dc.inputs[path.Clean(f.Name)] = f.Data
	}
	for i, line := range strings.Split(string(ar.Comment), "\n") {
		words, ok := scriptWords(line)
		if !ok {
			return nil, false
		}
		if len(words) == 0 {
			continue
		}
		l := directLine{num: i + 1}
		if words[0] == "!" {
			l.neg, words = true, words[1:]
		}
		if len(words) == 0 {
			return nil, false
		}
		l.name, l.args = words[0], words[1:]
		switch l.name {
		case "run":
		case "expect":
			if l.neg || len(l.args) != 1 {
				return nil, false
			}
		case "metrics":
			if l.neg || len(l.args) != 0 {
				return nil, false
			}
		case "status":
			if l.neg || len(l.args) != 1 {
				return nil, false
			}
			if _, err := strconv.Atoi(l.args[0]); err != nil {
				return nil, false
			}
		case "stdout", "stderr":
			if len(l.args) != 1 || strings.HasPrefix(l.args[0], "-count=") {
				return nil, false
			}
			re, err := regexp.Compile(`(?m)` + l.args[0])
			if err != nil {
				return nil, false
			}
			l.re = re
		default:
			return nil, false
		}
		dc.lines = append(dc.lines, l)
	}
	return dc, true
}

// scriptWords splits a script line into words as testscript does: words are separated by spaces,
// tabs and carriage returns, an unquoted # ends the line, and single quotes quote (two of them in
// quoted text stand for one). ok is false when testscript would read the line otherwise: it holds
// a variable ($) or a condition ([…]) outside quotes, or an unterminated quote.
func scriptWords(line string) (words []string, ok bool) {
	var (
		word   strings.Builder
		inWord bool
		quoted bool
	)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'':
			if i+1 < len(line) && line[i+1] == '\'' {
				word.WriteByte('\'')
				i++
				continue
			}
			quoted = false
		case quoted:
			word.WriteByte(c)
		case c == ' ' || c == '\t' || c == '\r' || c == '#':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
			if c == '#' {
				return words, true
			}
		case c == '\'':
			quoted, inWord = true, true
		case c == '$':
			return nil, false
		default:
			if c == '[' && !inWord {
				return nil, false
			}
			word.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, false
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, true
}

// runDirect runs a direct case's lines in order, as testscript would run the script, and returns
// whether it failed and why, in the words testscript's log would have.
func (st *caseState) runDirect(dc *directCase) (failed bool, failure string) {
	var stdout, stderr string // what the last run printed, as testscript's stdout and stderr commands see it
	for _, l := range dc.lines {
		fail := ""
		switch l.name {
		case "run":
			var out *RunOutput
			out, fail = st.run(dc, l.neg, l.args)
			if out != nil {
				stdout, stderr = Normalize(out.Stdout), Normalize(out.Stderr)
			}
		case "expect":
			fail = st.expect(l.args[0])
		case "metrics":
			fail = st.metrics()
		case "status":
			n, _ := strconv.Atoi(l.args[0])
			fail = st.status(n)
		case "stdout", "stderr":
			text := stdout
			if l.name == "stderr" {
				text = stderr
			}
			fail = st.match(l, text)
		}
		if fail != "" {
			return true, fmt.Sprintf("FAIL: %s:%d: %s", st.rec.Name, l.num, fail)
		}
	}
	return false, ""
}

// match checks what the last run printed on one stream against a stdout or stderr line, with
// testscript's words when it fails; the case's Message then names the stream and whether its
// text was wanted (stdout_no_match, stderr_no_match) or unwanted (stdout_match, stderr_match), and
// Pattern holds the pattern.
func (st *caseState) match(l directLine, text string) string {
	found := l.re.MatchString(text)
	switch {
	case l.neg && found:
		st.rec.Message, st.rec.Pattern = l.name+"_match", l.args[0]
		return fmt.Sprintf("unexpected match for %#q found in %s: %s", l.args[0], l.name, l.re.FindString(text))
	case !l.neg && !found:
		st.rec.Message, st.rec.Pattern = l.name+"_no_match", l.args[0]
		return fmt.Sprintf("no match for %#q found in %s", l.args[0], l.name)
	}
	return ""
}

// The codes a case's Message carries when a stdout or stderr line of the case failed.
const (
	MsgStdoutMatch   = "stdout_match"    // stdout matched a pattern it must not (! stdout P)
	MsgStdoutNoMatch = "stdout_no_match" // stdout did not match a pattern it must (stdout P)
	MsgStderrMatch   = "stderr_match"    // stderr matched a pattern it must not (! stderr P)
	MsgStderrNoMatch = "stderr_no_match" // stderr did not match a pattern it must (stderr P)
)

// inputSource is where a run's input files come from: a direct case's archive in memory, or the
// work folder testscript unpacked it into.
type inputSource interface {
	// has reports whether name (relative, in the OS's form) is one of the case's files.
	has(name string) bool
	// copyInput copies the input file name to to, at most max bytes, and returns how many bytes
	// it copied; a name that is not one of the case's files is skipped.
	copyInput(name, to string, max int64) (int64, error)
}

func (dc *directCase) has(name string) bool {
	_, ok := dc.inputs[path.Clean(filepath.ToSlash(name))]
	return ok
}

func (dc *directCase) copyInput(name, to string, max int64) (int64, error) {
	data, ok := dc.inputs[path.Clean(filepath.ToSlash(name))]
	if !ok {
		return 0, nil
	}
	if int64(len(data)) > max {
		return 0, fmt.Errorf("the case's input %s is larger than %d MiB", path.Base(filepath.ToSlash(name)), maxInputBytes>>20)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return 0, err
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		return 0, err
	}
	return int64(len(data)), nil
}

// workFolder is testscript's work folder of a case.
type workFolder string

func (w workFolder) has(name string) bool {
	fi, err := os.Lstat(filepath.Join(string(w), name))
	return err == nil && fi.Mode().IsRegular()
}

func (w workFolder) copyInput(name, to string, max int64) (int64, error) {
	return copyInput(filepath.Join(string(w), name), to, max)
}
