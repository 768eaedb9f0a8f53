package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// Markdown writes the result as Markdown feedback for a student, with the same words as Text: every
// case with ✓ or ✗ (failed ones only unless opt.ShowPass), and for a failed visible case its
// arguments, the first differing line and what cannot be seen in it. Hidden cases show their title
// and status only: the result is redacted before anything is written. With opt.Group, failures of
// one kind (Groups) are one block, by their example, with the other cases named under it.
func Markdown(w io.Writer, res *checker.Result, pr *i18n.Printer, opt Options) {
	// A program that ended with an exit code of its own (os.Exit(1)) did not crash, and a case failed
	// by its exit code alone is not one whose output differs, hidden case or not: told apart before
	// the redaction takes the message away.
	exited := make([]string, len(res.Cases))
	for i, cs := range res.Cases {
		exited[i] = exitStatus(pr, cs)
	}
	// Failures of one kind are said once, by their example, with the others named under it
	// (opt.Group): told apart on the whole result, before the redaction.
	var groups []Group
	groupOf := map[int]int{}
	if opt.Group {
		groups = Groups(res)
		for k, g := range groups {
			for _, i := range g.Cases {
				groupOf[i] = k
			}
		}
	}
	res = res.Redacted()
	title := opt.Title
	if title == "" {
		title = pr.T("check_heading", "Title", res.Exercise, "Name", res.Exercise, "Dir", res.Dir)
	}
	fmt.Fprintf(w, "# %s\n\n", MarkdownEscape(title))
	switch res.Verdict {
	case checker.NoProgram:
		reason := res.BuildLog
		if id := "reason_" + res.Message; res.Message != "" && i18n.Has(pr.Lang(), id) {
			pkg, _, _ := strings.Cut(strings.TrimPrefix(res.BuildLog, "package "), ",")
			reason = pr.T(id, "Pkg", pkg)
		}
		fmt.Fprintf(w, "✗ %s\n", MarkdownEscape(pr.T("verdict_no_program", "Reason", reason)))
		fmt.Fprintf(w, "\n%s\n", pr.N("cases_passed", 0, "Total", res.Total))
		return
	case checker.BuildError:
		fmt.Fprintf(w, "✗ %s\n\n", MarkdownEscape(pr.T("verdict_build_error")))
		writeFence(w, "text", BuildLogText(pr, res))
		if id := "build_" + res.Message; res.Message != "" && i18n.Has(pr.Lang(), id) {
			fmt.Fprintf(w, "\n**!** %s\n", MarkdownEscape(pr.T(id)))
		}
		fmt.Fprintf(w, "\n%s\n", pr.N("cases_passed", 0, "Total", res.Total))
		return
	}
	mark := "✗"
	if res.Verdict == checker.Pass {
		mark = "✓"
	}
	fmt.Fprintf(w, "**%s %s**\n", mark, MarkdownEscape(pr.N("cases_passed", res.Passed, "Total", res.Total)))
	for i, cs := range res.Cases {
		if cs.Status == checker.Pass {
			// A passed scenario case is always named, with its figures against their limits and its
			// chart: how far within them the client stayed is the lesson.
			lines := ScenarioLines(pr, cs)
			if opt.ShowPass || len(lines) > 0 {
				fmt.Fprintf(w, "\n## ✓ %s\n", MarkdownEscape(caseLabel(pr, cs)))
			}
			if len(lines) > 0 {
				fmt.Fprintln(w)
				writeFence(w, "text", strings.Join(lines, "\n"))
			}
			continue
		}
		k, grouped := groupOf[i]
		if grouped && groups[k].Example != i {
			continue // named under the example of its kind
		}
		fmt.Fprintf(w, "\n## ✗ %s\n\n", MarkdownEscape(caseLabel(pr, cs)))
		status := CaseStatus(pr, cs)
		if exited[i] != "" {
			status = exited[i]
		}
		fmt.Fprintf(w, "%s\n", MarkdownEscape(status))
		if lines := ScenarioLines(pr, cs); len(lines) > 0 {
			fmt.Fprintln(w)
			writeFence(w, "text", strings.Join(lines, "\n"))
		}
		if cs.Visible {
			markdownDetail(w, pr, cs)
		} else {
			if strings.HasPrefix(cs.Name, "drawn-") && len(cs.Args) > 0 {
				// Drawn for this student alone: the arguments say how to run it again.
				fmt.Fprintf(w, "\n- %s\n", strings.Replace(MarkdownEscape(pr.T("args_line", "Args", argsSlot)), argsSlot, CodeSpan(strings.Join(cs.Args, " ")), 1))
			}
			fmt.Fprintf(w, "\n_%s_\n", MarkdownEscape(pr.T("hidden_case_note")))
		}
		if grouped {
			// Last in the block: a list of its own, after the example's whole detail.
			sameCases(w, pr, res, groups[k])
		}
	}
}

// maxSameListed bounds the cases named under the example of a group: the rest are counted.
const maxSameListed = 10

// sameCases names, under the example of a group, the other cases that failed the same way.
func sameCases(w io.Writer, pr *i18n.Printer, res *checker.Result, g Group) {
	if len(g.Cases) < 2 {
		return
	}
	fmt.Fprintf(w, "\n%s\n\n", MarkdownEscape(pr.N("same_failure_in", len(g.Cases)-1)))
	listed := 0
	for _, i := range g.Cases {
		if i == g.Example {
			continue
		}
		if listed == maxSameListed {
			fmt.Fprintf(w, "- %s\n", MarkdownEscape(pr.N("same_failure_more", len(g.Cases)-1-listed)))
			break
		}
		fmt.Fprintf(w, "- %s\n", MarkdownEscape(caseLabel(pr, res.Cases[i])))
		listed++
	}
}

