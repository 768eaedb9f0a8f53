package render

import (
	"os"

	"golang.org/x/sys/windows"
)

// EnableEscapes makes the console behind f understand ANSI escape sequences (colours, clearing the
// screen), which old Windows consoles need to be told, and returns what puts the console's mode
// back. Where f is no console, or it understands them already, it does nothing.
func EnableEscapes(f *os.File) (restore func(), err error) {
	restore = func() {}
	h := windows.Handle(f.Fd())
	var mode uint32
	if windows.GetConsoleMode(h, &mode) != nil {
		return restore, nil // not a console
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return restore, nil
	}
	if err := windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING); err != nil {
		return restore, err
	}
	return func() { windows.SetConsoleMode(windows.Handle(f.Fd()), mode) }, nil
}
