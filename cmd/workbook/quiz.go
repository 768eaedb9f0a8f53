package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/quiz"
	"github.com/workbook-course/workbook/internal/workspace"
)

// errQuizStopped means the input ended before every question was answered.
var errQuizStopped = errors.New("input ended")

// runQuiz asks a lesson's quizzes one by one, checks each answer, says the right one when it was
// wrong, and records the score in the workspace. After an answer it teaches: a wrong first answer
// gets the explanation of the option chosen (<!-- why -->) and another try; the last answer, right
// or wrong, gets its option's explanation and the quiz's own (<!-- explain -->).
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
	in := quiz.NewLineReader(ctx, e.stdin)
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
		ok, err := e.quizOne(ctx, in, q, pt)
		if errors.Is(err, errQuizStopped) || errors.Is(err, context.Canceled) {
			fmt.Fprintln(w)
			fmt.Fprintln(w, e.ui.T("quiz_stopped"))
			return &exitError{code: 2} // the quiz was not finished: no score
		}
		if err != nil {
			return err
		}
		if ok {
			right++
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, pt.bold(e.ui.T("quiz_total", "Score", e.ui.N("quiz_score", right, "Total", len(l.Quizzes)))))
	if p == nil || topic != pos[0] {
		fmt.Fprintln(w, pt.dim(e.ui.T("quiz_not_kept")))
		return nil
	}
	return e.keepQuizScore(p, topic, right, len(l.Quizzes), pt)
}

// quizOne asks q, teaches after each answer, and reports whether the first answer was right. Like
// the web quiz, a wrong first answer gets a word on what to look at and another try; an empty
// second answer shows the right one.
func (e *env) quizOne(ctx context.Context, in *quiz.LineReader, q *lesson.Quiz, pt paint) (bool, error) {
	w := e.stdout
	ok, answer, _, err := e.ask(ctx, in, q, false)
	if err != nil {
		return false, err
	}
	if ok {
		fmt.Fprintln(w, pt.green("✓ "+e.ui.T("quiz_right")))
		return true, e.teach(q, answer, true, pt)
	}
	fmt.Fprintln(w, pt.yellow("✗ "+e.ui.T("quiz_try_again_"+string(q.Kind))))
	if err := e.teach(q, answer, false, pt); err != nil {
		return false, err
	}
	again, second, skipped, err := e.ask(ctx, in, q, true)
	switch {
	case err != nil:
		return false, err
	case again:
		fmt.Fprintln(w, pt.green("✓ "+e.ui.T("quiz_right_second")))
		return false, e.teach(q, second, true, pt)
	case !skipped:
		if err := e.teach(q, second, false, pt); err != nil {
			return false, err
		}
	}
	e.explain(q, pt)
	// The right answer was said: what makes it right, then the explanation.
	return false, e.teach(q, strconv.Itoa(q.Right()+1), true, pt)
}

// keepQuizScore records a finished quiz in the workspace and says the best score when it was taken
// before.
func (e *env) keepQuizScore(p *workspace.Workspace, topic string, right, total int, pt paint) error {
	st, err := e.updateState(p, func(st *progress.State) error {
		st.RecordQuiz(topic, right, total, time.Now())
		return nil
	})
	if err != nil {
		return err
	}
	if q := st.Quizzes[topic]; q.Attempts > 1 {
		fmt.Fprintln(e.stdout, pt.dim(e.ui.T("quiz_best", "Best", e.ui.N("quiz_score", q.Best, "Total", q.Total))))
	}
	return nil
}

// quizPrompt is the question's prompt for an answer to q, "" for a kind the terminal does not ask.
func (e *env) quizPrompt(q *lesson.Quiz) string {
	switch q.Kind {
	case lesson.Choice, lesson.Predict:
		return e.ui.T("quiz_prompt_choice", "Max", quiz.Limit(q))
	case lesson.Bug:
		return e.ui.T("quiz_prompt_line", "Max", quiz.Limit(q))
	case lesson.Fill:
		return e.ui.T("quiz_prompt_fill")
	}
	return ""
}

// ask reads an answer to q until it is one that can be judged (quiz.Take), and reports whether it is
// right and what it was. With mayPass, an empty answer is taken as giving up, and skipped says so.
func (e *env) ask(ctx context.Context, in *quiz.LineReader, q *lesson.Quiz, mayPass bool) (ok bool, answer string, skipped bool, err error) {
	prompt := e.quizPrompt(q)
	if prompt == "" {
		return false, "", false, nil
	}
	if mayPass {
		prompt = e.ui.T("quiz_prompt_again") + " " + prompt
	}
	for {
		fmt.Fprint(e.stdout, prompt+" ")
		line, err := in.Read(ctx)
		if ctx.Err() != nil {
			return false, "", false, ctx.Err()
		}
		if err != nil && (err != io.EOF || line == "") {
			return false, "", false, errQuizStopped
		}
		a := quiz.Take(q, line)
		switch {
		case a.Problem == quiz.OK:
			return a.Right, a.Text, false, nil
		case a.Problem == quiz.Empty && mayPass:
			return false, "", true, nil
		case a.Problem == quiz.Empty && q.Kind == lesson.Fill:
			continue
		case a.Problem == quiz.WantsName:
			// The blank is a name (a constant, a variable), and the learner gave its value.
			fmt.Fprintln(e.stdout, e.ui.T("quiz_fill_name", "Value", a.Text))
		default:
			fmt.Fprintln(e.stdout, e.ui.T("quiz_bad_number", "Max", quiz.Limit(q)))
		}
		if err == io.EOF {
			return false, "", false, errQuizStopped
		}
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

// teach shows what the lesson says about an answer: for a choice or predict quiz, the explanation
// of the option chosen (answer is its number, from 1); when final, the explanation of the quiz.
func (e *env) teach(q *lesson.Quiz, answer string, final bool, pt paint) error {
	var md strings.Builder
	if n, err := strconv.Atoi(answer); err == nil {
		if why := q.Why(n - 1); why != "" {
			md.WriteString("**" + e.ui.T("quiz_why", "N", n) + "** " + why + "\n\n")
		}
	}
	if final && q.Explain != "" {
		md.WriteString(q.Explain + "\n")
	}
	if md.Len() == 0 {
		return nil
	}
	return e.printMarkdown(md.String())
}
