package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/lesson"
)

// openLesson reads the lesson on topic in lang (falling back to the other language, with a note on
// stderr), or the lesson file at topic when topic is a path to a .md file (for authors who want to
// see their draft as learners will). It returns the lesson and its topic name.
func (e *env) openLesson(topic, lang string) (*lesson.Lesson, string, error) {
	if strings.HasSuffix(topic, ".md") {
		data, err := os.ReadFile(topic)
		if err != nil {
			return nil, "", e.usageErr("err_lesson_file", "File", topic, "Err", err.Error())
		}
		l, perr := lesson.Parse(topic, data)
		if l == nil {
			return nil, "", e.usageErr("err_lesson_file", "File", topic, "Err", perr.Error())
		}
		return l, path.Base(path.Dir(strings.ReplaceAll(topic, `\`, "/"))), nil
	}
	fsys := e.course.FS()
	topics, err := lesson.Topics(fsys, "lessons")
	if err != nil {
		return nil, "", err
	}
	known := false
	for _, t := range topics {
		known = known || t == topic
	}
	if !known {
		// Name the lessons in course order, as `workbook list` shows them.
		if infos, err := e.lessons(lang); err == nil {
			topics = topics[:0]
			for _, info := range infos {
				topics = append(topics, info.Topic)
			}
		}
		return nil, "", &exitError{code: 2, msg: e.didYouMean(e.ui.T("err_unknown_lesson", "Name", topic, "List", strings.Join(topics, ", ")), topic, topics)}
	}
	for i, l := range append([]string{lang}, otherLangs(lang)...) {
		name := path.Join("lessons", topic, l+".md")
		data, err := fs.ReadFile(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		if i > 0 {
			e.warn("warn_lesson_other_lang", "Lang", e.langName(l))
		}
		// A lesson with problems is still shown as far as it could be read: `workbook verify` and
		// the tests are where authors hear about them.
		ls, _ := lesson.Parse(name, data)
		if ls == nil {
			return nil, "", e.usageErr("err_lesson_file", "File", name, "Err", "unreadable")
		}
		return ls, topic, nil
	}
	return nil, "", &exitError{code: 2, msg: e.didYouMean(e.ui.T("err_unknown_lesson", "Name", topic, "List", strings.Join(topics, ", ")), topic, topics)}
}

func otherLangs(lang string) []string {
	var list []string
	for _, l := range lesson.Langs {
		if l != lang {
			list = append(list, l)
		}
	}
	return list
}

// readerMarkdown turns a lesson into the Markdown a reader sees: no front matter, hidden blocks
// dropped, info strings reduced to the language (so code is highlighted as Go and outputs as plain
// text), and each quiz shown as a numbered question without its answer.
func (e *env) readerMarkdown(l *lesson.Lesson, topic string) string {
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
			out.WriteString(e.quizMarkdown(l, q, i+1, len(l.Quizzes)))
			n = max(q.EndLine, n)
			next := n + 1
			for next <= len(lines) && strings.TrimSpace(at(next)) == "" {
				next++
			}
			if _, another := quizzes[next]; !another {
				// After a quiz, or after the last of several in a row: how to answer them.
				out.WriteString("\n" + e.ui.T("quiz_answer_with", "Topic", topic) + "\n")
			}
			continue
		}
		if b, ok := blocks[n]; ok {
			if !b.Hidden {
				out.WriteString(fence(b))
			} else {
				out.WriteString(e.chartNote(l, topic, b)) // lessonchart.go
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

// fence writes a block back as Markdown with only its language as info string.
func fence(b *lesson.Block) string {
	lang := "text"
	if b.Kind == lesson.GoBlock || b.Kind == lesson.FixBlock {
		lang = "go"
	}
	return fenced(lang, b.Text)
}

func fenced(lang, text string) string {
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

// quizMarkdown shows quiz q (number n of total) as a question: the question's own Markdown, then
// what it asks about (numbered options, the code, the choices) and never the answer.
func (e *env) quizMarkdown(l *lesson.Lesson, q *lesson.Quiz, n, total int) string {
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
	fmt.Fprintf(&b, "**%s**\n\n", e.ui.T("quiz_heading", "N", n, "Total", total, "Kind", e.ui.T("quiz_kind_"+string(q.Kind))))
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
			// The explanations wait for the answer.
			for _, stop := range []int{o.WhyLine, q.ExplainLine} {
				if stop > o.Line {
					end = min(end, stop-1)
				}
			}
			var parts []string
			for _, line := range strings.Split(src(o.Line, end), "\n") {
				if line = strings.TrimSpace(optionMark.ReplaceAllString(line, "")); line != "" {
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
				b.WriteString(fence(blk) + "\n")
			case blk.Kind == lesson.ChoiceBlock:
				c++
				fmt.Fprintf(&b, "**%s**\n\n%s\n", e.ui.T("quiz_choice", "N", c), fenced("text", blk.Text))
			}
		}
	case lesson.Bug:
		for _, blk := range q.GoBlocks() {
			b.WriteString(fenced("go", numbered(blk.Text)) + "\n")
		}
	case lesson.Fill:
		for _, blk := range q.Blocks {
			if blk.Hidden || blk.Kind == lesson.FixBlock {
				continue
			}
			b.WriteString(fence(blk) + "\n")
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
