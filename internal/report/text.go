// Package report presents a checker.Result to a person: as terminal text in the user's language,
// naming invisible differences out loud, or as Markdown feedback for a student.
//
//	report.Text(os.Stdout, res, i18n.New("bg"), report.Options{Color: true})
//
// Hidden cases show only their title and that they failed, never what they expect.
//
// Whatever a program printed, a file's name or a student's name reaches a reader only through
// Escape (EscapeLine, EscapeBytes, EscapeJSON, CSVCell): control characters, DEL, C1 controls,
// bidirectional overrides and invalid UTF-8 are written out as text, and CSV cells never start like
// a formula. Every presenter of the tool (terminal, Markdown, HTML, CSV, JSON) uses them.
package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// Options shape the text.
type Options struct {
	Color    bool   // ANSI colours (only on a terminal, never with NO_COLOR)
	Title    string // the exercise's title, for the heading
	ShowPass bool   // list the passed cases too (default: only a count)
	// Group says a failure of many cases of one kind (Groups: one cause, such as the transcript
	// written to stderr, an exit code or a Latin letter among Cyrillic ones, or the same output)
	// once, by a visible case when there is one, with the count of the others.
	Group bool
	// TimeLimit, when set, is stated with a case that did not finish within it.
	TimeLimit time.Duration
	// Replay, when set, is the command that draws a failed drawn case again, its expected output
	// shown (`workbook check NAME --seed N`): said under each such case.
	Replay string
}

type painter struct{ on bool }

func (p painter) paint(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}
func (p painter) red(s string) string   { return p.paint("31", s) }
func (p painter) green(s string) string { return p.paint("32", s) }
func (p painter) dim(s string) string   { return p.paint("2", s) }
func (p painter) bold(s string) string  { return p.paint("1", s) }

