package grade

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Limits on what a submission's archive may unpack to. A student's program is a few small files;
// anything past these is refused rather than unpacked.
// The files, bytes and depth are ReadLimits (the instructor's flags); the archive's own size is fixed.
const (
	maxZipArchive = 64 << 20 // bytes of the archive itself
)

// Codes of an archive refused, kept in Result.Message.
const (
	ZipCorrupt = "zip_corrupt" // not a zip archive, or damaged
	ZipSlip    = "zip_slip"    // an entry would land outside the folder it is unpacked to
	ZipBomb    = "zip_bomb"    // it unpacks to more than the limits allow
	ZipTwice   = "zip_twice"   // two entries of the same name (perhaps differing in case): which one is the program?
)

// ArchiveError is a submission's archive refused: a code (ZipCorrupt, ZipSlip, ZipBomb) and the
// entry at fault. It is a verdict about the submission, not a failure of the tool.
type ArchiveError struct {
	Code  string
	Entry string
	Limit string // for ZipBomb: the limit hit (BigFiles, BigBytes, BigDepth, BigEntries), if one of ReadLimits
}

func (e *ArchiveError) Error() string {
	if e.Entry == "" {
		return e.Code
	}
	return e.Code + ": " + e.Entry
}

// openArchive opens the archive at src, a regular file of at most limit bytes (see
// openRegular); one that cannot be opened is ZipCorrupt, one that is too large ZipBomb.
func openArchive(src string, limit int64) (*os.File, os.FileInfo, error) {
	f, info, err := openRegular(src)
	if err != nil {
		return nil, nil, &ArchiveError{Code: ZipCorrupt, Entry: filepath.Base(src)}
	}
	if info.Size() > limit {
		f.Close()
		return nil, nil, &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d bytes", info.Size())}
	}
	return f, info, nil
}

// unzip unpacks the archive at src into the folder dst, refusing entries that climb out of it
// (zip-slip), absolute paths, and archives that unpack to more than the limits (zip bombs). Hidden
// entries and archive junk are skipped; symbolic links and other entries that are not regular files
// or folders are skipped too, and returned. Two file entries of one name (compared ignoring case, as
// macOS and Windows would) are refused: the instructor's unzip and ours could take different ones. Names not flagged as UTF-8 that are not
// valid UTF-8 are read as code page 866, which Windows' own zip writes for Cyrillic names.
func unzip(src, dst string) (skipped []SkippedEntry, err error) {
	return unzipLim(src, dst, DefaultReadLimits, "")
}

