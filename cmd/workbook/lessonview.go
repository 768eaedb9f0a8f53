package main

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/render"
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
		if infos, err := e.course.Lessons(lang); err == nil {
			topics = topics[:0]
			for _, info := range infos {
				topics = append(topics, info.Topic)
			}
		}
		return nil, "", &exitError{code: 2, msg: e.didYouMean(e.ui.T("err_unknown_lesson", "Name", topic, "List", strings.Join(topics, ", ")), topic, topics)}
	}
	for i, l := range append([]string{lang}, course.OtherLangs(lang)...) {
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

// readerMarkdown turns a lesson into the Markdown a reader sees in the terminal
// (render.ReaderMarkdown), with a note for each chart the browser draws.
func (e *env) readerMarkdown(l *lesson.Lesson, topic string) string {
	return render.ReaderMarkdown(l, topic, e.ui, func(b *lesson.Block) string { return e.chartNote(l, topic, b) })
}

// quizMarkdown shows quiz q (number n of total) as a question, without its answer.
func (e *env) quizMarkdown(l *lesson.Lesson, q *lesson.Quiz, n, total int) string {
	return render.QuizMarkdown(l, q, n, total, e.ui)
}

// fenced writes text as a fenced block in lang.
func fenced(lang, text string) string { return render.Fenced(lang, text) }
