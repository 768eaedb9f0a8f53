// Command workbook runs the course on resilience patterns: it checks exercises, shows lessons and
// hints, verifies lessons for authors and grades a class for instructors.
//
//	workbook check exercise-deadline [--dir DIR] [--lang ru|bg|en] [--messages en|ru|bg] [--json]
//
// The learner's programs live in a workspace (internal/workspace): ./my/ in a clone of the course,
// made by the first command that needs it, or a folder made by `workbook init`.
//
// Run `workbook help` for every command. Exit codes: 0 ok, 1 the check failed, 2 usage or tool error.
package main

import (
	"context"
	"os"
	"os/signal"

	// Before the heavier dependencies initialise: no garbage collection during start-up.
	_ "github.com/workbook-course/workbook/internal/firstgc"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	stop()
	os.Exit(code)
}
