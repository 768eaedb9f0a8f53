package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/tty"
	"github.com/workbook-course/workbook/internal/workspace"
)

// env is the command's view of the world: its streams and environment. Nothing below main touches
// os.Stdout or os.Getenv directly, so tests can run commands in-process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string

	ui       *i18n.Printer // messages
	content  string        // bg or ru
	langFlag string        // the --lang value given, if any
	course   *course.Course

	choice  workspace.Choice     // the language settings and where they came from
	ws      *workspace.Workspace // the workspace the working directory is in (made or not), or nil
	entered string               // the root of the workspace whose language content follows
	noted   bool                 // the default content language was explained
	tty     func() bool          // whether the learner can be asked; nil: stdin and stderr are terminals

	flagMessages string   // the --messages value given, if any
	invoke       string   // how the learner runs workbook from here (see invocation), once known
	cmd          *command // the command running

	opener func(argv []string) error // starts the program that opens the browser (serve --open); nil: web.StartCommand
}

// command is one subcommand: its own flags, help text and run function.
type command struct {
	name    string
	usage   string // message ID of its one-line usage
	summary string // message ID of its one-line description
	run     func(ctx context.Context, e *env, args []string) error
}

// commands is the command table: every subcommand, by name. It is a function rather than a
// variable because the commands' own code reads it (help, the commands a message suggests), which
// would make a variable's initialisation depend on itself.
func commands() []*command {
	return []*command{
		{name: "check", usage: "check_usage", summary: "check_summary", run: runCheck},
		{name: "grade", usage: "grade_usage", summary: "grade_summary", run: runGrade},
		{name: "hint", usage: "hint_usage", summary: "hint_summary", run: runHint},
		{name: "init", usage: "init_usage", summary: "init_summary", run: runInit},
		{name: "lang", usage: "lang_usage", summary: "lang_summary", run: runLang},
		{name: "lesson", usage: "lesson_cmd_usage", summary: "lesson_cmd_summary", run: runLesson},
		{name: "list", usage: "list_usage", summary: "list_summary", run: runList},
		{name: "progress", usage: "progress_usage", summary: "progress_summary", run: runProgress},
		{name: "quiz", usage: "quiz_cmd_usage", summary: "quiz_cmd_summary", run: runQuiz},
		{name: "reset", usage: "reset_usage", summary: "reset_summary", run: runReset},
		{name: "restore", usage: "restore_usage", summary: "restore_summary", run: runRestore},
		{name: "run", usage: "run_usage", summary: "run_summary", run: runRun},
		{name: "serve", usage: "serve_usage", summary: "serve_summary", run: runServe},
		{name: "solution", usage: "solution_usage", summary: "solution_summary", run: runSolution},
		{name: "verify", usage: "verify_usage", summary: "verify_summary", run: runVerify},
		{name: "vet", usage: "vet_usage", summary: "vet_summary", run: runVet},
		{name: "watch", usage: "watch_usage", summary: "watch_summary", run: runWatch},
	}
}

// lookup is the command named name, or nil.
func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// runCommand runs c with args.
func (e *env) runCommand(ctx context.Context, c *command, args []string) error {
	e.cmd = c
	return c.run(ctx, e, args)
}

// usageErr is a usage or tool error (exit 2) with a message in the user's language.
func (e *env) usageErr(id string, kv ...any) error {
	return &cli.ExitError{Code: 2, Msg: e.runnable(e.ui.T(id, kv...))}
}

// failed means the check ran and the program is wrong (exit 1); the report is already printed.
var errFailed = &cli.ExitError{Code: 1}

// run is the whole program: it returns the exit code.
func run(ctx context.Context, args []string, e *env) int {
	flagLang, flagMessages, rest := cli.PeekLang(args)
	if e.course == nil {
		e.course = course.New(workbook.Content())
	}
	if lerr := e.decideLangs(flagLang, flagMessages); lerr != nil {
		var le *workspace.LangError
		errors.As(lerr, &le)
		fmt.Fprintln(e.stderr, "workbook: "+e.ui.T("err_unknown_lang", "Source", le.Source, "Value", le.Value))
		return 2
	}
	if len(rest) == 0 {
		return cli.Exit(e.stderr, e.ui, runHome(ctx, e))
	}
	name := rest[0]
	switch name {
	case "help", "-h", "-help", "--help":
		return cli.Exit(e.stderr, e.ui, runHelp(e, rest[1:]))
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintln(e.stderr, "workbook: "+cli.DidYouMean(e.ui, e.ui.T("err_unknown_command", "Name", name), name, commandNames()))
		return 2
	}
	return cli.Exit(e.stderr, e.ui, e.runCommand(ctx, cmd, rest[1:]))
}

// newFlags returns a FlagSet for the command running (cli.NewFlags).
func (e *env) newFlags() *flag.FlagSet { return cli.NewFlags(e.cmd.name, e.ui) }

// parse parses args, flags and positional arguments in any order (cli.Parse). It returns the
// positional ones; help asked for prints the command's help and returns flag.ErrHelp.
func (e *env) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	return cli.Parse(fs, args, e.ui, func() { cli.PrintHelp(e.stdout, e.ui, e.cmd.usage, e.cmd.summary, fs) })
}

func runHelp(e *env, args []string) error {
	if len(args) > 0 {
		if cmd := lookup(args[0]); cmd != nil {
			return e.runCommand(context.Background(), cmd, []string{"--help"})
		}
		return &cli.ExitError{Code: 2, Msg: cli.DidYouMean(e.ui, e.ui.T("err_unknown_command", "Name", args[0]), args[0], commandNames())}
	}
	w := e.stdout
	fmt.Fprintln(w, e.ui.T("help_intro"))
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, e.ui.T(c.summary))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, e.ui.T("help_outro"))
	return nil
}

// commandNames are the names of every command, in the table's order (by name).
func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// colorOK reports whether w is a terminal that may get colours.
func (e *env) colorOK(w io.Writer) bool {
	return tty.Colors(w, e.getenv)
}
