package grade

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Limits on what is read of a folder submission. Only the files a build uses are read at all; each
// and all of them together are capped while they are read (never trusting a size from stat), and the
// walk itself is bounded, so that a folder of a million entries or a deep chain of folders costs
// the grader no more than a normal one.
//
// The limits are the instructor's (--max-files, --max-bytes, --max-depth; ReadLimits), with
// defaults that fit an exercise program with room to spare.
const (
	maxFileBytes = 8 << 20 // bytes of one file
)

// ReadLimits bound what is read of one submission, a folder or an archive: Files files copied or
// unpacked (the build files of a folder, every file of an archive), Bytes bytes of them together,
// Depth folders deep. The entries looked at (skipped ones included) are bounded by Entries, which is
// at least 20 per file allowed. Archives inside an archive (a zipped clone the LMS zipped again) are
// not what is graded but what is opened in turn (openNested), and what they unpack to counts in
// Files and Bytes then: their own bytes count apart, in Archives, all of them together.
type ReadLimits struct {
	Files    int
	Bytes    int64
	Depth    int
	Entries  int
	Archives int64
}

// DefaultReadLimits are the limits without flags.
var DefaultReadLimits = ReadLimits{Files: 500, Bytes: 20 << 20, Depth: 32, Entries: 10000, Archives: maxZipArchive}

// Flags of the limits, named in a verdict that hit one.
var limitFlags = map[string]string{BigFiles: "--max-files", BigBytes: "--max-bytes", BigDepth: "--max-depth", BigEntries: "--max-files"}

// LimitFlag is the flag that raises the limit of a Big code ("" for a file's own size, which none does).
func LimitFlag(code string) string { return limitFlags[code] }

// of is the limit a Big code names (0 for BigFile, a file's own size, which is fixed).
func (l ReadLimits) of(code string) int64 {
	switch code {
	case BigFiles:
		return int64(l.Files)
	case BigBytes:
		return l.Bytes
	case BigDepth:
		return int64(l.Depth)
	case BigEntries:
		return int64(listLimit(l))
	}
	return 0
}

// orDefault fills the limits left zero with the defaults.
func (l ReadLimits) orDefault() ReadLimits {
	d := DefaultReadLimits
	if l.Files > 0 {
		d.Files = l.Files
	}
	if l.Bytes > 0 {
		d.Bytes = l.Bytes
	}
	if l.Depth > 0 {
		d.Depth = l.Depth
	}
	d.Entries = max(d.Entries, l.Entries, 20*d.Files)
	if l.Archives > 0 {
		d.Archives = l.Archives
	}
	return d
}

// nameKey is the name of an archive's entry as a file system that folds case and Unicode
// normalisation would store it (macOS, Windows), each folder and file folded as foldName folds it:
// two entries of one key are one file there, so the instructor's unzip and ours could take
// different ones, and writing the second would fail.
func nameKey(rel string) string {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = foldName(p)
	}
	return strings.Join(parts, "/")
}

// innerArchive reports whether the entry at rel (slashes) is an archive to open in turn (openNested),
// whose bytes count in ReadLimits.Archives.
func innerArchive(rel string) bool {
	return archiveKind(strings.ToLower(path.Base(rel))) != ""
}

// Kinds of entry left out of a folder submission because they are not regular files.
const (
	SkipSymlink  = "symlink"
	SkipFIFO     = "fifo"
	SkipDevice   = "device"
	SkipSocket   = "socket"
	SkipHardlink = "hardlink"  // a regular file with more than one name
	SkipOther    = "irregular" // anything else, or a file that changed into something else while read
)

// SkippedEntry is an entry of a student's folder that was not read: its path (slashes, relative to
// the submission) and what it is (SkipSymlink, …).
type SkippedEntry struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// errNotRegular is returned when a file turns out not to be a regular file once opened.
var errNotRegular = errors.New("not a regular file")

// Codes of a submission past the limits, kept in Result.Message of a TooBig verdict; its BuildLog
// says the same in English (for results.json), see tooBigError.
const (
	BigFile    = "file"    // one file is larger than maxFileBytes
	BigBytes   = "bytes"   // the files together are larger than maxDirBytes
	BigFiles   = "files"   // more than maxDirFiles files
	BigEntries = "entries" // more than maxDirEntries entries
	BigDepth   = "depth"   // more than maxDirDepth folders deep
)

// tooBigError is a submission past the limits: which limit (a Big code) and, for BigFile, the file.
type tooBigError struct {
	code  string
	path  string
	limit int64
}

func (e *tooBigError) Error() string {
	switch e.code {
	case BigFile:
		return fmt.Sprintf("%s: more than %d bytes", e.path, maxFileBytes)
	case BigBytes:
		return fmt.Sprintf("more than %d bytes in all (%s)", e.limit, LimitFlag(e.code))
	case BigFiles:
		return fmt.Sprintf("more than %d files (%s)", e.limit, LimitFlag(e.code))
	case BigEntries:
		return fmt.Sprintf("more than %d entries (%s)", e.limit, LimitFlag(e.code))
	}
	return fmt.Sprintf("more than %d folders deep (%s)", e.limit, LimitFlag(e.code))
}

// tooBigPath is the file named in the BuildLog of a TooBig verdict with the code BigFile.
func tooBigPath(log string) string {
	return strings.TrimSuffix(log, fmt.Sprintf(": more than %d bytes", maxFileBytes))
}

