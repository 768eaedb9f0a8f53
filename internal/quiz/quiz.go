// Package quiz asks a lesson's quizzes at a terminal: it reads the learner's lines without going
// deaf to Ctrl-C, and tells an answer that can be judged from one that cannot (a number out of
// range, a value typed where the blank wants a name), judging the first with the lesson's quiz.
// Term runs the whole conversation: question, answer, a second try, and what the lesson teaches.
//
//	in := quiz.NewLineReader(ctx, os.Stdin)
//	line, err := in.Read(ctx)
//	switch a := quiz.Take(q, line); a.Problem {
//	case quiz.OK:
//		fmt.Println(a.Right)
//	case quiz.BadNumber:
//		fmt.Printf("a number from 1 to %d, please\n", quiz.Limit(q))
//	}
package quiz

import (
	"bufio"
	"context"
	"go/token"
	"io"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/lesson"
)

// Problem is why a typed answer cannot be judged, or OK.
type Problem int

const (
	OK        Problem = iota // judged
	Empty                    // nothing was typed
	BadNumber                // a choice or line number that is not one from 1 to Limit
	WantsName                // a number where the blank wants a name (a constant, a variable)
	Unasked                  // a kind of quiz the terminal does not ask
)

// Answer is a typed answer taken: the answer as judged (a choice as its number from 1, a fill-in as
// typed, trimmed), whether it is right, or the problem that kept it from being judged.
type Answer struct {
	Text    string
	Right   bool
	Problem Problem
}

// Limit is the highest number an answer to q may be: its options for a choice or predict quiz, the
// lines of its code for a bug quiz; 0 for a fill-in.
func Limit(q *lesson.Quiz) int {
	switch q.Kind {
	case lesson.Choice:
		return len(q.Options)
	case lesson.Predict:
		return len(q.Choices())
	case lesson.Bug:
		if blocks := q.GoBlocks(); len(blocks) > 0 {
			return strings.Count(blocks[0].Text, "\n")
		}
	}
	return 0
}

// Take judges the line typed in answer to q.
func Take(q *lesson.Quiz, line string) Answer {
	typed := strings.TrimSpace(line)
	switch q.Kind {
	case lesson.Choice, lesson.Predict, lesson.Bug, lesson.Fill:
	default:
		return Answer{Problem: Unasked}
	}
	if typed == "" {
		return Answer{Problem: Empty}
	}
	if q.Kind == lesson.Fill {
		if wantsName(q.Answer, typed) {
			return Answer{Text: typed, Problem: WantsName}
		}
		return Answer{Text: typed, Right: q.Judge(typed)}
	}
	n, err := strconv.Atoi(typed)
	if err != nil || n < 1 || n > Limit(q) {
		return Answer{Text: typed, Problem: BadNumber}
	}
	return Answer{Text: strconv.Itoa(n), Right: q.Judge(typed)}
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

// LineReader reads lines in the background, so that a question waiting for an answer still hears
// Ctrl-C.
type LineReader struct {
	lines chan readLine
}

type readLine struct {
	text string
	err  error
}

// NewLineReader starts reading r; the reading stops when r ends or ctx is done.
func NewLineReader(ctx context.Context, r io.Reader) *LineReader {
	lr := &LineReader{lines: make(chan readLine)}
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

// Read returns the next line (with its newline), or the error that ended the input.
func (lr *LineReader) Read(ctx context.Context) (string, error) {
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
