package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"go/token"
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
// wrong, and records the score in the workspace. After an answer it teaches: a wrong first answer
// gets the explanation of the option chosen (<!-- why -->) and another try; the last answer, right
// or wrong, gets its option's explanation and the quiz's own (<!-- explain -->).
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
	in := newLineReader(ctx, e.stdin)
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
		ok, answer, _, err := e.ask(ctx, in, q, false)
		if err == nil && !ok {
			// Like the web quiz: a word on what to look at, and another try; the score counts the
			// first answer. An empty answer shows the right one.
			fmt.Fprintln(w, pt.yellow("✗ "+e.ui.T("quiz_try_again_"+string(q.Kind))))
			if err = e.teach(q, answer, false, pt); err != nil {
				return err
			}
			again, second, skipped, aerr := e.ask(ctx, in, q, true)
			switch {
			case aerr != nil:
				err = aerr
			case again:
				fmt.Fprintln(w, pt.green("✓ "+e.ui.T("quiz_right_second")))
				if err := e.teach(q, second, true, pt); err != nil {
					return err
				}
				continue
			case !skipped:
				if err := e.teach(q, second, false, pt); err != nil {
					return err
				}
			}
		}
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
			fmt.Fprintln(w, pt.green("✓ "+e.ui.T("quiz_right")))
			if err := e.teach(q, answer, true, pt); err != nil {
				return err
			}
			continue
		}
		e.explain(q, pt)
		// The right answer was said: what makes it right, then the explanation.
		if err := e.teach(q, strconv.Itoa(q.Right()+1), true, pt); err != nil {
			return err
		}
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

// ask reads an answer to q until it is one that can be checked, and reports whether it is right and
// what it was. With mayPass, an empty answer is taken as giving up, and skipped says so.
func (e *env) ask(ctx context.Context, in *lineReader, q *lesson.Quiz, mayPass bool) (ok bool, answer string, skipped bool, err error) {
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
		return false, "", false, nil
	}
	if mayPass {
		prompt = e.ui.T("quiz_prompt_again") + " " + prompt
	}
	for {
		fmt.Fprint(e.stdout, prompt+" ")
		line, err := in.read(ctx)
		if ctx.Err() != nil {
			return false, "", false, ctx.Err()
		}
		if err != nil && (err != io.EOF || line == "") {
			return false, "", false, errQuizStopped
		}
		answer := strings.TrimSpace(line)
		if answer == "" && mayPass {
			return false, "", true, nil
		}
		if q.Kind == lesson.Fill {
			if answer == "" {
				continue
			}
			if wantsName(q.Answer, answer) {
				// The blank is a name (a constant, a variable), and the learner gave its value.
				fmt.Fprintln(e.stdout, e.ui.T("quiz_fill_name", "Value", answer))
				if err == io.EOF {
					return false, "", false, errQuizStopped
				}
				continue
			}
			return q.Judge(answer), answer, false, nil
		}
		n, cerr := strconv.Atoi(answer)
		if cerr != nil || n < 1 || n > limit {
			fmt.Fprintln(e.stdout, e.ui.T("quiz_bad_number", "Max", limit))
			if err == io.EOF {
				return false, "", false, errQuizStopped
			}
			continue
		}
		return q.Judge(answer), strconv.Itoa(n), false, nil
	}
}

// lineReader reads lines in the background, so that a question waiting for an answer still hears
// Ctrl-C.
type lineReader struct {
	lines chan readLine
}

type readLine struct {
	text string
	err  error
}

func newLineReader(ctx context.Context, r io.Reader) *lineReader {
	lr := &lineReader{lines: make(chan readLine)}
	go func() {
		defer close(lr.lines)
		br := bufio.NewReader(r)
		for {
			text, err := br.ReadString('\n')
			select {
			case lr.lines <- readLine{text, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return lr
}

// read returns the next line (with its newline), or the error that ended the input.
func (lr *lineReader) read(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case l, ok := <-lr.lines:
		if !ok {
			return "", io.EOF
		}
		return l.text, l.err
	}
}

// wantsName reports whether a fill-in answer is a number where the blank wants a name: the quiz
// asks which constant stands there, and the learner typed its value.
func wantsName(want, typed string) bool {
	_, typedNum := strconv.ParseFloat(strings.Trim(typed, "` "), 64)
	_, wantNum := strconv.ParseFloat(strings.Trim(want, "` "), 64)
	return typedNum == nil && wantNum != nil && isIdent(want)
}

// isIdent reports whether s is a Go identifier (or a selector such as time.Second).
func isIdent(s string) bool {
	for _, part := range strings.Split(strings.Trim(s, "` "), ".") {
		if !token.IsIdentifier(part) {
			return false
		}
	}
	return true
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
