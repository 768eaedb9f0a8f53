package render

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// ReaderMarkdown turns a lesson into the Markdown a reader sees: no front matter, hidden blocks
// dropped, info strings reduced to the language (so code is highlighted as Go and outputs as plain
// text), and each quiz shown as a numbered question without its answer.
func ReaderMarkdown(l *lesson.Lesson, topic string, ui *i18n.Printer, chart func(*lesson.Block) string) string {
	lines := strings.Split(string(l.Source), "\n")
	at := func(n int) string { // line n, from 1
		if n < 1 || n > len(lines) {
			return ""
		}
		return lines[n-1]
	}
	blocks := map[int]*lesson.Block{}
	for _, b := range l.Blocks {
		if b.Quiz == nil {
			blocks[b.Line] = b
		}
	}
	quizzes := map[int]int{}
	for i, q := range l.Quizzes {
		quizzes[q.Line] = i
	}
	var out strings.Builder
	n := 1
	if strings.TrimSpace(at(1)) == "---" {
		for n = 2; n <= len(lines) && strings.TrimSpace(at(n)) != "---"; n++ {
		}
		n++
	}
	for ; n <= len(lines); n++ {
		if i, ok := quizzes[n]; ok {
			q := l.Quizzes[i]
			out.WriteString(QuizMarkdown(l, q, i+1, len(l.Quizzes), ui))
			n = max(q.EndLine, n)
			next := n + 1
			for next <= len(lines) && strings.TrimSpace(at(next)) == "" {
				next++
			}
			if _, another := quizzes[next]; !another {
				// After a quiz, or after the last of several in a row: how to answer them.
				out.WriteString("\n" + ui.T("quiz_answer_with", "Topic", topic) + "\n")
			}
			continue
		}
		if b, ok := blocks[n]; ok {
			if !b.Hidden {
				out.WriteString(Fence(b))
			} else {
				if chart != nil {
					out.WriteString(chart(b))
				}
			}
			n = blockEnd(b)
			continue
		}
		out.WriteString(at(n) + "\n")
	}
	return out.String()
}

// blockEnd is the line of a block's closing fence.
func blockEnd(b *lesson.Block) int { return b.Line + strings.Count(b.Text, "\n") + 1 }

// Fence writes a block back as Markdown with only its language as info string.
func Fence(b *lesson.Block) string {
	lang := "text"
	if b.Kind == lesson.GoBlock || b.Kind == lesson.FixBlock {
		lang = "go"
	}
	return Fenced(lang, b.Text)
}

// Fenced writes text as a fenced block in lang, with a fence longer than any run of backticks in it.
func Fenced(lang, text string) string {
	marker := "```"
	for strings.Contains(text, marker) {
		marker += "`"
	}
	return marker + lang + "\n" + text + marker + "\n"
}

var (
	optionMark     = regexp.MustCompile(`^\s*[-*+]\s+\[[ xX]\]\s*`)
	questionNumber = regexp.MustCompile(`^\d+\\?[.)]\s+`)
)

// QuizMarkdown shows quiz q (number n of total) as a question: the question's own Markdown, then
// what it asks about (numbered options, the code, the choices) and never the answer.
func QuizMarkdown(l *lesson.Lesson, q *lesson.Quiz, n, total int, ui *i18n.Printer) string {
	lines := strings.Split(string(l.Source), "\n")
	src := func(from, to int) string { // lines from..to, from 1, inclusive
		from, to = max(from, 1), min(to, len(lines))
		if from > to {
			return ""
		}
		return strings.Join(lines[from-1:to], "\n")
	}
	first := q.EndLine
	if len(q.Options) > 0 {
		first = min(first, q.Options[0].Line)
	}
	if len(q.Blocks) > 0 {
		first = min(first, q.Blocks[0].Line)
	}
	var b strings.Builder
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "**%s**\n\n", ui.T("quiz_heading", "N", n, "Total", total, "Kind", ui.T("quiz_kind_"+string(q.Kind))))
	// The heading numbers the question: a number the author wrote before it ("1\. …") goes.
	if question := questionNumber.ReplaceAllString(strings.TrimSpace(src(q.Line+1, first-1)), ""); question != "" {
		b.WriteString(question + "\n\n")
	}
	switch q.Kind {
	case lesson.Choice:
		for i, o := range q.Options {
			end := q.EndLine - 1
			if i+1 < len(q.Options) {
				end = q.Options[i+1].Line - 1
			}
			// An option's text runs to a blank line or to a comment: its explanation (<!-- why -->)
			// and the quiz's (<!-- explain -->) are shown after an answer, never with the question.
			var parts []string
			for _, line := range strings.Split(src(o.Line, end), "\n") {
				line = strings.TrimSpace(optionMark.ReplaceAllString(line, ""))
				if line == "" && len(parts) > 0 || strings.HasPrefix(line, "<!--") {
					break
				}
				if line != "" {
					parts = append(parts, line)
				}
			}
			fmt.Fprintf(&b, "%d. %s\n", i+1, strings.Join(parts, " "))
		}
	case lesson.Predict:
		c := 0
		for _, blk := range q.Blocks {
			switch {
			case blk.Kind == lesson.GoBlock && !blk.Hidden:
				b.WriteString(Fence(blk) + "\n")
			case blk.Kind == lesson.ChoiceBlock:
				c++
				fmt.Fprintf(&b, "**%s**\n\n%s\n", ui.T("quiz_choice", "N", c), Fenced("text", blk.Text))
			}
		}
	case lesson.Bug:
		for _, blk := range q.GoBlocks() {
			b.WriteString(Fenced("go", numbered(blk.Text)) + "\n")
		}
	case lesson.Fill:
		for _, blk := range q.Blocks {
			if blk.Hidden || blk.Kind == lesson.FixBlock {
				continue
			}
			b.WriteString(Fence(blk) + "\n")
		}
	}
	return b.String()
}

// numbered prefixes each line of code with its number, for "find the line" quizzes.
func numbered(code string) string {
	lines := strings.Split(strings.TrimSuffix(code, "\n"), "\n")
	w := len(strconv.Itoa(len(lines)))
	var b strings.Builder
	for i, line := range lines {
		fmt.Fprintf(&b, "%*d  %s\n", w, i+1, line)
	}
	return b.String()
}
