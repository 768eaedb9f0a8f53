package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/quiz"
	"github.com/workbook-course/workbook/internal/tty"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runQuiz asks a lesson's quizzes one by one (quiz.Term), checks each answer, says the right one
// when it was wrong, teaches after it, and records the score in the workspace.
func runQuiz(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return e.usageErr("err_quiz_args", "List", e.topicList())
	}
	p, err := e.keepWorkspace()
	if err != nil {
		return err
	}
	l, topic, err := e.openLesson(pos[0], e.contentLang())
	if err != nil {
		return err
	}
	w := e.stdout
	pt := e.paintFor(w)
	if len(l.Quizzes) == 0 {
		fmt.Fprintln(w, e.ui.T("quiz_none", "Title", l.Meta.Title))
		return nil
	}
	t := &quiz.Term{In: quiz.NewLineReader(ctx, e.stdin), Out: w, UI: e.ui, Markdown: e.printMarkdown,
		Green: pt.Green, Yellow: pt.Yellow, Red: pt.Red}
	right, err := t.Run(ctx, l)
	if errors.Is(err, quiz.ErrStopped) || errors.Is(err, context.Canceled) {
		fmt.Fprintln(w)
		fmt.Fprintln(w, e.ui.T("quiz_stopped"))
		return &cli.ExitError{Code: 2} // the quiz was not finished: no score
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, pt.Bold(e.ui.T("quiz_total", "Score", e.ui.N("quiz_score", right, "Total", len(l.Quizzes)))))
	if p == nil || topic != pos[0] {
		fmt.Fprintln(w, pt.Dim(e.ui.T("quiz_not_kept")))
		return nil
	}
	return e.keepQuizScore(p, topic, right, len(l.Quizzes), pt)
}

// keepQuizScore records a finished quiz in the workspace and says the best score when it was taken
// before.
func (e *env) keepQuizScore(p *workspace.Workspace, topic string, right, total int, pt tty.Paint) error {
	q, err := e.session(p).RecordQuiz(topic, right, total)
	if err != nil {
		return e.stateErr(p.StatePath(), err)
	}
	if q.Attempts > 1 {
		fmt.Fprintln(e.stdout, pt.Dim(e.ui.T("quiz_best", "Best", e.ui.N("quiz_score", q.Best, "Total", q.Total))))
	}
	return nil
}
