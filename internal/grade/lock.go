package grade

import (
	"errors"
	"os"
	"path/filepath"
)

// LockFile is the file in a report folder that a grading holds locked while it writes there.
const LockFile = ".workbook-grade.lock"

// ErrReportBusy is returned by LockReport when another grading holds the report folder.
var ErrReportBusy = errors.New("another grading is writing this report folder")

// LockReport takes the report folder dir (which must exist) for this process: two gradings
// writing one journal and one set of files at once would mix their students. The lock is the
// operating system's, on LockFile, so a grading that is killed (even with kill -9) leaves no lock
// behind. Unlock releases it. The command line holds it around Run and Write; Run itself does not
// take it.
func LockReport(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
