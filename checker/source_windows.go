//go:build windows

package checker

import "os"

// openRegular opens path for reading when it is a regular file (not a link, a device or a pipe),
// checked before and after the open. ok is false, with no error, when it is anything else.
func openRegular(path string) (f *os.File, ok bool, err error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, nil
	}
	f, err = os.Open(path)
	if err != nil {
		return nil, false, err
	}
	if fi2, err := f.Stat(); err != nil || !fi2.Mode().IsRegular() || !os.SameFile(fi, fi2) {
		f.Close()
		return nil, false, nil
	}
	return f, true, nil
}