// Text writes the result for a person reading a terminal.
func Text(w io.Writer, res *checker.Result, pr *i18n.Printer, opt Options) {
	c := painter{opt.Color}
	title := opt.Title
	if title == "" {
		title = res.Exercise
	}
	// What a program printed, a file's name and a folder's are shown through Escape (and one-line
	// fields through EscapeLine): no byte of theirs ever reaches the terminal as a control.
	fmt.Fprintln(w, c.bold(EscapeLine(pr.T("check_heading", "Title", title, "Name", res.Exercise, "Dir", res.Dir))))
	fmt.Fprintln(w)
	if iso := res.Isolation; iso != nil && len(iso.Missing) > 0 {
		names := make([]string, len(iso.Missing))
		for i, p := range iso.Missing {
			names[i] = pr.T("protection_" + p)
		}
		fmt.Fprintln(w, c.dim("! "+pr.T("isolation_missing", "List", strings.Join(names, ", "))))
		fmt.Fprintln(w)
	}
	if len(res.Skipped) > 0 {
		list := make([]string, len(res.Skipped))
		for i, sk := range res.Skipped {
			// "path: why", the why a code of the checker's (symlink, not_regular, not_go).
			if path, why, ok := strings.Cut(sk, ": "); ok {
				sk = path + " (" + pr.T("skip_"+why) + ")"
			}
			list[i] = sk
		}
		fmt.Fprintln(w, c.dim("! "+EscapeLine(pr.T("skipped_files", "List", strings.Join(list, ", ")))))
		fmt.Fprintln(w)
	}
	switch res.Verdict {
	case checker.NoProgram:
		reason := res.BuildLog
		switch res.Message {
		case "no_go_files":
			reason = pr.T("reason_no_go_files")
		case "not_main":
			pkg, _, _ := strings.Cut(strings.TrimPrefix(res.BuildLog, "package "), ",")
			reason = pr.T("reason_not_main", "Pkg", pkg)
		}
		fmt.Fprintln(w, c.red("✗ "+EscapeLine(pr.T("verdict_no_program", "Reason", reason))))
		return
	case checker.BuildError:
		fmt.Fprintln(w, c.red("✗ "+pr.T("verdict_build_error")))
		for _, l := range strings.Split(BuildLogText(pr, res), "\n") {
			fmt.Fprintln(w, "    "+EscapeLine(l))
		}
		switch res.Message {
		case "go_version", "go_mod", "module", "cgo", "build_time", "build_size", "build_memory", "vtime_import", "scenario_import":
			fmt.Fprintln(w, "  "+c.bold("! ")+pr.T("build_"+res.Message))
		}
		return
	}
	// Failures of one kind are said once, by their example (Groups), with the count of the others.
	groupOf := map[int]Group{}
	if opt.Group {
		for _, g := range Groups(res) {
			for _, i := range g.Cases {
				groupOf[i] = g
			}
		}
	}
	notRun, replaySaid := 0, false
	for i, cs := range res.Cases {
		if cs.Status == checker.Pass {
			if opt.ShowPass {
				fmt.Fprintln(w, c.green("✓ ")+caseLabel(pr, cs))
				if cs.Visible {
					// A scenario case that passed shows its figures and chart too: what the learner's
					// client did in the incident, beside the course's policy, is the lesson.
					writeScenario(w, pr, cs, "    ")
				}
			}
			continue
		}
		if cs.Status == checker.NotRun {
			notRun++ // said once, below
			continue
		}
		g, grouped := groupOf[i]
		if grouped && g.Example != i {
			continue // said with the example of its kind
		}
		fmt.Fprintln(w, c.red("✗ ")+caseLabel(pr, cs))
		fmt.Fprintln(w, "    "+c.bold(CaseStatus(pr, cs)))
		if cs.Status == checker.Timeout && opt.TimeLimit > 0 {
			fmt.Fprintln(w, "    "+timeLimit(pr, opt.TimeLimit))
		}
		if grouped && len(g.Cases) > 1 {
			fmt.Fprintln(w, "    "+c.bold(pr.N("same_failure", len(g.Cases)-1)))
		}
		writeVirtual(w, pr, cs, "    ")
		writeScenario(w, pr, cs, "    ")
		if !cs.Visible {
			if strings.HasPrefix(cs.Name, "drawn-") && len(cs.Args) > 0 {
				// Drawn for this check alone: its arguments say how to run it again, and give nothing away.
				fmt.Fprintln(w, "    "+EscapeLine(pr.T("args_line", "Args", strings.Join(cs.Args, " "))))
				if opt.Replay != "" {
					if !replaySaid {
						fmt.Fprintln(w, "    "+pr.T("drawn_replay", "Cmd", opt.Replay))
						replaySaid = true
					}
					continue
				}
			}
			fmt.Fprintln(w, "    "+c.dim(pr.T("hidden_case_note")))
			continue
		}
		caseDetail(w, pr, c, cs)
	}
	if notRun > 0 {
		hung := res.Hung
		for _, cs := range res.Cases {
			if cs.Name == res.Hung && cs.Title != "" {
				hung = cs.Title
			}
		}
		limit := time.Duration(res.RunLimit)
		if limit == 0 {
			limit = opt.TimeLimit
		}
		fmt.Fprintln(w, c.red("✗ ")+pr.N("cases_not_run", notRun, "Case", EscapeLine(hung), "Seconds", seconds(pr, limit)))
	}
	passed := pr.N("cases_passed", res.Passed, "Total", res.Total)
	if res.Verdict != checker.Pass || opt.ShowPass {
		fmt.Fprintln(w)
	}
	if res.Verdict == checker.Pass {
		fmt.Fprintln(w, c.green("✓ "+passed))
	} else {
		fmt.Fprintln(w, c.red(passed))
	}
	writeAdvice(w, pr, c, res.Advice)
}

