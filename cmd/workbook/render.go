package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/render"
	"github.com/workbook-course/workbook/internal/tty"
)

// width is the column count to wrap prose at: the screen's (at most 100), else 80.
func (e *env) width() int {
	if cols := e.columns(); cols > 0 {
		return min(cols, 100)
	}
	return 80
}

// columns is the width code must fit in: the terminal's, or $COLUMNS when it is set; 0 when
// neither tells.
func (e *env) columns() int {
	if cols := tty.Width(e.stdout, 0); cols > 20 {
		return cols
	}
	if n, err := strconv.Atoi(e.getenv("COLUMNS")); err == nil && n > 20 {
		return n
	}
	return 0
}

// renderMarkdown renders Markdown for e.stdout (internal/render): styled and coloured on a colour
// terminal, plain text anywhere else, prose wrapped once at the screen's width, code never wrapped.
// Piped output is laid out for 80 columns.
func (e *env) renderMarkdown(src string) string {
	return render.Terminal{
		Width:   e.width(),
		Columns: max(e.columns(), e.width()),
		Color:   e.colorOK(e.stdout),
		TooWide: func(cols int) string { return e.ui.T("lesson_too_wide", "Cols", cols) },
	}.Render(src)
}

// printMarkdown renders Markdown onto e.stdout.
func (e *env) printMarkdown(src string) error {
	_, err := io.WriteString(e.stdout, e.renderMarkdown(src))
	return err
}

// page writes text to e.stdout, through a pager when e.stdout is a terminal and text is longer than
// the screen: $PAGER, else less (as less -R, keeping colours), else more. With no pager, or if
// the pager fails to start, the text is written as it is.
func (e *env) page(text string, noPager bool) error {
	if noPager || !tty.IsTerminal(e.stdout) {
		_, err := io.WriteString(e.stdout, text)
		return err
	}
	if rows := tty.Height(e.stdout, 0); rows == 0 || strings.Count(text, "\n") < rows-1 {
		_, err := io.WriteString(e.stdout, text)
		return err
	}
	cmd := e.pager()
	if cmd == nil {
		_, err := io.WriteString(e.stdout, text)
		return err
	}
	cmd.Stdin = strings.NewReader(text)
	cmd.Stdout, cmd.Stderr = e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil // the pager ran and quit its own way
		}
		_, err := io.WriteString(e.stdout, text)
		return err
	}
	return nil
}

// pager is the command that pages text: $WORKBOOK_PAGER or $PAGER (split at spaces), else less, else
// more. It returns nil when none is found.
func (e *env) pager() *exec.Cmd {
	for _, k := range []string{"WORKBOOK_PAGER", "PAGER"} {
		if v := strings.Fields(e.getenv(k)); len(v) > 0 {
			if p, err := exec.LookPath(v[0]); err == nil {
				return e.pagerCmd(p, v[1:]...)
			}
		}
	}
	if p, err := exec.LookPath("less"); err == nil {
		return e.pagerCmd(p, "-R")
	}
	name := "more"
	if runtime.GOOS == "windows" {
		name = "more.com"
	}
	if p, err := exec.LookPath(name); err == nil {
		return e.pagerCmd(p)
	}
	return nil
}

// pagerCmd runs the pager without a context on purpose: Ctrl-C inside less belongs to less (it stops a
// search), and the pager ends when the learner quits it.
func (e *env) pagerCmd(path string, args ...string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	env := os.Environ()
	if e.getenv("LESS") == "" {
		// Quit when the text fits, keep colours, leave the text on the screen when done.
		env = append(env, "LESS=FRX")
	}
	if e.getenv("LESSCHARSET") == "" {
		env = append(env, "LESSCHARSET=utf-8")
	}
	cmd.Env = env
	return cmd
}