// skipKind names what a non-regular mode is.
func skipKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return SkipSymlink
	case m&fs.ModeNamedPipe != 0:
		return SkipFIFO
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return SkipDevice
	case m&fs.ModeSocket != 0:
		return SkipSocket
	}
	return SkipOther
}

// buildFile reports the files a build uses, the only ones read of a folder submission: .go files,
// go.mod and go.sum.
func buildFile(name string) bool {
	return strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum"
}

// openRegular opens the file at p for reading when, and only when, it is a regular file: it is opened
// without following a symbolic link in its last part and without blocking (a FIFO would), and the open
// file is checked with fstat, so that a file swapped for a FIFO, a device or a link between a look at
// it and its opening is never read.
func openRegular(p string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w (%s)", p, errNotRegular, skipKind(info.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// readAtMost reads f to its end, or fails with a *tooBigError (BigFile) past limit bytes: the size
// is counted while reading, whatever stat said.
func readAtMost(f io.Reader, limit int64, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &tooBigError{code: BigFile, path: name}
	}
	return data, nil
}

// folderWalk reads the build files of a folder submission safely. It opens the submission as an
// os.Root, so that no name, however it is swapped while the walk goes on, leads out of it; it lists
// every folder without following links, descends only into real folders, and opens only regular
// files (see openRegular). Everything else is left out and recorded in skipped.
type folderWalk struct {
	root    *os.Root
	entries int
	files   int
	bytes   int64
	skipped []SkippedEntry
	// file is called with each build file's path (slashes) and contents.
	file func(rel string, data []byte) error
	lim  ReadLimits
}

// walkFolder walks the submission folder dir, calling file for every build file, and returns the
// entries it left out, sorted by path (those seen before an error too). A *tooBigError means the
// folder is past the limits.
func walkFolder(dir string, file func(rel string, data []byte) error) ([]SkippedEntry, error) {
	return walkFolderLim(dir, DefaultReadLimits, file)
}

// walkFolderLim is walkFolder under the limits lim.
func walkFolderLim(dir string, lim ReadLimits, file func(rel string, data []byte) error) ([]SkippedEntry, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	w := &folderWalk{root: root, file: file, lim: lim.orDefault()}
	err = w.dir(".", 0)
	sort.Slice(w.skipped, func(i, j int) bool { return w.skipped[i].Path < w.skipped[j].Path })
	return w.skipped, err // what was left out before an error too, for the feedback
}

func (w *folderWalk) dir(rel string, depth int) error {
	if depth > w.lim.Depth {
		return &tooBigError{code: BigDepth, limit: int64(w.lim.Depth)}
	}
	d, err := w.root.Open(rel)
	if err != nil {
		return err
	}
	defer d.Close()
	if info, err := d.Stat(); err != nil || !info.IsDir() {
		if err == nil {
			// A folder swapped for something else between the listing and the opening.
			w.skip(rel, SkipOther)
		}
		return err
	}
	var list []fs.DirEntry
	for {
		chunk, err := d.ReadDir(256)
		w.entries += len(chunk)
		if w.entries > w.lim.Entries {
			return &tooBigError{code: BigEntries, limit: int64(w.lim.Entries)}
		}
		list = append(list, chunk...)
		if err == io.EOF || len(chunk) == 0 {
			break
		}
		if err != nil {
			return err
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	for _, e := range list {
		name := e.Name()
		if junkName(name) {
			continue
		}
		p := path.Join(rel, name)
		t := e.Type()
		switch {
		case t.IsDir():
			if name == "vendor" || name == "testdata" {
				continue // never part of a program of this course, and never searched for one
			}
			if err := w.dir(p, depth+1); err != nil {
				return err
			}
		case t.IsRegular():
			if !buildFile(name) {
				continue // not read at all: the build takes only these
			}
			if err := w.regular(p); err != nil {
				return err
			}
		default:
			w.skip(p, skipKind(t))
		}
	}
	return nil
}

func (w *folderWalk) regular(rel string) error {
	f, err := w.root.OpenFile(rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		// Swapped for a link (or removed) after the listing: left out, never followed.
		w.skip(rel, SkipOther)
		return nil
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		w.skip(rel, skipKind(info.Mode()))
		return nil
	}
	if hardLinked(info) {
		// A second name of a file elsewhere (a tar or a copy tool can make one): its contents are
		// not the student's to hand in, and the compiler would quote them in the build log.
		w.skip(rel, SkipHardlink)
		return nil
	}
	if w.files++; w.files > w.lim.Files {
		return &tooBigError{code: BigFiles, limit: int64(w.lim.Files)}
	}
	limit := min(int64(maxFileBytes), w.lim.Bytes-w.bytes)
	data, err := readAtMost(f, limit, rel)
	if err != nil {
		var tb *tooBigError
		if errors.As(err, &tb) && limit < maxFileBytes {
			return &tooBigError{code: BigBytes, limit: w.lim.Bytes}
		}
		return err
	}
	w.bytes += int64(len(data))
	return w.file(rel, data)
}

func (w *folderWalk) skip(rel, kind string) {
	w.skipped = append(w.skipped, SkippedEntry{Path: rel, Kind: kind})
}

// copyFolder copies the build files of the folder submission src into dst (which must exist), as
// walkFolder reads them: what is graded from then on is this copy of regular files alone.
func copyFolder(src, dst string) ([]SkippedEntry, error) {
	return copyFolderLim(src, dst, DefaultReadLimits)
}

// copyFolderLim is copyFolder under the limits lim.
func copyFolderLim(src, dst string, lim ReadLimits) ([]SkippedEntry, error) {
	return walkFolderLim(src, lim, func(rel string, data []byte) error {
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