// BuildLogText is a failed build's log as the reader sees it: a go.mod that the checker refused
// itself is named by its place and line, the why in pr's language (build_log_go_mod,
// build_log_go_version); any other log is the go command's, as it wrote it.
func BuildLogText(pr *i18n.Printer, res *checker.Result) string {
	place, line, goVersion, ok := checker.GoModRefusal(res.BuildLog)
	switch {
	case !ok:
		return res.BuildLog
	case goVersion != "":
		return pr.T("build_log_go_version", "Place", place, "Line", line, "Go", goVersion)
	}
	return pr.T("build_log_go_mod", "Place", place, "Line", line)
}

// seconds writes d in seconds the way the printer's language writes numbers: 0.3, or 0,3.
func seconds(pr *i18n.Printer, d time.Duration) string {
	return pr.Decimal(d.Seconds(), -1)
}

// caseLabel is a case as a report names it: a visible case by its name and title, a hidden one by
// its title, and a drawn case shown whole (check --seed) as one drawn, never by its name
// (drawn-1), which says nothing in the reader's language.
func caseLabel(pr *i18n.Printer, cs checker.CaseResult) string {
	if cs.Drawn && cs.Visible {
		return pr.T("case_drawn", "Title", cs.Title)
	}
	if cs.Visible {
		return pr.T("case_visible", "Name", cs.Name, "Title", cs.Title)
	}
	return pr.T("case_hidden", "Title", cs.Title)
}

func statusText(pr *i18n.Printer, s checker.Verdict) string {
	return pr.T("status_" + string(s))
}

// CaseStatus is the headline of a case in pr's language: its status, and for a timeout what
// happened, when the checker knows (status_timeout_cpu_limit: it used up its CPU time;
// status_timeout_slept or status_timeout_waited: it slept, or waited for what never came;
// status_timeout_blocked: one of the two, where its threads could not be read).
func CaseStatus(pr *i18n.Printer, cs checker.CaseResult) string {
	if cs.Status == checker.Fail && len(cs.Metrics) > 0 {
		return pr.T("status_fail_metrics")
	}
	if cs.Status == checker.Timeout && cs.Message != "" {
		if id := "status_timeout_" + cs.Message; i18n.Has(pr.Lang(), id) {
			return pr.T(id)
		}
	}
	return statusText(pr, cs.Status)
}

// MessageText is a case's message code (CaseResult.Message) in pr's language, for the codes whose
// words need nothing but the code (msg_CODE); ok is false for the others ("", codes said with
// their numbers or patterns, and the words of a case only testscript runs).
func MessageText(pr *i18n.Printer, code string) (text string, ok bool) {
	if id := "msg_" + code; code != "" && i18n.Has(pr.Lang(), id) {
		return pr.T(id), true
	}
	return "", false
}

// timeLimit says what a run may take: limit of CPU time, and the idle time after which a program
// that sleeps or waits is stopped (checker.Limits.IdleTime for that limit).
func timeLimit(pr *i18n.Printer, limit time.Duration) string {
	idle := checker.Limits{RunTime: limit}.WithDefaults().IdleTime
	return pr.T("time_limit", "Seconds", seconds(pr, limit), "Idle", seconds(pr, idle))
}

