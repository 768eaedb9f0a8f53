package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/glamour"
	glamouransi "github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"golang.org/x/term"
)

// terminal returns the file descriptor of w when w is a terminal.
func terminal(w io.Writer) (int, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// width is the column count to wrap prose at: the screen's (at most 100), else 80.
func (e *env) width() int {
	if cols := e.columns(); cols > 0 {
		return min(cols-2, 100)
	}
	return 80
}

// columns is the width code must fit in: the terminal's, or $COLUMNS when it is set; 0 when
// neither tells (piped output keeps its code lines whole, to be copied).
func (e *env) columns() int {
	if fd, ok := terminal(e.stdout); ok {
		if cols, _, err := term.GetSize(fd); err == nil && cols > 20 {
			return cols
		}
	}
	if n, err := strconv.Atoi(e.getenv("COLUMNS")); err == nil && n > 20 {
		return n
	}
	return 0
}

// fitLines wraps every line of out wider than cols: it breaks at cols-1 with a ↩ at the end, and
// goes on under the line's own indentation, so that a code block never runs past the screen.
// Colour escapes are kept and not counted.
func fitLines(out string, cols int) string {
	if cols <= 0 {
		return out
	}
	lines := strings.Split(out, "\n")
	fitted := make([]string, 0, len(lines))
	for _, l := range lines {
		if ansi.StringWidth(l) <= cols {
			fitted = append(fitted, l)
			continue
		}
		plain := ansi.Strip(l)
		indent := plain[:len(plain)-len(strings.TrimLeft(plain, " "))]
		if len(indent) > cols/2 {
			indent = indent[:cols/2]
		}
		fitted = append(fitted, ansi.Truncate(l, cols-1, "")+"↩")
		rest := ansi.TruncateLeft(l, cols-1, "")
		for step := cols - 1 - len(indent); ansi.StringWidth(indent+rest) > cols; {
			fitted = append(fitted, indent+ansi.Truncate(rest, step, "")+"↩")
			rest = ansi.TruncateLeft(rest, step, "")
		}
		fitted = append(fitted, indent+rest)
	}
	return strings.Join(fitted, "\n")
}

// plainStyle is glamour's style for text that is not going to a colour terminal, without Markdown's
// own marks: no ** or * around emphasis, no # before headings, no -------- for a rule, no
// backticks around code.
var plainStyle = sync.OnceValue(func() glamouransi.StyleConfig {
	st := styles.ASCIIStyleConfig
	for _, p := range []*glamouransi.StylePrimitive{&st.Strong, &st.Emph, &st.Strikethrough, &st.Code.StylePrimitive} {
		p.BlockPrefix, p.BlockSuffix = "", ""
	}
	for _, h := range []*glamouransi.StyleBlock{&st.H1, &st.H2, &st.H3, &st.H4, &st.H5, &st.H6} {
		h.Prefix = ""
	}
	st.HorizontalRule.Format = "\n"
	return st
})

// renderMarkdown renders Markdown for e.stdout with glamour: styled and highlighted on a colour
// terminal, plain text (no escape sequences, no trailing spaces) anywhere else. Prose is wrapped to
// the terminal's width; code never is (glamour would break Go lines in the middle), so code blocks
// at the top level are rendered apart, unwrapped.
func (e *env) renderMarkdown(src string) (string, error) {
	color := e.colorOK(e.stdout)
	styleOpt := glamour.WithStyles(plainStyle())
	if color {
		style := e.getenv("GLAMOUR_STYLE")
		if _, ok := styles.DefaultStyles[style]; !ok {
			style = styles.LightStyle
			if darkBackground() {
				style = styles.DarkStyle
			}
		}
		styleOpt = glamour.WithStandardStyle(style)
	}
	profile := termenv.Ascii
	if color {
		profile = termenv.NewOutput(e.stdout.(*os.File)).EnvColorProfile()
	}
	renderers := map[bool]*glamour.TermRenderer{}
	for _, code := range []bool{false, true} {
		wrap := e.width()
		if code {
			wrap = 0
		}
		r, err := glamour.NewTermRenderer(styleOpt, glamour.WithWordWrap(wrap), glamour.WithColorProfile(profile))
		if err != nil {
			return "", err
		}
		renderers[code] = r
	}
	var parts []string
	for _, seg := range splitCode(strings.ReplaceAll(src, "\t", "    ")) {
		if strings.TrimSpace(seg.text) == "" {
			continue
		}
		text := seg.text
		if !seg.code {
			text = reflowItems(text)
		}
		out, err := renderers[seg.code].Render(text)
		if err != nil {
			return "", err
		}
		if !color {
			lines := strings.Split(out, "\n")
			for i, l := range lines {
				lines[i] = strings.TrimRight(l, " ")
			}
			out = strings.Join(lines, "\n")
		}
		if seg.code {
			out = fitLines(out, e.columns())
		}
		parts = append(parts, strings.Trim(out, "\n"))
	}
	return strings.Join(parts, "\n\n") + "\n", nil
}

// listItem is the start of a Markdown list item: a bullet or a number, then a space.
var listItem = regexp.MustCompile(`^\s*([-*+]|\d+[.)])\s+`)

// reflowItems joins the lines of each list item into one, so that glamour wraps an item to the
// screen as it wraps a paragraph (it keeps an item's line breaks where the author made them).
func reflowItems(src string) string {
	lines := strings.Split(src, "\n")
	out := make([]string, 0, len(lines))
	inItem := false
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case trimmed == "":
			inItem = false
		case listItem.MatchString(l):
			inItem = true
		case inItem && !strings.ContainsAny(trimmed[:1], "#>|<`~"):
			out[len(out)-1] += " " + trimmed
			continue
		default:
			inItem = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// darkBackground asks the terminal its background colour once per run: the question costs a round
// trip, and a quiz renders many times.
var darkBackground = sync.OnceValue(termenv.HasDarkBackground)

// segment is a run of Markdown: prose, or one fenced code block at the top level.
type segment struct {
	text string
	code bool
}

// splitCode cuts Markdown into prose and the fenced code blocks that start at the first column.
func splitCode(src string) []segment {
	var segs []segment
	var cur strings.Builder
	fenceMark := ""
	flush := func(code bool) {
		if cur.Len() > 0 {
			segs = append(segs, segment{text: cur.String(), code: code})
			cur.Reset()
		}
	}
	for _, line := range strings.SplitAfter(src, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		switch {
		case fenceMark == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			flush(false)
			fenceMark = trimmed[:3]
			for _, c := range trimmed[3:] {
				if string(c) != fenceMark[:1] {
					break
				}
				fenceMark += string(c)
			}
			cur.WriteString(line)
		case fenceMark != "" && strings.HasPrefix(trimmed, fenceMark) && strings.Trim(trimmed, fenceMark[:1]+" ") == "":
			cur.WriteString(line)
			flush(true)
			fenceMark = ""
		default:
			cur.WriteString(line)
		}
	}
	flush(fenceMark != "")
	return segs
}

// printMarkdown renders Markdown onto e.stdout.
func (e *env) printMarkdown(src string) error {
	out, err := e.renderMarkdown(src)
	if err != nil {
		return err
	}
	_, err = io.WriteString(e.stdout, out)
	return err
}

// page writes text to e.stdout, through a pager when e.stdout is a terminal and text is longer than
// the screen: $PAGER, else less (as less -R, keeping colours), else more. With no pager, or if
// the pager fails to start, the text is written as it is.
func (e *env) page(text string, noPager bool) error {
	fd, tty := terminal(e.stdout)
	if noPager || !tty {
		_, err := io.WriteString(e.stdout, text)
		return err
	}
	if _, rows, err := term.GetSize(fd); err != nil || strings.Count(text, "\n") < rows-1 {
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
