package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/progress"
)

var quizCmd = &command{name: "quiz", usage: "quiz_cmd_usage", summary: "quiz_cmd_summary"}

func init() {
	quizCmd.run = runQuiz
	register(quizCmd)
}

// errQuizStopped means the input ended before every question was answered.
var errQuizStopped = errors.New("input ended")

// runQuiz asks a lesson's quizzes one by one, checks each answer, says the right one when it was
// wrong, and records the score in the workspace.
func runQuiz(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags(quizCmd)
	pos, err := e.parse(quizCmd, flags, args)
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
	in := bufio.NewReader(e.stdin)
	right := 0
	for i, q := range l.Quizzes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := e.printMarkdown(e.quizMarkdown(l, q, i+1, len(l.Quizzes))); err != nil {
			return err
		}
		ok, err := e.ask(in, q)
		if errors.Is(err, errQuizStopped) {
			fmt.Fprintln(w)
			fmt.Fprintln(w, e.ui.T("quiz_stopped"))
			return nil
		}
		if err != nil {
			return err
		}
		if ok {
			right++
			fmt.Fprintln(w, pt.green("✓ "+e.ui.T("quiz_right")))
			continue
		}
		e.explain(q, pt)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, pt.bold(e.ui.T("quiz_total", "Score", e.ui.N("quiz_score", right, "Total", len(l.Quizzes)))))
	if p == nil || topic != pos[0] {
		fmt.Fprintln(w, pt.dim(e.ui.T("quiz_not_kept")))
		return nil
	}
	st, err := e.updateState(p, func(st *progress.State) error {
		st.RecordQuiz(topic, right, len(l.Quizzes), time.Now())
		return nil
	})
	if err != nil {
		return err
	}
	if q := st.Quizzes[topic]; q.Attempts > 1 {
		fmt.Fprintln(w, pt.dim(e.ui.T("quiz_best", "Best", e.ui.N("quiz_score", q.Best, "Total", q.Total))))
	}
	return nil
}

// ask reads an answer to q until it is one that can be checked, and reports whether it is right.
func (e *env) ask(in *bufio.Reader, q *lesson.Quiz) (bool, error) {
	var prompt string
	limit := 0
	switch q.Kind {
	case lesson.Choice:
		limit = len(q.Options)
		prompt = e.ui.T("quiz_prompt_choice", "Max", limit)
	case lesson.Predict:
		limit = len(q.Choices())
		prompt = e.ui.T("quiz_prompt_choice", "Max", limit)
	case lesson.Bug:
		if blocks := q.GoBlocks(); len(blocks) > 0 {
			limit = strings.Count(blocks[0].Text, "\n")
		}
		prompt = e.ui.T("quiz_prompt_line", "Max", limit)
	case lesson.Fill:
		prompt = e.ui.T("quiz_prompt_fill")
	default:
		return false, nil
	}
	for {
		fmt.Fprint(e.stdout, prompt+" ")
		line, err := in.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			return false, errQuizStopped
		}
		answer := strings.TrimSpace(line)
		if q.Kind == lesson.Fill {
			if answer == "" {
				continue
			}
			return q.Judge(answer), nil
		}
		n, cerr := strconv.Atoi(answer)
		if cerr != nil || n < 1 || n > limit {
			fmt.Fprintln(e.stdout, e.ui.T("quiz_bad_number", "Max", limit))
			if err == io.EOF {
				return false, errQuizStopped
			}
			continue
		}
		return q.Judge(answer), nil
	}
}

// explain says what the right answer was.
func (e *env) explain(q *lesson.Quiz, pt paint) {
	w := e.stdout
	switch q.Kind {
	case lesson.Choice, lesson.Predict:
		fmt.Fprintln(w, pt.red("✗ "+e.ui.T("quiz_wrong_choice", "Right", q.Right()+1)))
	case lesson.Bug:
		fmt.Fprintln(w, pt.red("✗ "+e.ui.T("quiz_wrong_line", "Right", q.BugLine)))
		for _, b := range q.Blocks {
			if b.Kind == lesson.FixBlock {
				e.printMarkdown(fenced("go", b.Text))
			}
		}
	case lesson.Fill:
		fmt.Fprintln(w, pt.red("✗ "+e.ui.T("quiz_wrong_fill", "Right", q.Answer)))
	}
}
