package quiz

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/lesson"
)

func TestTake(t *testing.T) {
	choice := &lesson.Quiz{Kind: lesson.Choice, Options: []lesson.Option{{Text: "a"}, {Text: "b", Correct: true}, {Text: "c"}}}
	fillName := &lesson.Quiz{Kind: lesson.Fill, Answer: "`maxAttempts`"}
	fillValue := &lesson.Quiz{Kind: lesson.Fill, Answer: "3"}
	for _, tc := range []struct {
		name string
		q    *lesson.Quiz
		line string
		want Answer
	}{
		{"right choice", choice, " 2\n", Answer{Text: "2", Right: true}},
		{"wrong choice", choice, "1\n", Answer{Text: "1"}},
		{"leading zero", choice, "02", Answer{Text: "2", Right: true}},
		{"out of range", choice, "4\n", Answer{Text: "4", Problem: BadNumber}},
		{"zero", choice, "0", Answer{Text: "0", Problem: BadNumber}},
		{"not a number", choice, "b", Answer{Text: "b", Problem: BadNumber}},
		{"empty", choice, "  \n", Answer{Problem: Empty}},
		{"fill right", fillName, "maxAttempts\n", Answer{Text: "maxAttempts", Right: true}},
		{"fill value for a name", fillName, "3", Answer{Text: "3", Problem: WantsName}},
		{"fill wrong name", fillName, "attempts", Answer{Text: "attempts"}},
		{"fill a number wanted", fillValue, "3", Answer{Text: "3", Right: true}},
		{"fill empty", fillName, "\n", Answer{Problem: Empty}},
		{"unasked kind", &lesson.Quiz{Kind: "essay"}, "1", Answer{Problem: Unasked}},
	} {
		if got := Take(tc.q, tc.line); got != tc.want {
			t.Errorf("%s: Take(%q) = %+v, want %+v", tc.name, tc.line, got, tc.want)
		}
	}
}

func TestLimit(t *testing.T) {
	bug := &lesson.Quiz{Kind: lesson.Bug, Blocks: []*lesson.Block{{Kind: lesson.GoBlock, Text: "a\nb\nc\n"}}}
	for _, tc := range []struct {
		q    *lesson.Quiz
		want int
	}{
		{&lesson.Quiz{Kind: lesson.Choice, Options: make([]lesson.Option, 4)}, 4},
		{bug, 3},
		{&lesson.Quiz{Kind: lesson.Fill}, 0},
	} {
		if got := Limit(tc.q); got != tc.want {
			t.Errorf("Limit(%s) = %d, want %d", tc.q.Kind, got, tc.want)
		}
	}
}

func TestLineReader(t *testing.T) {
	ctx := context.Background()
	lr := NewLineReader(ctx, strings.NewReader("1\nlast"))
	for _, want := range []struct {
		text string
		err  error
	}{{"1\n", nil}, {"last", io.EOF}, {"", io.EOF}} {
		got, err := lr.Read(ctx)
		if got != want.text || err != want.err {
			t.Errorf("Read = %q, %v; want %q, %v", got, err, want.text, want.err)
		}
	}
	pr, pw := io.Pipe() // an answer that never comes
	defer pw.Close()
	cctx, cancel := context.WithCancel(ctx)
	lr = NewLineReader(cctx, pr)
	cancel()
	if _, err := lr.Read(cctx); err != context.Canceled {
		t.Errorf("Read after cancel: %v, want context.Canceled", err)
	}
}
