package grade

import (
	"bytes"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestExitedOnPurpose: a program that ends with an exit code of its own failed the case by it (the
// verdict fail, the feedback's "ended with exit code 1", hidden case or not); a panic, a fatal error
// and a limit of the sandbox stay crashes.
func TestExitedOnPurpose(t *testing.T) {
	tests := []struct {
		name   string
		cs     checker.CaseResult
		want   checker.Verdict
		status string // in the feedback (Bulgarian), "" not checked
	}{
		{"os.Exit(1), right output", checker.CaseResult{Status: checker.Crash, Message: "exit_nonzero", ExitCode: 1, Got: "ok\n"}, checker.Fail, "Програмата завърши с код 1."},
		{"log.Fatal", checker.CaseResult{Status: checker.Crash, Message: "exit_nonzero", ExitCode: 1, Stderr: "2026/12/01 boom\n"}, checker.Fail, "Програмата завърши с код 1."},
		{"panic", checker.CaseResult{Status: checker.Crash, Message: "exit_nonzero", ExitCode: 2, Stderr: "panic: boom\n\ngoroutine 1 [running]:\n"}, checker.Crash, ""},
		{"deadlock", checker.CaseResult{Status: checker.Crash, Message: "exit_nonzero", ExitCode: 2, Stderr: "fatal error: all goroutines are asleep - deadlock!\n"}, checker.Crash, ""},
		{"network", checker.CaseResult{Status: checker.Crash, Message: checker.ReasonNetwork, ExitCode: 1}, checker.Crash, ""},
		{"killed by a signal", checker.CaseResult{Status: checker.Crash, Message: "exit_nonzero", ExitCode: -1}, checker.Crash, ""},
	}
	for _, tt := range tests {
		for _, visible := range []bool{true, false} {
			t.Run(tt.name, func(t *testing.T) {
				cs := tt.cs
				cs.Name, cs.Visible = "c1", visible
				res := &checker.Result{Exercise: "exercise-deadline", Lang: "bg", Cases: []checker.CaseResult{cs}}
				exitedOnPurpose(res)
				res.Summarize()
				if res.Verdict != tt.want {
					t.Fatalf("verdict %s, want %s", res.Verdict, tt.want)
				}
				if tt.status == "" {
					return
				}
				rep := &Report{Exercise: "exercise-deadline", Students: []Student{{Name: "s", Lang: "bg", Result: res}}}
				rep.Finalize()
				var fb bytes.Buffer
				Feedback(&fb, rep, rep.Students[0])
				if !strings.Contains(fb.String(), tt.status) || strings.Contains(fb.String(), "Изходът е различен") || strings.Contains(fb.String(), "се срина") {
					t.Errorf("feedback (visible %t) does not say %q:\n%s", visible, tt.status, fb.String())
				}
			})
		}
	}
}
