package main

import "github.com/workbook-course/workbook/internal/suggest"

// didYouMean is msg followed by "did you mean …?" when a name of names is close to typed.
func (e *env) didYouMean(msg, typed string, names []string) string {
	if s := suggest.Closest(typed, names); s != "" {
		return msg + " " + e.ui.T("did_you_mean", "Name", s)
	}
	return msg
}
