package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// Causes of a failure that a hint explains, shared by every case of a Group that has one.
const (
	CauseStderr      = "stderr"       // the expected transcript went to stderr, nothing to stdout
	CauseExitNonzero = "exit_nonzero" // the program ended with a code of its own where 0 was expected
	CauseExitZero    = "exit_zero"    // the program ended with 0 where an error exit was expected
	CauseExitCode    = "exit_code"    // the program ended with another code than the one expected
	// A note of the first differing line (checker.NoteLatinLookalike and the others in causeNotes)
	// is a cause of its own, under its own code.
)

// causeNotes are the notes of a Diff that explain the whole failure by themselves, in the order
// their hints come when they explain as many cases: a letter of the other alphabet first. (A diff
// that only says the output stops early or goes on too long names no cause.)
var causeNotes = []string{checker.NoteLatinLookalike, checker.NoteCyrillicInWord, checker.NoteOtherLanguage,
	checker.NoteTrailingSpace, checker.NoteTab, checker.NoteInvisible, checker.NoteMissingNewline, checker.NoteExtraNewline}

// causeOrder ranks the causes for hints that explain as many cases each: the commonest mistakes first.
var causeOrder = append([]string{CauseStderr, CauseExitNonzero, CauseExitCode, CauseExitZero}, causeNotes...)

// Group is the failed cases of a result that failed in one way: the same cause (their transcript
// written to stderr, the same exit code, the same letter of the other alphabet, a timeout of one
// kind), or else the same status, message and output. The terminal, the Markdown feedback and
// grade's report say a group once, by its example, with the count of the others.
type Group struct {
	Cause string // a Cause… constant or a note's code; "" when the cases only failed alike
	Cases []int  // the indexes of its cases in the result, in order
	// Example is the case the group is shown by: its first visible case (whose detail can be
	// shown), else its first.
	Example int
	// Code and Want are the exit code of an exit cause and the one expected (CauseExitCode).
	Code, Want int
}

// Groups sorts the failed cases of res (cases not run aside) into groups, in the order of their
// first case. It reads every case whole, so call it before the result is redacted: the cause of a
// hidden case is said, never what it expects.
func Groups(res *checker.Result) []Group {
	var groups []Group
	at := map[string]int{}
	for i, cs := range res.Cases {
		if cs.Status == checker.Pass || cs.Status == checker.NotRun {
			continue
		}
		kind, cause := failureKind(cs)
		k, ok := at[kind]
		if !ok {
			k = len(groups)
			at[kind] = k
			g := Group{Cause: cause, Example: -1, Code: cs.ExitCode}
			if cs.WantExit != nil {
				g.Want = *cs.WantExit
			}
			groups = append(groups, g)
		}
		g := &groups[k]
		g.Cases = append(g.Cases, i)
		if g.Example < 0 && cs.Visible {
			g.Example = i
		}
	}
	for i := range groups {
		if groups[i].Example < 0 {
			groups[i].Example = groups[i].Cases[0]
		}
	}
	return groups
}

// Hints are the groups that have a cause, the one that explains the most failed cases first (and
// among as many, the commoner mistake: stderr, an exit code, a letter of the other alphabet).
func Hints(groups []Group) []Group {
	var out []Group
	for _, g := range groups {
		if g.Cause != "" {
			out = append(out, g)
		}
	}
	slices.SortStableFunc(out, func(a, b Group) int {
		if len(a.Cases) != len(b.Cases) {
			return len(b.Cases) - len(a.Cases)
		}
		return slices.Index(causeOrder, a.Cause) - slices.Index(causeOrder, b.Cause)
	})
	return out
}

// failureKind tells failures of one kind from the others, and names their cause when it is one a
// hint explains: the transcript on stderr, an exit code (whatever was printed), a note of the first
// differing line; a timeout is one kind by what it was doing; any other failure is alike only with
// the same status, message, pattern and output.
func failureKind(cs checker.CaseResult) (kind, cause string) {
	status := string(cs.Status) + "\x00"
	switch {
	case cs.Status == checker.Timeout:
		return status + cs.Message, ""
	case WroteToStderr(cs):
		return CauseStderr, CauseStderr
	case cs.Message == CauseExitNonzero, cs.Message == CauseExitZero:
		return status + cs.Message + "\x00" + strconv.Itoa(cs.ExitCode), cs.Message
	case cs.Message == CauseExitCode && cs.WantExit != nil:
		return status + cs.Message + "\x00" + strconv.Itoa(cs.ExitCode) + "\x00" + strconv.Itoa(*cs.WantExit), cs.Message
	}
	if d := cs.Diff; d != nil {
		for _, n := range causeNotes {
			if slices.Contains(d.Notes, n) {
				return status + "note\x00" + n, n
			}
		}
	}
	return status + cs.Message + "\x00" + cs.Pattern + "\x00" + cs.Got, ""
}

// WroteToStderr reports whether a failed case printed nothing on stdout and its expected transcript
// on stderr (println, log): the commonest way to fail every case with the right answer.
func WroteToStderr(cs checker.CaseResult) bool {
	if cs.Status == checker.Pass || strings.TrimSpace(cs.Got) != "" || cs.Want == "" {
		return false
	}
	norm := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) }
	stderr := norm(cs.Stderr)
	return stderr != "" && strings.Contains(stderr, norm(cs.Want))
}

// maxHintNames bounds the visible cases a hint names: the rest are in its count.
const maxHintNames = 5

// HintText is the hint of a group with a cause, in pr's language: how many cases it explains, the
// visible ones among them by name, and what they share ("3 cases (01-lesson, 02-two): the expected
// transcript went to stderr, not to stdout"). res is the result the group was made from.
func HintText(pr *i18n.Printer, res *checker.Result, g Group) string {
	var names []string
	for _, i := range g.Cases {
		if cs := res.Cases[i]; cs.Visible {
			if len(names) == maxHintNames {
				names = append(names, "…")
				break
			}
			names = append(names, cs.Name)
		}
	}
	return pr.N("hint_count", len(g.Cases), "List", strings.Join(names, ", ")) + ": " +
		pr.T("cause_"+g.Cause, "Code", g.Code, "Want", g.Want)
}
