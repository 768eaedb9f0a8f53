//go:build unix

package checker

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// processAlive reports whether a process numbered pid exists (it may be another's).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByMe reports whether the file belongs to this process's user.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// grantTree makes the folder path, and every folder under it, readable, writable and searchable by
// its owner (see removeTree). It goes by descriptors, from each folder to the names in it, so that
// no depth of folders (a path past PATH_MAX) stops it, and it neither follows nor changes a
// symbolic link.
func grantTree(path string) { grantAt(unix.AT_FDCWD, path) }

// grantAt does grantTree's work for the folder name in the open folder dir (AT_FDCWD: the working
// folder), then for the folders in it.
func grantAt(dir int, name string) {
	var st unix.Stat_t
	if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || uint32(st.Mode)&unix.S_IFMT != unix.S_IFDIR {
		return
	}
	if uint32(st.Mode)&0o700 != 0o700 {
		unix.Fchmodat(dir, name, uint32(st.Mode)&0o7777|0o700, 0)
	}
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	var names []string
	buf := make([]byte, 8<<10)
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err != nil || n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	for _, n := range names {
		grantAt(fd, n)
	}
}
