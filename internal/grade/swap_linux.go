package grade

import (
	"golang.org/x/sys/unix"
)

// swapDirs puts the folder stage where dir was, in one step (renameat2 RENAME_EXCHANGE: at no
// moment is there no report, or half of one), and returns where the folder of dir is now; on a
// file system that cannot exchange, the two renames of swapDirsRename.
func swapDirs(dir, stage string) (old string, err error) {
	if err := unix.Renameat2(unix.AT_FDCWD, stage, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE); err == nil {
		return stage, nil
	}
	return swapDirsRename(dir, stage)
}
