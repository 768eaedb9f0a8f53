package main

import (
	"context"
)

// runLesson shows a lesson in the terminal, rendered (headings, highlighted code, tables), with its
// quizzes as questions, through a pager when it is longer than the screen. TOPIC may also be the
// path of a lesson file, to preview a draft.
func runLesson(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	noPager := flags.Bool("no-pager", false, e.ui.T("flag_no_pager"))
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return e.usageErr("err_lesson_args", "List", e.topicList())
	}
	p, err := e.keepWorkspace()
	if err != nil {
		return err
	}
	l, topic, err := e.openLesson(pos[0], e.contentLang())
	if err != nil {
		return err
	}
	// The commands the lesson suggests (`workbook check exercise-deadline`), as they run here.
	text := e.renderMarkdown(e.runnable(e.readerMarkdown(l, topic)))
	if p != nil && topic == pos[0] {
		if err := e.session(p).OpenLesson(topic); err != nil {
			return e.stateErr(p.StatePath(), err)
		}
	}
	return e.page(text, *noPager)
}

// topicList names the lessons of the course, for messages.
func (e *env) topicList() string {
	lessons, err := e.course.Lessons(e.content)
	if err != nil {
		return ""
	}
	s := ""
	for i, l := range lessons {
		if i > 0 {
			s += ", "
		}
		s += l.Topic
	}
	return s
}
