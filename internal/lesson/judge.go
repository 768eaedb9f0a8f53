package lesson

import (
	"strconv"
	"strings"
)

// Judge says whether a learner's answer to q is right. The answer is what the learner typed: for a
// choice or predict-the-output quiz the number of the choice as shown (from 1), for a find-the-bug
// quiz the number of the line, for a fill-in quiz the text of the blank (backticks around it and
// differences in spacing are forgiven). The terminal quiz and the web page both judge through it.
func (q *Quiz) Judge(answer string) bool {
	answer = strings.TrimSpace(answer)
	switch q.Kind {
	case Choice, Predict:
		n, err := strconv.Atoi(answer)
		return err == nil && n == q.Right()+1
	case Bug:
		n, err := strconv.Atoi(answer)
		return err == nil && n == q.BugLine
	case Fill:
		return SameCode(answer, q.Answer)
	}
	return false
}

// SameCode compares a typed piece of code with the expected one, forgiving backticks around it and
// differences in spacing.
func SameCode(typed, want string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(strings.Trim(s, "` ")), " ") }
	return norm(typed) == norm(want)
}