// caseDetail explains a failed visible case: its arguments, the first differing line, what cannot be
// seen, and what the program said on stderr.
func caseDetail(w io.Writer, pr *i18n.Printer, c painter, cs checker.CaseResult) {
	ind := "    "
	args := pr.T("no_args")
	if len(cs.Args) > 0 {
		args = strings.Join(cs.Args, " ")
	}
	fmt.Fprintln(w, ind+EscapeLine(pr.T("args_line", "Args", args)))
	switch cs.Message {
	case "exit_zero":
		fmt.Fprintln(w, ind+pr.T("msg_exit_zero"))
	case "exit_nonzero":
		fmt.Fprintln(w, ind+pr.T("msg_exit_nonzero", "Code", cs.ExitCode))
	case "exit_code":
		if cs.WantExit != nil {
			fmt.Fprintln(w, ind+pr.T("msg_exit_code", "Code", cs.ExitCode, "Want", *cs.WantExit))
		}
	case checker.MsgStdoutMatch, checker.MsgStdoutNoMatch, checker.MsgStderrMatch, checker.MsgStderrNoMatch:
		fmt.Fprintln(w, ind+streamMessage(pr, cs, pr.T("quoted", "S", EscapeLine(cs.Pattern))))
		if s := strings.TrimSpace(cs.Got); s != "" && isStdoutMessage(cs.Message) {
			fmt.Fprintln(w, ind+pr.T("stdout_label"))
			for _, l := range firstLines(s, 12) {
				fmt.Fprintln(w, ind+"  "+c.dim(EscapeLine(l)))
			}
		}
	case "", checker.ReasonDeadlock, checker.ReasonLeak, checker.ReasonNotDurable:
		// said with the status (writeVirtual)
	case checker.MsgMetricLimit, checker.MsgNoMetrics:
		// said with the status (writeScenario)
	default:
		// A known cause (a limit of the sandbox and the like) has words of its own; anything else
		// is the words of a case only testscript runs.
		if text, ok := MessageText(pr, cs.Message); ok {
			fmt.Fprintln(w, ind+text)
		} else {
			fmt.Fprintln(w, ind+EscapeLine(cs.Message))
		}
	}
	if d := cs.Diff; d != nil {
		dt := Explain(pr, d)
		fmt.Fprintln(w, ind+pr.T("first_diff", "Line", d.Line))
		fmt.Fprintln(w, ind+"  "+pr.T("want_label")+" "+c.green(dt.Want))
		fmt.Fprintln(w, ind+"  "+pr.T("got_label")+" "+c.red(dt.Got))
		for _, msg := range dt.Notes {
			fmt.Fprintln(w, ind+"  "+c.bold("! ")+msg)
		}
	}
	// The stack dump of a goroutine left blocked is said in words (writeVirtual).
	if (cs.Status == checker.Crash || cs.Status == checker.Fail && cs.Diff == nil || cs.Message == checker.ReasonSandbox) && cs.Blocked == nil {
		if s := strings.TrimSpace(cs.Stderr); s != "" {
			fmt.Fprintln(w, ind+pr.T("stderr_label"))
			for _, l := range firstLines(s, 12) {
				fmt.Fprintln(w, ind+"  "+c.dim(EscapeLine(l)))
			}
		}
	}
}

// streamMessage says why a stdout or stderr line of a case failed (cs.Message one of
// checker.MsgStdoutMatch and the others), with pattern, the line's pattern as the caller quotes it.
// The pattern ".", anything at all, has words of its own: stdout was to stay empty, stderr was to
// hold an error message.
func streamMessage(pr *i18n.Printer, cs checker.CaseResult, pattern string) string {
	if cs.Pattern == "." {
		return pr.T("msg_" + cs.Message + "_any")
	}
	return pr.T("msg_"+cs.Message, "Pattern", pattern)
}

// isStdoutMessage says whether a case's message is about a stdout line: the stdout it was matched
// against is then worth showing.
func isStdoutMessage(msg string) bool {
	return msg == checker.MsgStdoutMatch || msg == checker.MsgStdoutNoMatch
}

// shown renders a line of a diff; past the end of the text it says so instead.
func shown(pr *i18n.Printer, line string, notes []string, want bool) string {
	for _, n := range notes {
		switch {
		case n == checker.NoteMissingLines && !want, n == checker.NoteExtraLines && want:
			return pr.T("end_of_output")
		case n == checker.NoteExtraNewline && want:
			return pr.T("end_of_output")
		}
	}
	return pr.T("quoted", "S", EscapeLine(checker.Visible(line)))
}

func firstLines(s string, n int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return lines
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}
