// Package codediff sets a learner's program against the course's reference solution, file by file,
// as unified diffs: what `workbook solution` shows, so that the learner reads what differs rather
// than the whole file.
//
//	files, _ := ex.Solution(lang)
//	for _, f := range codediff.Compare(dir, files) {
//		switch {
//		case f.Missing: // no such file in dir: show f.Solution whole
//		case f.Same():  // the learner's file is the solution's
//		default:        // f.Diff: "--- mine", "+++ solution", hunks of "-", "+" and " " lines
//		}
//	}
//
// The differ is github.com/aymanbagabas/go-udiff, the go command's own (golang.org/x/tools
// internal/diff) published as a library. Line endings are compared after CRLF to LF, as transcripts
// are; a learner's file is read only when it is a regular file, and only up to MaxFile bytes.
package codediff

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/workbook-course/workbook/internal/course"
)

// MaxFile is the largest learner's file compared; a larger one is compared by its first MaxFile
// bytes (its diff then shows the rest as missing, which is what the learner needs to see anyway).
const MaxFile = 1 << 20

// Context is the number of unchanged lines shown around each change.
const Context = 3

// File is one file of the reference solution set against the learner's file of the same name.
type File struct {
	Name     string // the file's path inside the solution's folder, with forward slashes
	Mine     string // the learner's file of that name (in dir)
	Solution []byte // the reference solution's file
	// Missing: the learner has no such file, or it is not a regular file that can be read; Diff is
	// then "" and the solution's file is to be shown whole.
	Missing bool
	Diff    string // a unified diff from the learner's file to the solution's; "" when they are the same
}

// Same reports whether the learner's file is the solution's, line endings aside.
func (f File) Same() bool { return !f.Missing && f.Diff == "" }

// Compare sets every file of a solution against the file of the same name in dir. The diff's
// headers name the learner's file as mineLabel/NAME and the solution's as solLabel/NAME.
func Compare(dir, mineLabel, solLabel string, solution []course.SourceFile) []File {
	out := make([]File, 0, len(solution))
	for _, s := range solution {
		f := File{Name: s.Name, Mine: filepath.Join(dir, filepath.FromSlash(s.Name)), Solution: s.Data}
		mine, err := readRegular(f.Mine)
		if err != nil {
			f.Missing = true
			out = append(out, f)
			continue
		}
		f.Diff = Unified(path.Join(mineLabel, s.Name), path.Join(solLabel, s.Name), string(mine), string(s.Data))
		out = append(out, f)
	}
	return out
}

// Unified is the unified diff from old to new, with Context lines of context, its headers naming
// oldLabel and newLabel; "" when the two are the same after CRLF to LF. A missing final newline is
// marked as diff(1) marks it.
func Unified(oldLabel, newLabel, old, new string) string {
	old, new = lf(old), lf(new)
	if old == new {
		return ""
	}
	d, err := udiff.ToUnified(oldLabel, newLabel, old, udiff.Lines(old, new), Context)
	if err != nil { // the edits come from the same texts; an error here is a bug in the differ
		panic(fmt.Sprintf("codediff: %v", err))
	}
	return d
}

func lf(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// readRegular reads at most MaxFile bytes of name, which must be a regular file (no symlink, FIFO
// or device: a learner's folder is read safely).
func readRegular(name string) ([]byte, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var buf bytes.Buffer
	_, err = io.Copy(&buf, io.LimitReader(fh, MaxFile))
	return buf.Bytes(), err
}
