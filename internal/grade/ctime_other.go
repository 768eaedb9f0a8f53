//go:build !linux

package grade

import (
	"io/fs"
	"time"
)

// changeTime is not known here: copies are told by their times being alike or too new alone.
func changeTime(fs.FileInfo) (time.Time, bool) { return time.Time{}, false }
