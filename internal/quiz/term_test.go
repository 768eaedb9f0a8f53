package quiz

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// TestTermOne follows one choice question through the answers a learner may give: what is said,
// in order, and whether the first answer counts as right.
func TestTermOne(t *testing.T) {
	q := &lesson.Quiz{Kind: lesson.Choice, Explain: "EXPLAIN", Options: []lesson.Option{
		{Text: "a", Why: "WHY-A"}, {Text: "b", Correct: true, Why: "WHY-B"}, {Text: "c", Why: "WHY-C"}}}
	ui := i18n.New("en")
	for _, tc := range []struct {
		name    string
		input   string
		want    []string // in the output, in this order
		right   bool
		wantErr error
	}{
		{"right at once", "2\n", []string{"✓ " + ui.T("quiz_right"), "WHY-B", "EXPLAIN"}, true, nil},
		{"right at the second try", "1\n2\n", []string{"✗ " + ui.T("quiz_try_again_choice"), "WHY-A", "✓ " + ui.T("quiz_right_second"), "WHY-B", "EXPLAIN"}, false, nil},
		{"wrong twice", "1\n3\n", []string{"WHY-A", "WHY-C", "✗ " + ui.T("quiz_wrong_choice", "Right", 2), "WHY-B", "EXPLAIN"}, false, nil},
		{"gave up", "1\n\n", []string{"WHY-A", "✗ " + ui.T("quiz_wrong_choice", "Right", 2), "WHY-B", "EXPLAIN"}, false, nil},
		{"out of range, then right", "9\n2\n", []string{ui.T("quiz_bad_number", "Max", 3), "✓ " + ui.T("quiz_right")}, true, nil},
		{"input ends", "1\n", []string{"WHY-A"}, false, ErrStopped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			var out strings.Builder
			term := &Term{In: NewLineReader(ctx, strings.NewReader(tc.input)), Out: &out, UI: ui,
				Markdown: func(md string) error { out.WriteString(md); return nil }}
			right, err := term.One(ctx, q)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("One: error %v, want %v", err, tc.wantErr)
			}
			if right != tc.right {
				t.Errorf("One = %v, want %v", right, tc.right)
			}
			got, rest := out.String(), out.String()
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("output lacks %q (in order):\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}