// exitStatus is the status line of a case that failed by its exit code ("" for any other): the
// program ended with a code of its own where the case expects 0, or with another code than the
// case expects.
func exitStatus(pr *i18n.Printer, cs checker.CaseResult) string {
	switch {
	case cs.Status != checker.Crash && cs.Status != checker.Fail:
		return ""
	case cs.Message == "exit_nonzero":
		return pr.T("status_exit_nonzero", "Code", cs.ExitCode)
	case cs.Message == "exit_code" && cs.WantExit != nil:
		return pr.T("msg_exit_code", "Code", cs.ExitCode, "Want", *cs.WantExit)
	case cs.Message == "exit_zero":
		return pr.T("msg_exit_zero")
	}
	return ""
}

// argsSlot stands for the arguments in the escaped args_line, where they go in as a code span: a
// character of the private-use area, which neither Escape nor MarkdownEscape changes (a NUL, as before,
// came out as the text \x00).
const argsSlot = "\ue000"

// markdownDetail is caseDetail for Markdown.
func markdownDetail(w io.Writer, pr *i18n.Printer, cs checker.CaseResult) {
	args := pr.T("no_args")
	if len(cs.Args) > 0 {
		args = CodeSpan(strings.Join(cs.Args, " "))
	} else {
		args = MarkdownEscape(args)
	}
	fmt.Fprintf(w, "\n- %s\n", strings.Replace(MarkdownEscape(pr.T("args_line", "Args", argsSlot)), argsSlot, args, 1))
	switch cs.Message {
	case "exit_zero":
		fmt.Fprintf(w, "- %s\n", MarkdownEscape(pr.T("msg_exit_zero")))
	case "exit_nonzero":
		fmt.Fprintf(w, "- %s\n", MarkdownEscape(pr.T("msg_exit_nonzero", "Code", cs.ExitCode)))
	case "exit_code":
		if cs.WantExit != nil {
			fmt.Fprintf(w, "- %s\n", MarkdownEscape(pr.T("msg_exit_code", "Code", cs.ExitCode, "Want", *cs.WantExit)))
		}
	case checker.MsgStdoutMatch, checker.MsgStdoutNoMatch, checker.MsgStderrMatch, checker.MsgStderrNoMatch:
		fmt.Fprintf(w, "- %s\n", strings.Replace(MarkdownEscape(streamMessage(pr, cs, argsSlot)), argsSlot, CodeSpan(cs.Pattern), 1))
		if s := strings.TrimSpace(cs.Got); s != "" && isStdoutMessage(cs.Message) {
			fmt.Fprintf(w, "\n%s\n\n", MarkdownEscape(pr.T("stdout_label")))
			writeFence(w, "text", strings.Join(firstLines(s, 12), "\n"))
		}
	case "", checker.MsgMetricLimit, checker.MsgNoMetrics:
		// said with the status (ScenarioLines)
	default:
		// A known cause (a limit of the sandbox and the like) has a message of its own.
		if text, ok := MessageText(pr, cs.Message); ok {
			fmt.Fprintf(w, "- %s\n", MarkdownEscape(text))
		} else {
			fmt.Fprintf(w, "- %s\n", MarkdownEscape(cs.Message))
		}
	}
	if d := cs.Diff; d != nil {
		fmt.Fprintf(w, "- %s\n\n", MarkdownEscape(pr.T("first_diff", "Line", d.Line)))
		writeFence(w, "text", pr.T("want_label")+" "+shown(pr, d.Want, d.Notes, true)+"\n"+
			pr.T("got_label")+" "+shown(pr, d.Got, d.Notes, false))
		if len(d.Notes) > 0 {
			fmt.Fprintln(w)
		}
		for _, n := range d.Notes {
			msg := pr.T("note_" + n)
			if n == checker.NoteLatinLookalike || n == checker.NoteCyrillicInWord {
				cols := checker.LookalikeColumns(d.Want, d.Got)
				msg = pr.N("note_"+n, len(cols), "Cols", joinInts(cols))
			}
			fmt.Fprintf(w, "- **!** %s\n", MarkdownEscape(msg))
		}
	}
	if cs.Status == checker.Crash || cs.Status == checker.Fail && cs.Diff == nil {
		if s := strings.TrimSpace(cs.Stderr); s != "" {
			fmt.Fprintf(w, "\n%s\n\n", MarkdownEscape(pr.T("stderr_label")))
			writeFence(w, "text", strings.Join(firstLines(s, 12), "\n"))
		}
	}
}

// MarkdownEscape escapes the characters that Markdown would take for markup in running text, and
// control characters as Escape does.
func MarkdownEscape(s string) string {
	var b strings.Builder
	for _, r := range Escape(s) {
		if strings.ContainsRune("\\`*_[]<>#|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// writeFence writes text as a fenced code block, with a fence longer than any run of backticks in it;
// control characters are shown as Escape shows them.
func writeFence(w io.Writer, lang, text string) {
	text = Escape(text)
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	fmt.Fprintf(w, "%s%s\n%s\n%s\n", fence, lang, strings.TrimRight(text, "\n"), fence)
}

// CodeSpan writes s as inline code, whatever backticks it holds, on one line and with control
// characters shown as EscapeLine shows them.
func CodeSpan(s string) string {
	s = EscapeLine(s)
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

func longestRun(s string, c rune) int {
	best, n := 0, 0
	for _, r := range s {
		if r == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
