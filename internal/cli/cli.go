// Package cli is the part of workbook's subcommands that knows nothing of the course: flags and
// positional arguments parsed in any order, with help and flag errors in the user's language, the
// language flags found anywhere on the command line, and a command's error turned into its exit
// code (0 ok, 1 check failed, 2 usage or tool error, 130 interrupted).
//
//	fs := cli.NewFlags("check", ui)
//	json := fs.Bool("json", false, ui.T("flag_json"))
//	pos, err := cli.Parse(fs, args, ui, func() { cli.PrintHelp(os.Stdout, ui, "check_usage", "check_summary", fs) })
//	os.Exit(cli.Exit(os.Stderr, ui, err))
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/suggest"
)

// ExitError carries an exit code and, for code 2, the message that tells the user what to do.
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string { return e.Msg }

// Exit turns a command's error into its exit code, printing on w what the user needs to know:
// an ExitError's message, the word for Ctrl-C (130, as a shell gives for SIGINT), or any other
// error as it is (2). Help that was asked for (flag.ErrHelp) is 0.
func Exit(w io.Writer, ui *i18n.Printer, err error) int {
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Msg != "" {
			fmt.Fprintln(w, "workbook: "+ee.Msg)
		}
		return ee.Code
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(w, "workbook: "+ui.T("err_interrupted"))
		return 130
	}
	fmt.Fprintln(w, "workbook: "+err.Error())
	return 2
}

// PeekLang finds --lang and --messages anywhere in args (so that even a usage error is in the right
// language) and returns their values and args without them.
func PeekLang(args []string) (lang, messages string, rest []string) {
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

// SplitDashes splits a command's arguments at the first "--": the command's own, and the program's.
func SplitDashes(args []string) (own, rest []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// NewFlags returns a silent FlagSet for the command name (Parse reports its errors) that accepts
// --lang and --messages, which PeekLang has already applied.
func NewFlags(name string, ui *i18n.Printer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("lang", "", ui.T("flag_lang"))
	fs.String("messages", "", ui.T("flag_messages"))
	fs.Usage = func() {}
	return fs
}

// Parse parses args, flags and positional arguments in any order, and returns the positional ones.
// Help asked for calls help and returns flag.ErrHelp; a bad flag is an ExitError (2) that says what
// is wrong in the user's language.
func Parse(fs *flag.FlagSet, args []string, ui *i18n.Printer, help func()) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help()
				return nil, flag.ErrHelp
			}
			return nil, &ExitError{Code: 2, Msg: ui.T("err_flags", "Err", FlagError(ui, fs, err), "Cmd", fs.Name())}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// FlagError says what is wrong with the flags in the user's language: the flag package's own
// words are English.
func FlagError(ui *i18n.Printer, fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if s := suggest.Closest(name, names); s != "" {
			return ui.T("err_flag_unknown_suggest", "Flag", "--"+name, "Name", "--"+s)
		}
		return ui.T("err_flag_unknown", "Flag", "--"+name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return ui.T("err_flag_needs_value", "Flag", "--"+name)
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		// invalid value "x" for flag -timeout: parse error
		if i := strings.Index(rest, " for flag -"); i >= 0 {
			name := rest[i+len(" for flag -"):]
			if j := strings.Index(name, ":"); j >= 0 {
				name = name[:j]
			}
			return ui.T("err_flag_value", "Flag", "--"+name, "Value", strings.Trim(rest[:i], `"`))
		}
	}
	return msg
}

// PrintHelp writes a command's help: its usage line and summary (message IDs), then its flags.
func PrintHelp(w io.Writer, ui *i18n.Printer, usage, summary string, fs *flag.FlagSet) {
	fmt.Fprintln(w, ui.T("usage_label")+" "+ui.T(usage))
	fmt.Fprintln(w)
	fmt.Fprintln(w, ui.T(summary))
	fmt.Fprintln(w)
	fs.VisitAll(func(f *flag.Flag) {
		fmt.Fprintf(w, "  --%-10s %s\n", f.Name, f.Usage)
	})
}

// DidYouMean is msg followed by "did you mean …?" when a name of names is close to typed.
func DidYouMean(ui *i18n.Printer, msg, typed string, names []string) string {
	if s := suggest.Closest(typed, names); s != "" {
		return msg + " " + ui.T("did_you_mean", "Name", s)
	}
	return msg
}

// Confirmed reports whether a typed answer means yes, in any of the tool's languages.
func Confirmed(answer string) bool {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes", "д", "да":
		return true
	}
	return false
}
