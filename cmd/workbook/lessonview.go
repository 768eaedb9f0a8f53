package main

import (
	"errors"
	"os"
	"path"
	"strings"

	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/render"
	"github.com/workbook-course/workbook/internal/web"
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
	l, in, file, err := e.course.Lesson(topic, lang)
	var ue *course.UnknownLessonError
	switch {
	case errors.As(err, &ue):
		return nil, "", &cli.ExitError{Code: 2, Msg: cli.DidYouMean(e.ui, e.ui.T("err_unknown_lesson", "Name", topic, "List", strings.Join(ue.Topics, ", ")), topic, ue.Topics)}
	case errors.Is(err, course.ErrUnreadableLesson):
		return nil, "", e.usageErr("err_lesson_file", "File", file, "Err", err.Error())
	case err != nil:
		return nil, "", err
	}
	if in != lang {
		e.warn("warn_lesson_other_lang", "Lang", e.langName(in))
	}
	return l, topic, nil
}

// readerMarkdown turns a lesson into the Markdown a reader sees in the terminal
// (render.ReaderMarkdown), with a note for each chart the browser draws.
func (e *env) readerMarkdown(l *lesson.Lesson, topic string) string {
	return render.ReaderMarkdown(l, topic, e.ui, func(b *lesson.Block) string { return web.ChartNote(l, topic, b, e.ui) })
}
