package quiz

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/render"
)

// ErrStopped means the input ended before every question was answered.
var ErrStopped = errors.New("input ended")

// Term asks a lesson's quizzes at a terminal, one by one: it writes each question, reads the
// answer from In until it can be judged, and teaches after it. A wrong first answer gets the
// explanation of the option chosen (<!-- why -->) and another try; the last answer, right or
// wrong, gets its option's explanation and the quiz's own (<!-- explain -->).
//
//	t := &quiz.Term{In: quiz.NewLineReader(ctx, os.Stdin), Out: os.Stdout, UI: ui, Markdown: print}
//	right, err := t.Run(ctx, l)
type Term struct {
	In       *LineReader
	Out      io.Writer
	UI       *i18n.Printer
	Markdown func(md string) error // renders Markdown (questions, explanations) onto Out

	// Green, Yellow and Red colour a verdict's line; nil leaves it plain.
	Green, Yellow, Red func(string) string
}

// Run asks every quiz of l and returns how many were answered right at the first try. It returns
// ErrStopped when the input ends first, or the context's error when ctx ends.
func (t *Term) Run(ctx context.Context, l *lesson.Lesson) (right int, err error) {
	for i, q := range l.Quizzes {
		if err := ctx.Err(); err != nil {
			return right, err
		}
		if i > 0 {
			fmt.Fprintln(t.Out)
		}
		if err := t.Markdown(render.QuizMarkdown(l, q, i+1, len(l.Quizzes), t.UI)); err != nil {
			return right, err
		}
		ok, err := t.One(ctx, q)
		if err != nil {
			return right, err
		}
		if ok {
			right++
		}
	}
	return right, nil
}

// One asks q, teaches after each answer, and reports whether the first answer was right. Like
// the web quiz, a wrong first answer gets a word on what to look at and another try; an empty
// second answer shows the right one.
func (t *Term) One(ctx context.Context, q *lesson.Quiz) (bool, error) {
	ok, answer, _, err := t.ask(ctx, q, false)
	if err != nil {
		return false, err
	}
	if ok {
		fmt.Fprintln(t.Out, paint(t.Green, "✓ "+t.UI.T("quiz_right")))
		return true, t.teach(q, answer, true)
	}
	fmt.Fprintln(t.Out, paint(t.Yellow, "✗ "+t.UI.T("quiz_try_again_"+string(q.Kind))))
	if err := t.teach(q, answer, false); err != nil {
		return false, err
	}
	again, second, skipped, err := t.ask(ctx, q, true)
	switch {
	case err != nil:
		return false, err
	case again:
		fmt.Fprintln(t.Out, paint(t.Green, "✓ "+t.UI.T("quiz_right_second")))
		return false, t.teach(q, second, true)
	case !skipped:
		if err := t.teach(q, second, false); err != nil {
			return false, err
		}
	}
	t.explain(q)
	// The right answer was said: what makes it right, then the explanation.
	return false, t.teach(q, strconv.Itoa(q.Right()+1), true)
}

// paint is s coloured by c, or s when c is nil.
func paint(c func(string) string, s string) string {
	if c == nil {
		return s
	}
	return c(s)
}

// prompt is the question's prompt for an answer to q, "" for a kind the terminal does not ask.
func (t *Term) prompt(q *lesson.Quiz) string {
	switch q.Kind {
	case lesson.Choice, lesson.Predict:
		return t.UI.T("quiz_prompt_choice", "Max", Limit(q))
	case lesson.Bug:
		return t.UI.T("quiz_prompt_line", "Max", Limit(q))
	case lesson.Fill:
		return t.UI.T("quiz_prompt_fill")
	}
	return ""
}

// ask reads an answer to q until it is one that can be judged (Take), and reports whether it is
// right and what it was. With mayPass, an empty answer is taken as giving up, and skipped says so.
func (t *Term) ask(ctx context.Context, q *lesson.Quiz, mayPass bool) (ok bool, answer string, skipped bool, err error) {
	prompt := t.prompt(q)
	if prompt == "" {
		return false, "", false, nil
	}
	if mayPass {
		prompt = t.UI.T("quiz_prompt_again") + " " + prompt
	}
	for {
		fmt.Fprint(t.Out, prompt+" ")
		line, err := t.In.Read(ctx)
		if ctx.Err() != nil {
			return false, "", false, ctx.Err()
		}
		if err != nil && (err != io.EOF || line == "") {
			return false, "", false, ErrStopped
		}
		a := Take(q, line)
		switch {
		case a.Problem == OK:
			return a.Right, a.Text, false, nil
		case a.Problem == Empty && mayPass:
			return false, "", true, nil
		case a.Problem == Empty && q.Kind == lesson.Fill:
			continue
		case a.Problem == WantsName:
			// The blank is a name (a constant, a variable), and the learner gave its value.
			fmt.Fprintln(t.Out, t.UI.T("quiz_fill_name", "Value", a.Text))
		default:
			fmt.Fprintln(t.Out, t.UI.T("quiz_bad_number", "Max", Limit(q)))
		}
		if err == io.EOF {
			return false, "", false, ErrStopped
		}
	}
}

// explain says what the right answer was.
func (t *Term) explain(q *lesson.Quiz) {
	switch q.Kind {
	case lesson.Choice, lesson.Predict:
		fmt.Fprintln(t.Out, paint(t.Red, "✗ "+t.UI.T("quiz_wrong_choice", "Right", q.Right()+1)))
	case lesson.Bug:
		fmt.Fprintln(t.Out, paint(t.Red, "✗ "+t.UI.T("quiz_wrong_line", "Right", q.BugLine)))
		for _, b := range q.Blocks {
			if b.Kind == lesson.FixBlock {
				t.Markdown(render.Fenced("go", b.Text))
			}
		}
	case lesson.Fill:
		fmt.Fprintln(t.Out, paint(t.Red, "✗ "+t.UI.T("quiz_wrong_fill", "Right", q.Answer)))
	}
}

// teach shows what the lesson says about an answer: for a choice or predict quiz, the explanation
// of the option chosen (answer is its number, from 1); when final, the explanation of the quiz.
func (t *Term) teach(q *lesson.Quiz, answer string, final bool) error {
	var md strings.Builder
	if n, err := strconv.Atoi(answer); err == nil {
		if why := q.Why(n - 1); why != "" {
			md.WriteString("**" + t.UI.T("quiz_why", "N", n) + "** " + why + "\n\n")
		}
	}
	if final && q.Explain != "" {
		md.WriteString(q.Explain + "\n")
	}
	if md.Len() == 0 {
		return nil
	}
	return t.Markdown(md.String())
}
