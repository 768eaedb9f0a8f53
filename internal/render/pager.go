package render

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/workbook-course/workbook/internal/tty"
)

// Page writes text to w, through a pager when w is a terminal and text is longer than the screen:
// $WORKBOOK_PAGER or $PAGER, else less (as less -R, keeping colours), else more, with the pager's
// errors on errw. With no pager, or if the pager fails to start, the text is written as it is.
// getenv reads the environment (os.Getenv, or a test's).
func Page(text string, w, errw io.Writer, getenv func(string) string) error {
	if !tty.IsTerminal(w) {
		_, err := io.WriteString(w, text)
		return err
	}
	if rows := tty.Height(w, 0); rows == 0 || strings.Count(text, "\n") < rows-1 {
		_, err := io.WriteString(w, text)
		return err
	}
	cmd := pager(getenv)
	if cmd == nil {
		_, err := io.WriteString(w, text)
		return err
	}
	cmd.Stdin = strings.NewReader(text)
	cmd.Stdout, cmd.Stderr = w, errw
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil // the pager ran and quit its own way
		}
		_, err := io.WriteString(w, text)
		return err
	}
	return nil
}

// pager is the command that pages text: $WORKBOOK_PAGER or $PAGER (split at spaces), else less, else
// more. It returns nil when none is found.
func pager(getenv func(string) string) *exec.Cmd {
	for _, k := range []string{"WORKBOOK_PAGER", "PAGER"} {
		if v := strings.Fields(getenv(k)); len(v) > 0 {
			if p, err := exec.LookPath(v[0]); err == nil {
				return pagerCmd(getenv, p, v[1:]...)
			}
		}
	}
	if p, err := exec.LookPath("less"); err == nil {
		return pagerCmd(getenv, p, "-R")
	}
	name := "more"
	if runtime.GOOS == "windows" {
		name = "more.com"
	}
	if p, err := exec.LookPath(name); err == nil {
		return pagerCmd(getenv, p)
	}
	return nil
}

// pagerCmd runs the pager without a context on purpose: Ctrl-C inside less belongs to less (it stops a
// search), and the pager ends when the learner quits it.
func pagerCmd(getenv func(string) string, path string, args ...string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	env := os.Environ()
	if getenv("LESS") == "" {
		// Quit when the text fits, keep colours, leave the text on the screen when done.
		env = append(env, "LESS=FRX")
	}
	if getenv("LESSCHARSET") == "" {
		env = append(env, "LESSCHARSET=utf-8")
	}
	cmd.Env = env
	return cmd
}
