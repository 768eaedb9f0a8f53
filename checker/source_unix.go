//go:build unix

package checker

import (
	"os"
	"syscall"
)

// openRegular opens path for reading when it is a regular file: never through a symbolic link,
// never waiting on a FIFO or a device (O_NONBLOCK), and checked again on the open descriptor.
// ok is false, with no error, when it is anything else.
func openRegular(path string) (f *os.File, ok bool, err error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err == syscall.ELOOP || err == syscall.ENXIO {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, false, nil
	}
	// Reads of a regular file never block; the descriptor is made blocking again for os.File.
	syscall.SetNonblock(fd, false)
	return os.NewFile(uintptr(fd), path), true, nil
}
