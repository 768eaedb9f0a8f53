package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/suggest"
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

	flagMessages string // the --messages value given, if any
	invoke       string // how the learner runs workbook from here (see invocation), once known
}

// command is one subcommand: its own flags, help text and run function.
type command struct {
	name    string
	usage   string // message ID of its one-line usage
	summary string // message ID of its one-line description
	run     func(ctx context.Context, e *env, args []string) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// exitError carries an exit code and, for code 2, the message that tells the user what to do.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageErr is a usage or tool error (exit 2) with a message in the user's language.
func (e *env) usageErr(id string, kv ...any) error {
	return &exitError{code: 2, msg: e.runnable(e.ui.T(id, kv...))}
}

// failed means the check ran and the program is wrong (exit 1); the report is already printed.
var errFailed = &exitError{code: 1}

// run is the whole program: it returns the exit code.
func run(ctx context.Context, args []string, e *env) int {
	flagLang, flagMessages, rest := peekLang(args)
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
		return finish(e, runHome(ctx, e))
	}
	name := rest[0]
	switch name {
	case "help", "-h", "-help", "--help":
		return finish(e, runHelp(e, rest[1:]))
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintln(e.stderr, "workbook: "+e.didYouMean(e.ui.T("err_unknown_command", "Name", name), name, commandNames()))
		return 2
	}
	return finish(e, cmd.run(ctx, e, rest[1:]))
}

// finish turns a command's error into an exit code, printing what the user needs to know.
func finish(e *env, err error) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(e.stderr, "workbook: "+ee.msg)
		}
		return ee.code
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.Is(err, context.Canceled) {
		// Ctrl-C: 130, as a shell gives for SIGINT.
		fmt.Fprintln(e.stderr, "workbook: "+e.ui.T("err_interrupted"))
		return 130
	}
	fmt.Fprintln(e.stderr, "workbook: "+err.Error())
	return 2
}

// peekLang finds --lang and --messages anywhere in args (so that even a usage error is in the right
// language) and returns their values and args without them.
func peekLang(args []string) (lang, messages string, rest []string) {
	rest = make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		matched := false
		for _, f := range []struct {
			name string
			to   *string
		}{{"lang", &lang}, {"messages", &messages}} {
			for _, dash := range []string{"--", "-"} {
				if v, ok := strings.CutPrefix(a, dash+f.name+"="); ok {
					*f.to, matched = v, true
				} else if a == dash+f.name && i+1 < len(args) {
					*f.to, matched = args[i+1], true
					i++
				}
			}
		}
		if !matched {
			rest = append(rest, a)
		}
	}
	return lang, messages, rest
}

// newFlags returns a FlagSet for cmd that prints its help in the user's language; every command
// accepts --lang (already applied by run).
func (e *env) newFlags(cmd *command) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("lang", "", e.ui.T("flag_lang"))
	fs.String("messages", "", e.ui.T("flag_messages"))
	fs.Usage = func() {}
	return fs
}

// parse parses args, flags and positional arguments in any order. It returns the positional ones.
// Help asked for prints the command's help and returns flag.ErrHelp.
func (e *env) parse(cmd *command, fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				e.printCommandHelp(cmd, fs)
				return nil, flag.ErrHelp
			}
			return nil, &exitError{code: 2, msg: e.ui.T("err_flags", "Err", e.flagError(fs, err), "Cmd", cmd.name)}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// flagError says what is wrong with the flags in the user's language: the flag package's own
// words are English.
func (e *env) flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if s := suggest.Closest(name, names); s != "" {
			return e.ui.T("err_flag_unknown_suggest", "Flag", "--"+name, "Name", "--"+s)
		}
		return e.ui.T("err_flag_unknown", "Flag", "--"+name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return e.ui.T("err_flag_needs_value", "Flag", "--"+name)
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		// invalid value "x" for flag -timeout: parse error
		if i := strings.Index(rest, " for flag -"); i >= 0 {
			name := rest[i+len(" for flag -"):]
			if j := strings.Index(name, ":"); j >= 0 {
				name = name[:j]
			}
			return e.ui.T("err_flag_value", "Flag", "--"+name, "Value", strings.Trim(rest[:i], `"`))
		}
	}
	return msg
}

func (e *env) printCommandHelp(cmd *command, fs *flag.FlagSet) {
	w := e.stdout
	fmt.Fprintln(w, e.ui.T("usage_label")+" "+e.ui.T(cmd.usage))
	fmt.Fprintln(w)
	fmt.Fprintln(w, e.ui.T(cmd.summary))
	fmt.Fprintln(w)
	fs.VisitAll(func(f *flag.Flag) {
		fmt.Fprintf(w, "  --%-10s %s\n", f.Name, f.Usage)
	})
}

func runHelp(e *env, args []string) error {
	if len(args) > 0 {
		if cmd, ok := commands[args[0]]; ok {
			return cmd.run(context.Background(), e, []string{"--help"})
		}
		return &exitError{code: 2, msg: e.didYouMean(e.ui.T("err_unknown_command", "Name", args[0]), args[0], commandNames())}
	}
	w := e.stdout
	fmt.Fprintln(w, e.ui.T("help_intro"))
	fmt.Fprintln(w)
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, e.ui.T(commands[n].summary))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, e.ui.T("help_outro"))
	return nil
}

// commandNames are the names of every command, sorted.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// colorOK reports whether w is a terminal that may get colours.
func (e *env) colorOK(w io.Writer) bool {
	if e.getenv("NO_COLOR") != "" || e.getenv("TERM") == "dumb" {
		return false
	}
	return tty.IsTerminal(w)
}
