//go:build windows

package checker

import (
	"io/fs"

	"golang.org/x/sys/windows"
)

// processAlive reports whether a process numbered pid exists (it may be another's, or a new one
// that took the number).
func processAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		// Access denied means it exists.
		return err == windows.ERROR_ACCESS_DENIED
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil {
		return true
	}
	return code == 259 // STILL_ACTIVE
}

// ownedByMe: the temporary folder on Windows is the user's own.
func ownedByMe(fs.FileInfo) bool { return true }

// grantTree has nothing to give back here: a program cannot take its owner's rights on a folder
// away by its mode bits.
func grantTree(string) {}