// unzipLim is unzip under the limits lim. With exercise set, a zip that holds more than a program
// (a clone of the course, a workspace) is unpacked from the exercise's folder alone (pickFolders):
// the limits count what is unpacked, and what is not is never written.
func unzipLim(src, dst string, lim ReadLimits, exercise string) (skipped []SkippedEntry, err error) {
	lim = lim.orDefault()
	f, info, err := openArchive(src, maxListedArchive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// archive/zip reads every central-directory record it finds, whatever the count the archive
	// states: a small archive of a million empty records would cost the grader hundreds of
	// megabytes before the count below could refuse it. Every record starts with its signature, so
	// counting those first bounds what reading the directory can cost.
	if n, err := centralRecords(io.NewSectionReader(f, 0, info.Size())); err != nil {
		return nil, &ArchiveError{Code: ZipCorrupt, Entry: filepath.Base(src)}
	} else if n > listLimit(lim) {
		return nil, &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d entries", n), Limit: BigEntries}
	}
	zr, err := zip.NewReader(f, info.Size())
	if err != nil {
		return nil, &ArchiveError{Code: ZipCorrupt, Entry: err.Error()}
	}
	if len(zr.File) > listLimit(lim) {
		return nil, &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d entries", len(zr.File)), Limit: BigEntries}
	}
	var keep []string
	if exercise != "" {
		keep = zipPick(zr, exercise, lim)
	}
	items, skipped, err := zipItems(zr, lim, keep)
	if err != nil {
		return nil, err
	}
	return skipped, zipExtract(items, dst, lim)
}

// zipPick is what of the zip to unpack for the exercise (pickFolders; nil for all of it).
func zipPick(zr *zip.Reader, exercise string, lim ReadLimits) []string {
	var entries []listed
	byRel := map[string]*zip.File{}
	for _, f := range zr.File {
		rel, err := safeRel(entryName(f))
		if err != nil {
			continue // refused by zipItems
		}
		isDir := f.FileInfo().IsDir() || strings.HasSuffix(f.Name, "/")
		entries = append(entries, listed{rel: rel, file: !isDir && f.Mode().IsRegular(), size: f.UncompressedSize64})
		byRel[rel] = f
	}
	return pickFolders(entries, exercise, lim, mainDirs(entries, func(rel string) (io.ReadCloser, error) {
		return byRel[rel].Open()
	}))
}

// zipItem is an entry of a zip to unpack, at rel (slashes) under the folder.
type zipItem struct {
	f   *zip.File
	rel string
}

// zipItems lists what of a zip is unpacked (inside the folders of keep, when set), and refuses it
// when its names climb out, repeat, nest too deep, or its headers declare more than the limits.
func zipItems(zr *zip.Reader, lim ReadLimits, keep []string) ([]zipItem, []SkippedEntry, error) {
	var items []zipItem
	var skipped []SkippedEntry
	var declared, archives uint64
	files := 0
	seen := map[string]bool{}
	for _, f := range zr.File {
		name := entryName(f)
		rel, err := safeRel(name)
		if err != nil {
			return nil, nil, &ArchiveError{Code: ZipSlip, Entry: name}
		}
		if rel == "" || skipEntry(rel) || !picked(rel, keep) {
			continue
		}
		mode := f.Mode()
		isDir := f.FileInfo().IsDir() || strings.HasSuffix(name, "/")
		switch {
		case mode&os.ModeSymlink != 0 || (!isDir && !mode.IsRegular()):
			skipped = append(skipped, SkippedEntry{Path: rel, Kind: skipKind(mode)})
			continue
		case !isDir && seen[nameKey(rel)]:
			return nil, nil, &ArchiveError{Code: ZipTwice, Entry: name}
		case strings.Count(rel, "/") >= lim.Depth:
			return nil, nil, &ArchiveError{Code: ZipBomb, Entry: name, Limit: BigDepth}
		}
		items = append(items, zipItem{f, rel})
		if !isDir {
			seen[nameKey(rel)] = true
			if innerArchive(rel) {
				archives += f.UncompressedSize64
			} else {
				declared += f.UncompressedSize64
			}
			files++
		}
	}
	if files > lim.Files {
		return nil, nil, &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d files", files), Limit: BigFiles}
	}
	if declared > uint64(lim.Bytes) {
		return nil, nil, &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d bytes declared", declared), Limit: BigBytes}
	}
	if archives > uint64(lim.Archives) {
		return nil, nil, &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d/%d", archives, lim.Archives), Limit: BigBytes}
	}
	return items, skipped, nil
}

// zipExtract unpacks the items into dst, counting what really comes out: the sizes in the headers
// can lie.
func zipExtract(items []zipItem, dst string, lim ReadLimits) error {
	budget, archives := lim.Bytes, lim.Archives
	for _, it := range items {
		target := filepath.Join(dst, filepath.FromSlash(it.rel))
		if !within(dst, target) {
			return &ArchiveError{Code: ZipSlip, Entry: it.f.Name}
		}
		// A name this file system cannot hold (a colon on Windows) is the archive's fault.
		if it.f.FileInfo().IsDir() || strings.HasSuffix(it.f.Name, "/") || strings.HasSuffix(it.f.Name, `\`) {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return &ArchiveError{Code: ZipCorrupt, Entry: it.rel}
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return &ArchiveError{Code: ZipCorrupt, Entry: it.rel}
		}
		b := &budget
		if innerArchive(it.rel) {
			b = &archives
		}
		n, err := extractFile(it.f, target, *b)
		*b -= n
		if err != nil {
			return err
		}
	}
	return nil
}

func extractFile(f *zip.File, target string, budget int64) (int64, error) {
	rc, err := f.Open()
	if err != nil {
		return 0, &ArchiveError{Code: ZipCorrupt, Entry: f.Name}
	}
	defer rc.Close()
	out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			// Two entries with one name (or one that differs only in case on this file system).
			return 0, nil
		}
		return 0, &ArchiveError{Code: ZipCorrupt, Entry: f.Name}
	}
	// Whatever goes wrong reading the entry (a bad checksum, a damaged deflate stream, a method of
	// its own) is the archive's fault; only writing the copy is ours.
	in := &readErr{r: io.LimitReader(rc, budget+1)}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if n > budget {
		return n, &ArchiveError{Code: ZipBomb, Entry: f.Name}
	}
	if in.err != nil {
		return n, &ArchiveError{Code: ZipCorrupt, Entry: f.Name}
	}
	return n, err
}

// entryName is an entry's name as UTF-8.
func entryName(f *zip.File) string {
	name := f.Name
	if f.NonUTF8 && !utf8.ValidString(name) {
		if s, err := charmap.CodePage866.NewDecoder().String(name); err == nil {
			name = s
		}
	}
	return name
}

// safeRel turns an entry's name into a relative slash path inside the archive's folder, or fails
// when the entry would leave it: a ".." that climbs out, an absolute path, a drive letter.
func safeRel(name string) (string, error) {
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || (len(n) >= 2 && n[1] == ':') || strings.ContainsRune(n, 0) {
		return "", errors.New("absolute")
	}
	depth := 0
	for _, part := range strings.Split(n, "/") {
		switch part {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return "", errors.New("climbs out")
			}
		default:
			depth++
		}
	}
	clean := path.Clean(n)
	if clean == "." {
		return "", nil
	}
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", errors.New("climbs out")
	}
	return portablePath(clean), nil
}

// portablePath is rel (slashes, cleaned) with every folder and file named so that every OS writes
// it as it is, the same on every OS: Windows drops a name's trailing dots and spaces ("main.go." is
// main.go there, and writing it beside main.go failed the class), refuses control characters and
// :*?"<>|, and takes CON, NUL, COM1… (with any extension) for devices ("nul.go" in a Moodle folder
// wrote the student's program nowhere). Such characters become "_", trailing dots and spaces go, a
// device name gets "_" before it. Names of every real LMS export and every real program are left
// as they are; only what a file system would change anyway is changed, here, on every OS alike.
func portablePath(rel string) string {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = portableComponent(p)
	}
	return strings.Join(parts, "/")
}

// portableComponent is one name of portablePath.
func portableComponent(p string) string {
	if p == "" || p == "." || p == ".." {
		return p
	}
	p = strings.Map(func(r rune) rune {
		if windowsRefuses(r) {
			return '_'
		}
		return r
	}, p)
	if t := strings.TrimRight(p, ". "); t != p {
		p = t
		if p == "" {
			p = "_"
		}
	}
	if windowsDevice(p) {
		p = "_" + p
	}
	return p
}

// skipEntry reports entries not worth unpacking: anything under a hidden folder or archive junk.
func skipEntry(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if junkName(part) {
			return true
		}
	}
	return false
}

// within reports whether target lies inside dir.
func within(dir, target string) bool {
	rel, err := filepath.Rel(dir, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readErr remembers the error its reader gave, to tell a damaged entry from a failed write.
type readErr struct {
	r   io.Reader
	err error
}

func (e *readErr) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// centralSig starts every record of a zip archive's central directory.
var centralSig = []byte("PK\x01\x02")

// centralRecords counts the places in r where a central-directory record could start: at least as
// many as the records archive/zip would read, since it reads only records that start so. (Compressed
// data may hold the four bytes by chance, once in four billion places: it only makes the bound higher.)
func centralRecords(r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n, carry := 0, 0
	for {
		k, err := io.ReadFull(r, buf[carry:])
		data := buf[:carry+k]
		n += bytes.Count(data, centralSig)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		// Keep the last three bytes: a signature may straddle two reads.
		carry = copy(buf, data[len(data)-(len(centralSig)-1):])
	}
}
