//go:build !windows

package render

import "os"

// EnableEscapes does nothing outside Windows: terminals there understand ANSI escape sequences.
func EnableEscapes(*os.File) (restore func(), err error) { return func() {}, nil }
