//go:build !windows

package workspace

// osLocale is "": on Linux and macOS the locale is the environment's (a macOS terminal sets LANG
// from the system's language unless told not to).
func osLocale() string { return "" }
